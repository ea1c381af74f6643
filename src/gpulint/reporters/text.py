"""Human-readable output: one line per finding, then resources with their monthly cost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpulint.reporters.finding_order import alternatives, sorted_findings
from gpulint.reporters.wrap import fit, keep
from gpulint.units import plural, usd_whole

_COLOURS = {"error": "\033[31m", "warning": "\033[33m", "info": "\033[36m", "dim": "\033[2m",
            "bold": "\033[1m", "reset": "\033[0m"}


Colour = Callable[[str, str], str]


def render(report: dict[str, Any], *, colour: bool = False, verbose: bool = False,
           quiet: bool = False) -> str:
    """The report; ``quiet``: the findings and the files that could not be parsed only."""
    def c(name: str, text: str) -> str:
        return f"{_COLOURS[name]}{text}{_COLOURS['reset']}" if colour else text

    out = _diagnostics(report, c, lambda d: d["severity"] == "error")
    if verbose:  # which file decided what was scanned and how (or none: the defaults)
        out = [c("dim", f"configuration: {report.get('configuration') or 'none (defaults)'}"),
               *out]
    overlapping = alternatives(report["findings"])
    for f in sorted_findings(report["findings"]):
        out += _finding(f, id(f) in overlapping, c, verbose)
    if quiet:
        return "".join(line + "\n" for line in out)
    if report["resources"] and verbose:  # the table is `gpulint cost`; here with -v only
        out += ["", c("bold", "GPU resources")]
        for r in report["resources"]:
            out += _resource(r, c, verbose)
    out += (_not_evaluated(report["not_evaluated"], c) if verbose
            else _not_evaluated_grouped(report, c))
    out += _suppressed(report.get("suppressed") or [], c)
    out += _options(report.get("options") or [], c)
    note = price_note(report) if verbose else short_price_note(report)
    out += ["", *fit(_totals(report)), *(c("dim", line) for line in fit(note)),
            verdict(report)]  # the summary stays one line, the last
    while out and out[0] == "":  # a blank line separates sections; nothing comes before it
        out.pop(0)
    return "\n".join(out) + "\n"


def _finding(f: dict[str, Any], alternative: bool, c: Colour, verbose: bool) -> list[str]:
    """`path:line: severity rule address: short message [saves $X/mo]`, wrapped at 80
    columns; with -v the whole message and the fix."""
    saving = ""
    if f.get("monthly_saving_usd"):
        # Fixes to one resource overlap: all but its largest saving are alternatives.
        alt = "alternative: " if alternative else ""
        saving = " " + keep(f"[{alt}saves {usd_whole(f['monthly_saving_usd'])}/mo]")
    label = f"{f['severity']} {f['rule']}"
    head = keep(f"{f['path']}:{f['line']}: {label}")
    message = f["message"] if verbose else f.get("short_message") or f["message"]
    lines = fit(f"{head} {message}{saving}")
    lines[0] = lines[0].replace(label, f"{c(f['severity'], f['severity'])} {c('bold', f['rule'])}",
                                1)
    if verbose:
        lines += fit(f"fix: {f['remediation']}", "    ", "         ")
    return lines


def root_cause(reason: str) -> str:
    """The innermost cause of a "could not evaluate" reason: `could not evaluate: gpu.x: GPU
    model unknown: no node selector …; …` → `no node selector …`."""
    first = reason.split("; ")[0]
    return first.rsplit(": ", 1)[-1].strip()


def _not_evaluated_grouped(report: dict[str, Any], c: Colour) -> list[str]:
    """One line per root cause with how many GPU resources it leaves unevaluated and the
    first one's place; every item with -v."""
    causes: dict[str, dict[tuple[str, str], str]] = {}
    reasons: dict[str, str] = {}  # each cause's first whole reason, which may name its fix
    for n in report["not_evaluated"]:
        where = causes.setdefault(root_cause(n["reason"]), {})
        reasons.setdefault(root_cause(n["reason"]), n["reason"])
        where.setdefault((n["path"], n["address"]), f"{n['path']}:{n['line']}")
    for r in report["resources"]:
        for u in r["unknowns"]:
            where = causes.setdefault(root_cause(u["reason"]), {})
            reasons.setdefault(root_cause(u["reason"]), u["reason"])
            where.setdefault((r["path"], r["address"]), f"{r['path']}:{r['line']}")
    if not causes:
        return []
    from gpulint.report.remedies import fix_for

    total = len({key for where in causes.values() for key in where})
    out = ["", c("bold", f"Could not evaluate {plural(total, 'GPU resource')} (-v lists them)")]
    for cause, where in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        first = next(iter(where.values()))
        more = f" and {len(where) - 1} more" if len(where) > 1 else ""
        out += fit(f"{len(where)}× {cause} (first at {keep(first)}{more})", "  ", "    ")
        out += [c("dim", line) for line in fit(f"fix: {fix_for(cause, reasons[cause])}", "    ",
                                                      "         ")]
    return out


def notices(report: dict[str, Any], *, colour: bool = False) -> str:
    """Tool notices (warning and info diagnostics), for standard error: they do not set the
    exit status unless strict mode asks (report/exit.py)."""
    def c(name: str, text: str) -> str:
        return f"{_COLOURS[name]}{text}{_COLOURS['reset']}" if colour else text

    lines = _diagnostics(report, c, lambda d: d["severity"] != "error")
    return "".join(line + "\n" for line in lines)


def _diagnostics(report: dict[str, Any], c: Colour,
                 keep: Callable[[dict[str, Any]], bool]) -> list[str]:
    out = []
    for d in report["diagnostics"]:
        if keep(d):
            where = f"{d['path']}:{d['line']}" if d.get("line") else d["path"]
            tone = "error" if d["severity"] == "error" else "warning"
            out.append(f"{where}: {c(tone, d['severity'])} {d['message']}")
    return out


def _whole(v: Any) -> str:
    """Whole dollars in the resource list (cents stay in the price bases)."""
    return usd_whole(v) if isinstance(v, (int, float)) else "not priced"


def _resource(r: dict[str, Any], c: Colour, verbose: bool) -> list[str]:
    what = r["instance_type"] or (f"{r['gpu_count'] or '?'}× {r['gpu_model'] or 'GPU'}")
    cost = _whole(r["monthly_cost_usd"])
    low, top = r.get("monthly_cost_min_usd"), r.get("monthly_cost_max_usd")
    if top is not None and r["monthly_cost_usd"] is not None and top != low:
        # Autoscaling pools: the expected size, and the range it can move in beside it.
        low = r["monthly_cost_usd"] if low is None else low
        cost = f"{cost}/month expected, range {_whole(low)}–{_whole(top)}"
    count = f" × {r['count']:g}" if isinstance(r.get("count"), (int, float)) else ""
    cost = f"{cost}/month" if r["monthly_cost_usd"] is not None else cost
    out = fit(f"{keep(r['path'] + ':' + str(r['line']))} {r['address']}  {keep(what + count)} "
              f"{r['capacity']}  {cost}", "  ", "      ")
    change = r.get("change")
    if change and change.get("actions") not in (["no-op"], ["read"]):
        # From a Terraform plan: what the change does, and the cost before it.
        before = change.get("monthly_cost_before_usd")
        was = f", was {_whole(before)}/month" if before is not None else ""
        out += fit(f"plan: {'/'.join(change['actions'])}{was}", "      ", "        ")
    if verbose and r.get("price_basis"):
        out += [c("dim", line) for line in fit(r["price_basis"], "      ", "        ")]
    for u in r["unknowns"]:
        out += [c("dim", line) for line in fit(f"could not evaluate {u['fact']}: {u['reason']}",
                                               "      ", "        ")]
    return out


def _options(rows: list[dict[str, Any]], c: Colour) -> list[str]:
    """Choices users may make (JupyterHub GPU profiles): each with its hourly price, apart
    from the totals, which count only what runs."""
    if not rows:
        return []
    out = ["", c("bold", f"Options users can pick ({len(rows)}; per hour, not in the totals)")]
    for r in rows:
        what = r["instance_type"] or f"{r['gpu_count'] or '?'}× {r['gpu_model'] or 'GPU'}"
        hourly = r["hourly_cost_usd"]
        money = f"${hourly:,.2f}/h" if isinstance(hourly, (int, float)) else "not priced"
        out += fit(f"{keep(r['path'] + ':' + str(r['line']))} {r['option']}  {keep(what)} "
                   f"{r['capacity']}  {money}", "  ", "      ")
    return out


def _not_evaluated(ne: list[dict[str, Any]], c: Colour) -> list[str]:
    if not ne:
        return []
    out = ["", c("bold", f"Could not evaluate ({len(ne)})")]
    for n in ne:
        rule = f"{n['rule']} " if n.get("rule") else ""
        out += fit(f"{keep(n['path'] + ':' + str(n['line']))} {rule}{n['address']}: "
                   f"{n['reason']}", "  ", "      ")
    return out


def _suppressed(suppressed: list[dict[str, Any]], c: Colour) -> list[str]:
    if not suppressed:
        return []
    out = ["", c("bold", f"Suppressed ({len(suppressed)})")]
    for f in suppressed:
        sup = f["suppression"]
        until = f", until {sup['until']}" if sup.get("until") else ""
        out += fit(f"{keep(f['path'] + ':' + str(f['line']))} {f['rule']} {f['address']}: "
                   f"{sup['reason'] or 'no reason'}{until} ({sup['path']}:{sup['line']})",
                   "  ", "      ")
    return out


def _totals(report: dict[str, Any]) -> str:
    s = report["summary"]
    return (
        f"{plural(s['gpu_resources'], 'GPU resource')} in {plural(s['files_scanned'], 'file')}: "
        f"{usd_whole(s['monthly_cost_usd'])}/month"
        + (f" expected (autoscaling range {usd_whole(low)}–{usd_whole(top)})"
           if (top := s.get("monthly_cost_max_usd", s["monthly_cost_usd"]))
           != (low := s.get("monthly_cost_min_usd", s["monthly_cost_usd"])) else "")
        + (f", {s['unpriced_resources']} not priced" if s["unpriced_resources"] else "")
        + f"; potential saving {usd_whole(s['potential_saving_usd'])}/month")


def verdict(report: dict[str, Any]) -> str:
    """The last line: the counts that set the exit status, and the status they set."""
    s = report["summary"]
    counts, gate = s["findings"], s.get("gate") or {}
    parts = [f"{plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}, "
             f"{counts['info']} info"]
    if gate.get("broken_files"):
        parts.append(f"{plural(gate['broken_files'], 'file')} not parsed")
    why = "strict" if gate.get("strict") else "not gating"
    if gate.get("notices"):
        parts.append(f"{plural(gate['notices'], 'tool warning')} ({why})")
    if gate.get("strict") and gate.get("unevaluated"):
        parts.append(f"{plural(gate['unevaluated'], 'GPU resource')} not evaluated ({why})")
    parts += [f"{s[k]} {k}" for k in ("suppressed", "baselined") if s.get(k)]
    if not gate:
        return "; ".join(parts)
    status = "fail" if gate["failed"] else "pass"
    return f"{'; '.join(parts)}: {status} (--fail-on {gate['fail_on']})"


def dates_text(report: dict[str, Any], short: bool = False) -> str:
    """The date of the prices per cloud the report priced ("aws 2026-01-21 (part undated), gcp
    2026-05-20"; short: clouds of one date joined, "azure+gcp 2026-05-20", no "part undated");
    the catalog's date when nothing was priced or the catalog does not say which source priced
    which cloud."""
    dates: dict[str, str] = report["catalog"].get("dates") or {}
    priced = {r.get("cloud") for r in report.get("resources", [])  # scan, cost and diff rows
              if next((r[k] for k in ("monthly_cost_usd", "monthly_usd", "after_usd")
                       if k in r), None) is not None}
    shown = {c: d for c, d in dates.items() if c in priced}
    if not shown:
        return str(report["catalog"].get("date"))
    if not short:
        return ", ".join(f"{cloud} {date}" for cloud, date in shown.items())
    by_date: dict[str, list[str]] = {}
    for cloud, date in shown.items():
        by_date.setdefault(date.split(" (")[0], []).append(cloud)
    return ", ".join(f"{'+'.join(clouds)} {date}" for date, clouds in by_date.items())


def short_price_note(report: dict[str, Any]) -> str:
    """The price basis in one short line (two for several clouds); sources with -v."""
    cat = report["catalog"]
    kind = "list prices with overrides" if cat.get("pricing_overrides") else "list prices"
    stale = " (stale: gpulint catalog update)" if cat.get("stale_note") else ""
    dates = dates_text(report, short=True)
    what = f"{kind} of {dates}" if dates == str(cat.get("date")) else \
        (f"{dates} (with overrides)" if cat.get("pricing_overrides") else dates)
    managed = managed_note(report)
    return f"Prices: {what}{stale}, {report['hours_per_month']:g} h/month" + (
        f".{managed}" if managed else "")


def price_note(report: dict[str, Any]) -> str:
    """Where the figures come from: catalog date and source, overrides, hours."""
    cat = report["catalog"]
    overrides = cat.get("pricing_overrides")
    kind = f"list prices with overrides from {overrides}" if overrides else "list prices"
    origin, source = cat.get("origin") or "unknown", cat.get("source") or "unknown"
    return (f"Prices: {kind} of {dates_text(report)} (catalog {origin}; source {source}), "
            f"{report['hours_per_month']:g} h/month unless noted, USD."
            + managed_note(report)
            + (f" Note: {cat['stale_note']}." if cat.get("stale_note") else ""))


def managed_note(report: dict[str, Any]) -> str:
    """Managed services billed at their own rates are dated by those rates, not the catalog's
    instance prices: said once, the date is in each resource's basis."""
    bases = [str(r.get("price_basis") or r.get("basis") or "")
             for r in report.get("resources", [])]
    notes = [note for mark, note in (
        ("SageMaker rates:", " SageMaker ml.* instances at SageMaker's own rates, dated in each "
                             "basis."),
        ("Cloud Run GPU rates", " Cloud Run GPU services at Cloud Run's own rates, dated in each "
                                "basis."))
        if any(mark in b for b in bases)]
    return "".join(notes)
