"""The long tables of the HTML report: findings (sortable, filterable), resources and options.

They grow with the scanned tree, so their markup is lean: no closing cell tags (optional in
HTML), no per-cell attributes; the style sheet labels and aligns columns by position.
"""

from __future__ import annotations

from typing import Any

from gpulint.pricing.breakdown import group_value
from gpulint.reporters.html_parts import esc, what, where
from gpulint.reporters.tables import option_gpus
from gpulint.units import usd

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
# A shape and the word, so severity never depends on colour alone.
SEVERITY_MARK = {"error": "✖ error", "warning": "▲ warning", "info": "● info"}
FINDING_HEADS = ("Severity", "Rule", "Resource", "Finding", "Saving / month")


def _section(hid: str, title: str, inner: str) -> str:
    return f'<section aria-labelledby="{hid}"><h2 id="{hid}">{esc(title)}</h2>{inner}</section>'


def _filters(findings: list[dict[str, Any]]) -> str:
    sevs = sorted({f["severity"] for f in findings}, key=lambda s: SEVERITY_ORDER.get(s, 9))
    rules = sorted({f["rule"] for f in findings})

    def options(values: list[str]) -> str:
        return '<option value="">all</option>' + "".join(
            f'<option value="{esc(v)}">{esc(v)}</option>' for v in values)

    # Hidden until the script runs: without it the table is complete, in report order.
    return ('<div class="filters" id="filters" hidden>'
            f'<label>Severity <select id="f-sev">{options(sevs)}</select></label>'
            f'<label>Rule <select id="f-rule">{options(rules)}</select></label>'
            '<span id="f-count" aria-live="polite"></span></div>')


def findings_section(findings: list[dict[str, Any]], title: str, hid: str,
                     filters: bool = False) -> str:
    if not findings:
        return _section(hid, title, "<p>None.</p>")
    rows = sorted(findings, key=lambda f: (SEVERITY_ORDER.get(f["severity"], 9),
                                           -(f.get("monthly_saving_usd") or 0), f["path"],
                                           f["line"]))
    body = "".join(
        f'<tr class="s-{esc(f["severity"])}">'
        f'<td>{esc(SEVERITY_MARK.get(f["severity"], f["severity"]))}'
        f"<td><code>{esc(f['rule'])}</code><td><code>{esc(f['address'])}</code><br>{where(f)}"
        f"<td>{esc(f['message'])}<td>"
        + (esc(usd(f["monthly_saving_usd"])) if f.get("monthly_saving_usd") else "–")
        for f in rows)
    heads = "".join(f'<th scope="col"><button type="button">{h}</button></th>' if filters else
                    f'<th scope="col">{h}</th>' for h in FINDING_HEADS)
    table_id = ' id="findings-table"' if filters else ""
    return _section(hid, f"{title} ({len(rows)})",
                    (_filters(findings) if filters else "")
                    + f'<div class="scroll"><table class="list findings"{table_id}><thead><tr>'
                    f"{heads}</tr></thead><tbody>{body}</tbody></table></div>")


def resources_section(report: dict[str, Any], group_by: str) -> str:
    res = sorted(report["resources"], key=lambda r: -(r.get("monthly_cost_usd") or 0))

    def count(r: dict[str, Any]) -> str:
        return f"{r['count']:g}" if isinstance(r.get("count"), (int, float)) else "?"

    body = "".join(
        f"<tr><td><code>{esc(r['address'])}</code><br>{where(r)}<td>{esc(what(r))}"
        f"<td>{esc(r.get('capacity'))}<td>× {count(r)}<td>{esc(group_value(r, group_by))}"
        f"<td>{esc(r.get('workload'))}<td>{esc(usd(r.get('monthly_cost_usd')))}"
        for r in res)
    heads = "".join(f'<th scope="col">{h}</th>' for h in (
        "Resource", "Type", "Capacity", "Count", esc(group_by), "Workload", "Monthly"))
    return _section("h-res", f"GPU resources ({len(res)})",
                    "<details><summary>Every resource, most expensive first</summary>"
                    '<div class="scroll"><table class="list resources" id="resources-table">'
                    f"<thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table></div></details>")


def options_section(report: dict[str, Any]) -> str:
    """Choices users may make (JupyterHub GPU profiles): what an hour costs, in no total."""
    rows = report.get("options") or []
    if not rows:
        return ""
    body = "".join(
        f"<tr><td><code>{esc(r['address'])}</code><br>{where(r)}<td>{esc(r.get('option'))}"
        f"<td>{esc(option_gpus(r))}<td>"
        + ("not priced" if r.get("hourly_cost_usd") is None
           else esc(f"{usd(r['hourly_cost_usd'])}/h"))
        for r in rows)
    heads = "".join(f'<th scope="col">{h}</th>' for h in ("Resource", "Option", "GPUs",
                                                          "Per hour"))
    return _section("h-options", f"Options users can pick ({len(rows)})",
                    "<p>Per hour of use; counted in no total, budget or rule.</p>"
                    '<div class="scroll"><table class="list options">'
                    f"<thead><tr>{heads}</tr></thead><tbody>{body}</tbody></table></div>")
