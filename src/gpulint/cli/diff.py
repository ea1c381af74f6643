"""`gpulint diff --base REF [PATH]...`: what a change does to the monthly GPU bill."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from gpulint import reporters
from gpulint.cli import output as output_mod
from gpulint.cli.options import build_settings, scan_flags
from gpulint.cli.output import output_option
from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text
from gpulint.report.budget import headline
from gpulint.reporters.tables import markdown_table, text_table
from gpulint.units import plural
from gpulint.units import usd as money

HEADERS = ("Change", "Resource", "Location", "Before", "After", "Delta")
NUMERIC = frozenset({3, 4, 5})
GATE_NOTE = "This change edits gating settings, not applied to its own run: "


def _cells(e: dict[str, Any]) -> list[str]:
    name = e["address"] + (f" (was {e['renamed_from']})" if e.get("renamed_from") else "")
    before = "—" if e["change"] == "added" else money(e["before_usd"])
    after = "—" if e["change"] == "removed" else money(e["after_usd"])
    return [e["change"], name, f"{e['path']}:{e['line']}", before, after,
            money(e["delta_usd"], signed=True)]


def _shown(v: Any) -> str:
    """A changed value as a reader writes it: 8, not 8.0."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v)


def _what_changed(e: dict[str, Any]) -> str:
    parts = []
    for k, v in e["changes"].items():
        if k in {"hourly_cost_usd", "monthly_cost_usd"}:
            continue
        before, after = v["before"], v["after"]
        if isinstance(before, dict) and isinstance(after, dict):  # replicas: only what moved
            parts += [f"{k}.{sub} {_shown(before.get(sub))} → {_shown(after.get(sub))}"
                      for sub in {**before, **after} if before.get(sub) != after.get(sub)]
        else:
            parts.append(f"{k} {_shown(before)} → {_shown(after)}")
    return ", ".join(parts)


def _headline(d: dict[str, Any]) -> str:
    worst = d.get("delta_max_usd")
    worst_text = f", worst case {money(worst, signed=True)}" \
        if worst is not None and worst != d["delta_usd"] else ""
    return (f"Monthly GPU cost: {money(d['base_monthly_usd'])} → {money(d['head_monthly_usd'])} "
            f"({money(d['delta_usd'], signed=True)}/month expected{worst_text}) against "
            f"{d['base_ref']}")


def _finding_line(f: dict[str, Any]) -> str:
    saving = f" [saves {money(f['monthly_saving_usd'])}/month]" if f.get("monthly_saving_usd") \
        else ""
    return f"{f['path']}:{f['line']}: {f['severity']} {f['rule']} {f['message']}{saving}"


def _why(f: dict[str, Any]) -> str:
    """The suppression's reason and expiry: what the reviewer is asked to accept."""
    s = f.get("suppression") or {}
    until = f" until {s['until']}" if s.get("until") else ""
    where = f"{s.get('path')}:{s.get('line')}"
    return f"suppressed{until}: {s.get('reason') or '(no reason)'} ({where})"


def _suppressed_line(f: dict[str, Any]) -> str:
    return f"{f['path']}:{f['line']}: {f['severity']} {f['rule']} {f['address']} — {_why(f)}"


def render_text(d: dict[str, Any], verbose: bool = False) -> str:
    from gpulint.reporters.text import price_note

    out = [_headline(d)]
    if d.get("gate_changes"):
        out.append(GATE_NOTE + "; ".join(d["gate_changes"]))
    shown = [e for e in d["resources"] if verbose or e["change"] != "unchanged"]
    unchanged = sum(1 for e in d["resources"] if e["change"] == "unchanged")
    if shown:
        out.append("")
        table = text_table(HEADERS, [_cells(e) for e in shown], NUMERIC)
        out += table[:2]
        for e, line in zip(shown, table[2:], strict=False):
            out.append(line)
            if e.get("changes"):
                out.append(f"    {_what_changed(e)}")
            if verbose:
                for side in ("before_basis", "after_basis"):
                    if e.get(side):
                        out.append(f"    {side.split('_')[0]}: {e[side]}")
    if unchanged and not verbose:
        out.append(f"{plural(unchanged, 'GPU resource')} unchanged.")
    if d["unpriced_changes"]:
        out.append(f"{plural(d['unpriced_changes'], 'changed resource')} not priced; "
                   "the total counts priced resources only.")
    verdict = headline(d.get("budget"))
    if verdict:
        out += ["", verdict]
    for title, key in (("New findings", "new_findings"), ("Fixed findings", "fixed_findings")):
        if d[key]:
            out += ["", f"{title} ({len(d[key])})"] + ["  " + _finding_line(f) for f in d[key]]
    if d.get("suppressed_findings"):
        out += ["", f"Suppressed in this change, not fixed ({len(d['suppressed_findings'])})"]
        out += ["  " + _suppressed_line(f) for f in d["suppressed_findings"]]
    out += ["", price_note(d)]
    return "\n".join(out) + "\n"


def render_markdown(d: dict[str, Any]) -> str:
    from gpulint.reporters.text import price_note

    out = ["## GPU cost change", "", f"**{_headline(d)}**", ""]
    if d.get("gate_changes"):
        from gpulint.reporters.md_escape import code_span

        out += [GATE_NOTE + "; ".join(code_span(c) for c in d["gate_changes"]), ""]
    changed = [e for e in d["resources"] if e["change"] != "unchanged"]
    if changed:
        out += markdown_table(HEADERS, [_cells(e) for e in changed], NUMERIC)
        notes = [f"- `{e['address']}`: {_what_changed(e)}" for e in changed if e.get("changes")]
        out += ["", *notes] if notes else []
    else:
        out.append("No GPU resource changed.")
    if d["unpriced_changes"]:
        out += ["", f"{plural(d['unpriced_changes'], 'changed resource')} not priced."]
    verdict = headline(d.get("budget"))
    if verdict:
        out += ["", f"**{verdict}**"]
    for title, key in (("New findings", "new_findings"), ("Fixed findings", "fixed_findings")):
        if d[key]:
            out += ["", f"### {title} ({len(d[key])})", ""]
            out += [f"- `{f['path']}:{f['line']}` **{f['rule']}** ({f['severity']}): "
                    f"{f['message']}" for f in d[key]]
    if d.get("suppressed_findings"):
        out += ["", f"### Suppressed in this change, not fixed ({len(d['suppressed_findings'])})",
                ""]
        out += [f"- `{f['path']}:{f['line']}` **{f['rule']}** ({f['severity']}): "
                f"{_why(f)}" for f in d["suppressed_findings"]]
    out += ["", f"_{price_note(d)}_"]
    return "\n".join(out) + "\n"


def _load_report(path: str) -> dict[str, Any]:
    try:
        data = json.loads(read_file_text(path, TOOL_FILE_LIMIT))
    except OSError as e:
        raise click.UsageError(f"--compare-to {path}: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise click.UsageError(f"--compare-to {path}:{e.lineno}: invalid JSON: {e.msg}") from None
    if not isinstance(data, dict) or not all(k in data for k in ("resources", "findings",
                                                                  "summary")):
        raise click.UsageError(f"--compare-to {path}: not a `gpulint scan --format json` report")
    return data


@click.command("diff")
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--base", "base_ref", metavar="REF",
              help="Git revision to compare with (read with git archive; the work tree is "
                   "not touched).")
@click.option("--compare-to", "compare_to", type=click.Path(dir_okay=False),
              help="Compare with an earlier `gpulint scan --format json` report instead of git.")
@click.option("--max-increase", type=click.FloatRange(0), metavar="USD",
              help="Exit 1 when the change adds more than this many USD a month.")
@click.option("--allow-unpriced", is_flag=True,
              help="With a budget, let a change to a GPU resource that cannot be priced pass "
                   "(it fails the budget by default: its cost is not known).")
@click.option("--strict/--no-strict", default=None,
              help="Fail when any GPU resource after the change is not priced, budget or not.")
@click.option("--format", "fmt", type=click.Choice(reporters.TABLE_FORMATS),
              default="text", show_default=True)
@output_option
@click.option("--verbose", "-v", is_flag=True,
              help="Text output: list unchanged resources and both price bases.")
@scan_flags
def diff(paths: tuple[str, ...], base_ref: str | None, compare_to: str | None,
         fmt: str, output: str | None, verbose: bool, **kwargs: Any) -> None:
    """Monthly GPU cost change of PATHS (default: the current directory) against --base REF
    or --compare-to REPORT, with findings the change adds and fixes."""
    from gpulint import pipeline as scan_mod
    from gpulint.cli.common import configured_rules
    from gpulint.report import budget as budget_mod
    from gpulint.report import build as report_mod
    from gpulint.report import diff as diff_mod
    from gpulint.report.git_base import GitError

    if not base_ref and not compare_to:
        raise click.UsageError("give --base REF or --compare-to REPORT.json")
    targets = list(paths) or ["."]
    # Against a git base, the base's configuration gates: the change does not set its own gate.
    kwargs["gate_base"] = None if compare_to else base_ref
    settings = build_settings(kwargs, targets)
    rules = configured_rules(settings)
    max_increase = settings.max_increase_usd
    if compare_to:
        base = _load_report(compare_to)
        label = base_ref or compare_to
    else:
        assert base_ref is not None
        try:
            result, _missing = diff_mod.scan_git_base(base_ref, targets, rules, settings)
        except GitError as e:
            raise click.UsageError(f"--base {base_ref}: {e}") from None
        base = report_mod.build(result, settings.pricing.hours, show_suppressed=True)
        label = base_ref
    head = report_mod.build(scan_mod.run(targets, rules, settings), settings.pricing.hours,
                            show_suppressed=True)
    data = diff_mod.compare(base, head, label)
    data["gate_changes"] = click.get_current_context().meta.get("gpulint.gate_changes", [])
    budget = budget_mod.verdict(data, head, max_increase, settings.budget_basis,
                                settings.allow_unpriced, settings.strict)
    output_mod.emit(writers(data, head, verbose)[fmt](), output)
    if budget["failed"]:
        click.echo(f"gpulint: {budget_mod.headline(budget)}", err=True)
        sys.exit(1)


def writers(data: dict[str, Any], head: dict[str, Any],
            verbose: bool) -> dict[str, Callable[[], str]]:
    """format → its rendering of the cost change, for each of reporters.TABLE_FORMATS
    (tested)."""
    def page() -> str:
        from gpulint.reporters import html

        return str(html.render_diff(data, head))

    return {"text": lambda: render_text(data, verbose),
            "json": lambda: json.dumps(data, indent=2) + "\n",
            "markdown": lambda: render_markdown(data), "html": page}
