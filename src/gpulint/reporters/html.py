"""A self-contained HTML cost report: `gpulint scan|cost|diff --format html`.

One file, no network: the style sheet, the one script and the charts (inline SVG drawn by
gpulint.reporters.svg) are in the page, and its Content-Security-Policy forbids loading
anything else. Totals are the report's own (summary, cost breakdown), never re-added.
Sections: headline figures, (for a diff: before → after per changed resource, new and fixed
findings), cost charts, the findings table, what could not be evaluated, every resource.
"""

from __future__ import annotations

from typing import Any

from gpulint.pricing.breakdown import breakdown, group_value
from gpulint.report.budget import headline
from gpulint.reporters.html_assets import CSS, JS, content_security_policy
from gpulint.reporters.html_lists import findings_section, options_section, resources_section
from gpulint.reporters.html_parts import (
    cost_figure,
    esc,
    figure,
    savings_figure,
    short,
    sum_by,
    table,
    top_figure,
    usd_data,
    where,
)
from gpulint.reporters.svg import Pair, legend, pair_chart
from gpulint.reporters.text import price_note
from gpulint.units import usd, usd_compact

PAIRS = 15  # changed resources drawn in the diff chart; the table lists all


def _page(title: str, body: list[str], report: dict[str, Any]) -> str:
    tool = report.get("tool") or {}
    version = esc(f"{tool.get('name') or 'gpulint'} {tool.get('version') or ''}".strip())
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy()}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
            + "".join(body)
            + f"<footer><p>{esc(price_note(report))}</p><p>{version}</p></footer>"
            f"<script>{JS}</script></body></html>\n")


def _stat(label: str, value_html: str, sid: str) -> str:
    return f'<div class="stat" id="{sid}"><span class="k">{esc(label)}</span>{value_html}</div>'


def _count(n: Any) -> str:
    return f'<data value="{int(n or 0)}">{int(n or 0):,}</data>'


def _headline(report: dict[str, Any]) -> str:
    s = report["summary"]
    cat = report.get("catalog") or {}
    low, top = s.get("monthly_cost_min_usd", s["monthly_cost_usd"]), s.get("monthly_cost_max_usd")
    stats = [_stat("Monthly GPU cost", usd_data(s["monthly_cost_usd"], rounded=True),
                   "stat-monthly"),
             _stat("Potential saving / month", usd_data(s["potential_saving_usd"], rounded=True),
                   "stat-saving"),
             _stat("GPU resources", _count(s["gpu_resources"]), "stat-resources"),
             _stat("Not priced", _count(s["unpriced_resources"]), "stat-unpriced"),
             _stat("Could not evaluate", _count(s.get("not_evaluated")), "stat-not-evaluated"),
             _stat("Catalog date", f'<span class="v">{esc(cat.get("date") or "?")}</span>',
                   "stat-catalog")]
    ceiling = ('<p class="note" id="ceiling">Autoscaling is priced at its expected (desired) '
               f"size; over its range the bill is {usd_data(low)} to {usd_data(top)} a month.</p>"
               if isinstance(top, (int, float)) and isinstance(low, (int, float)) and top != low
               else "")
    return '<section class="stats" aria-label="Headline figures">' + "".join(stats) + \
        "</section>" + ceiling


def _charts(report: dict[str, Any], group_by: str) -> str:
    res = report["resources"]
    if not res:
        return ('<section aria-labelledby="h-charts"><h2 id="h-charts">Where the money goes'
                "</h2><p>No GPU resources found.</p></section>")
    total = report["summary"]["monthly_cost_usd"]
    unpriced = report["summary"]["unpriced_resources"]
    note = (f" Not priced ({unpriced}): counted in the tables, no bar length."
            if unpriced else "")
    by_group = breakdown(report, group_by)["totals"]["by_group"]
    counts = sum_by(res, lambda r: group_value(r, group_by))
    groups = [(g, by_group.get(g, 0.0), n) for g, _v, n in counts]
    groups.sort(key=lambda t: (-t[1], t[0]))
    figs = [
        cost_figure("by-group", f"Monthly cost by {group_by}", group_by, groups, total,
                    f"Per value of the tag or label <code>{esc(group_by)}</code> "
                    f"(<code>--group-by</code>); resources without it are (untagged).{note}"),
        cost_figure("by-cloud", "Monthly cost by cloud", "Cloud",
                    sum_by(res, lambda r: r.get("cloud") or "(cloud not known)"), total,
                    "Where the GPUs run: Kubernetes workloads count under the cloud their "
                    "node labels name." + note),
        cost_figure("by-gpu", "Monthly cost by GPU model", "GPU model",
                    sum_by(res, lambda r: r.get("gpu_model") or "(model not known)"), total,
                    "Which accelerators the money buys." + note),
        cost_figure("by-workload", "Monthly cost by workload class", "Workload",
                    sum_by(res, lambda r: r.get("workload") or "unknown"), total,
                    "Inference, training, notebooks and batch, as gpulint classified each "
                    "resource." + note),
        savings_figure(report["findings"]),
        top_figure(res, total),
    ]
    return '<section aria-labelledby="h-charts"><h2 id="h-charts">Where the money goes</h2>' \
        '<div class="charts">' + "".join(figs) + "</div></section>"


def _problems(report: dict[str, Any]) -> str:
    out = []
    ne = report.get("not_evaluated") or []
    if ne:
        rows = [[where(n), f"<code>{esc(n.get('rule') or '')}</code>",
                 f"<code>{esc(n.get('address'))}</code>", esc(n.get("reason"))] for n in ne]
        out.append('<section aria-labelledby="h-ne"><h2 id="h-ne">Could not evaluate '
                   f"({len(ne)})</h2>" + table(("Where", "Rule", "Resource", "Reason"), rows,
                                                 frozenset()) + "</section>")
    diags = report.get("diagnostics") or []
    if diags:
        rows = [[where(d), esc(d.get("severity")), esc(d.get("message"))] for d in diags]
        out.append('<section aria-labelledby="h-diag"><h2 id="h-diag">File problems '
                   f"({len(diags)})</h2>" + table(("Where", "Severity", "Message"), rows,
                                                  frozenset()) + "</section>")
    return "".join(out)


def _report_body(report: dict[str, Any], group_by: str) -> list[str]:
    return [_charts(report, group_by),
            findings_section(report["findings"], "Findings", "h-findings", filters=True),
            _problems(report), resources_section(report, group_by), options_section(report)]


def render(report: dict[str, Any], group_by: str = "team") -> str:
    """The page for a scan report (report.build / `scan --format json`)."""
    s = report["summary"]
    sub = (f"{s['gpu_resources']} GPU resources in {s['files_scanned']} files · "
           f"{usd_compact(s['monthly_cost_usd'])}/month")
    body = [('<header><h1>GPU cost report</h1>'
            f'<p class="sub">{esc(sub)}</p></header>'), _headline(report)]
    return _page("GPU cost report", body + _report_body(report, group_by), report)


# --------------------------------------------------------------------------- diff


def _changed(e: dict[str, Any]) -> str:
    parts = [f"{k} {v['before']} → {v['after']}" for k, v in (e.get("changes") or {}).items()
             if k not in {"hourly_cost_usd", "monthly_cost_usd"}]
    if e.get("renamed_from"):
        parts.insert(0, f"was {e['renamed_from']}")
    return esc(", ".join(parts))


def _diff_section(d: dict[str, Any]) -> str:
    changed = [e for e in d["resources"] if e["change"] != "unchanged"]
    changed.sort(key=lambda e: -abs(e.get("delta_usd") or 0))
    pairs = []
    for e in changed[:PAIRS]:
        label, title = short(f"{e['change']}: {e['address']}")
        before, after = e.get("before_usd") or 0.0, e.get("after_usd") or 0.0
        side = e.get("after_usd") if e["change"] != "removed" else e.get("before_usd")
        text = esc(f"{e['change']}, not priced" if side is None else
                   f"{usd_compact(before)} → {usd_compact(after)} "
                   f"({usd_compact(e.get('delta_usd'), signed=True)})"
                   if e["change"] not in ("added", "removed") else
                   f"{e['change']} {usd_compact(side)}")
        pairs.append(Pair(label, before, after, text, title))
    rows = [[esc(e["change"]), f"<code>{esc(e['address'])}</code><br>{where(e)}",
             usd_data(e.get("before_usd")), usd_data(e.get("after_usd")),
             usd_data(e.get("delta_usd"), signed=True), _changed(e)] for e in changed]
    chart = (legend() + pair_chart(pairs, "Bar chart: monthly cost before and after per "
                                   "changed resource")) if pairs else \
        "<p>No GPU resource changed.</p>"
    more = f" The {len(changed) - PAIRS} smallest changes are in the table only." \
        if len(changed) > PAIRS else ""
    fig = figure("diff-chart", "Before → after per changed resource",
                 f"Largest changes first.{more}", chart,
                 table(("Change", "Resource", "Before", "After", "Delta", "What changed"), rows,
                       frozenset({2, 3, 4})), wide=True)
    return ('<section aria-labelledby="h-diff"><h2 id="h-diff">What the change does</h2>'
            f'<div class="charts">{fig}</div></section>')


def render_diff(d: dict[str, Any], head: dict[str, Any], group_by: str = "team") -> str:
    """The page for `gpulint diff`: the change first, then the bill after it."""
    changed = sum(1 for e in d["resources"] if e["change"] != "unchanged")
    stats = [_stat("Before / month", usd_data(d["base_monthly_usd"], rounded=True),
                   "stat-before"),
             _stat("After / month", usd_data(d["head_monthly_usd"], rounded=True), "stat-after"),
             _stat("Change / month", usd_data(d["delta_usd"], signed=True, rounded=True),
                   "stat-delta"),
             _stat("Resources changed", _count(changed), "stat-changed"),
             _stat("New findings", _count(len(d["new_findings"])), "stat-new"),
             _stat("Fixed findings", _count(len(d["fixed_findings"])), "stat-fixed")]
    unpriced = (f'<p class="note">{d["unpriced_changes"]} changed resource(s) not priced; '
                "the totals count priced resources only.</p>"
                if d.get("unpriced_changes") else "")
    verdict = headline(d.get("budget"))
    if verdict:
        failed = (d.get("budget") or {}).get("failed")
        unpriced += (f'<p class="note" id="budget" role="{"alert" if failed else "status"}">'
                     f"<strong>{esc(verdict)}</strong></p>")
    body = [('<header><h1>GPU cost change</h1><p class="sub">Against '
            f"<code>{esc(d['base_ref'])}</code>: {esc(usd(d['delta_usd'], signed=True))}"
            "/month</p></header>"),
            '<section class="stats" aria-label="Headline figures">' + "".join(stats)
            + "</section>" + unpriced, _diff_section(d),
            findings_section(d["new_findings"], "New findings", "h-new"),
            findings_section(d["fixed_findings"], "Fixed findings", "h-fixed"),
            '<h2 id="h-after">The bill after the change</h2>', _headline(head)]
    return _page("GPU cost change", body + _report_body(head, group_by), d)
