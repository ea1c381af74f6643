"""Building blocks of the HTML report: escaping, tables and the chart figures.

Every string from scanned files goes through ``esc`` (or ``short`` for chart labels); every
chart comes with a table of the same figures, its text alternative.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gpulint.reporters.md_escape import clean
from gpulint.reporters.svg import LABEL_CHARS, Bar, bar_chart
from gpulint.units import usd, usd_compact

CHART_ROWS = 12  # bars per chart; the rest are summed into one "others" bar
TOP_RESOURCES = 10


def esc(value: Any) -> str:
    """Inert text: control and bidirectional characters dropped, then HTML-escaped."""
    return html.escape(clean(value), quote=True)


def short(value: Any) -> tuple[str, str]:
    """(escaped label cut to LABEL_CHARS, escaped full text when it was cut else "")."""
    text = clean(value)
    if len(text) <= LABEL_CHARS:
        return html.escape(text), ""
    return html.escape(text[:LABEL_CHARS - 1] + "…"), html.escape(text)


def where(item: dict[str, Any]) -> str:
    line = item.get("line")
    return esc(f"{item.get('path')}:{line}" if line else item.get("path"))


def usd_data(value: Any, signed: bool = False, rounded: bool = False) -> str:
    """A machine-readable amount: <data value="1234.5">$1,234.50</data>; ``rounded`` shows
    whole dollars from $100 up (the headline) while the value keeps the cents."""
    if not isinstance(value, (int, float)):
        return "not priced"
    shown = usd_compact(value, signed=signed) if rounded else usd(value, signed=signed)
    title = f' title="{esc(usd(value, signed=signed))}"' if rounded else ""
    return f'<data value="{value!r}"{title}>{esc(shown)}</data>'


# --------------------------------------------------------------------------- tables


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], numeric: frozenset[int],
          attrs: str = "") -> str:
    """Headers are trusted text; cells are already-escaped HTML."""
    head = "".join(f'<th scope="col"{" class=n" if i in numeric else ""}>{h}</th>'
                   for i, h in enumerate(headers))
    labels = [f' data-label="{h}"' for h in headers]  # names the cells on a phone
    body = "".join("<tr>" + "".join(f'<td{" class=n" if i in numeric else ""}{labels[i]}>{c}</td>'
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    return (f'<div class="scroll"><table{attrs}><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


# --------------------------------------------------------------------------- charts


def _share(value: float, total: float) -> str:
    if total <= 0:
        return "–"
    share = value / total * 100
    return "<1%" if 0 < share < 0.5 else f"{share:.0f}%"


def sum_by(resources: list[dict[str, Any]], key: Callable[[dict[str, Any]], str]
           ) -> list[tuple[str, float, int]]:
    """(key, monthly total of priced resources, resources) largest first."""
    totals: dict[str, float] = {}
    counts: dict[str, int] = {}
    for r in resources:
        k = key(r)
        counts[k] = counts.get(k, 0) + 1
        if isinstance(r.get("monthly_cost_usd"), (int, float)):
            totals[k] = round(totals.get(k, 0.0) + r["monthly_cost_usd"], 2)
    return sorted(((k, totals.get(k, 0.0), n) for k, n in counts.items()),
                  key=lambda t: (-t[1], t[0]))


def _bars(rows: list[tuple[str, float, int]], total: float) -> list[Bar]:
    shown, rest = rows[:CHART_ROWS], rows[CHART_ROWS:]
    bars = []
    for name, value, _n in shown:
        label, title = short(name)
        bars.append(Bar(label, value, esc(f"{usd_compact(value)} · {_share(value, total)}"), title))
    if rest:
        value = round(sum(v for _k, v, _n in rest), 2)
        bars.append(Bar(esc(f"{len(rest)} others"), value,
                        esc(f"{usd_compact(value)} · {_share(value, total)}")))
    return bars


def figure(fid: str, title: str, caption: str, chart: str, table_html: str,
           wide: bool = False) -> str:
    cls = ' class="wide"' if wide else ""
    return (f'<figure id="{fid}"{cls}><figcaption><h3>{esc(title)}</h3><p>{caption}</p>'
            f"</figcaption>{chart}<details class=\"chart-table\"><summary>{esc(title)} as a "
            f"table</summary>{table_html}</details></figure>")


def cost_figure(fid: str, title: str, what: str, rows: list[tuple[str, float, int]],
                total: float, caption: str) -> str:
    chart = bar_chart(_bars(rows, total), esc(f"Bar chart: {title}"))
    cells = [[esc(k), str(n), usd_data(v), _share(v, total)] for k, v, n in rows]
    return figure(fid, title, caption, chart,
                  table((esc(what), "Resources", "Monthly", "Share"), cells,
                        frozenset({1, 2, 3})))


def savings_figure(findings: list[dict[str, Any]]) -> str:
    per_rule: dict[str, float] = {}
    counts: dict[str, int] = {}
    for f in findings:
        counts[f["rule"]] = counts.get(f["rule"], 0) + 1
        if f.get("monthly_saving_usd"):
            per_rule[f["rule"]] = round(per_rule.get(f["rule"], 0.0) + f["monthly_saving_usd"], 2)
    rows = sorted(((r, per_rule.get(r, 0.0), n) for r, n in counts.items()),
                  key=lambda t: (-t[1], t[0]))
    rows = [t for t in rows if t[1] > 0]
    total = sum(v for _r, v, _n in rows)
    bars = [Bar(short(r)[0], v, esc(usd_compact(v)), short(r)[1]) for r, v, _n in rows]
    chart = bar_chart(bars, "Bar chart: monthly saving by rule") if rows else \
        "<p>No finding has a priced saving.</p>"
    cells = [[f"<code class=rule>{esc(r)}</code>", str(n), usd_data(v)] for r, v, n in rows]
    return figure("savings-by-rule", "Saving by rule",
                  "What fixing every finding of a rule would save a month. Fixes to one "
                  "resource overlap, so these can add up to more than the potential saving, "
                  f"which counts the largest saving per resource (sum shown: "
                  f"{esc(usd_compact(total))}).", chart,
                  table(("Rule", "Findings", "Monthly saving"), cells, frozenset({1, 2})),
                  wide=True)


def what(r: dict[str, Any]) -> str:
    return r.get("instance_type") or f"{r.get('gpu_count') or '?'}× {r.get('gpu_model') or 'GPU'}"


def top_figure(resources: list[dict[str, Any]], total: float) -> str:
    priced = sorted((r for r in resources if isinstance(r.get("monthly_cost_usd"), (int, float))),
                    key=lambda r: -r["monthly_cost_usd"])[:TOP_RESOURCES]
    bars = []
    for r in priced:
        label, title = short(r["address"])
        bars.append(Bar(label, r["monthly_cost_usd"],
                        esc(f"{usd_compact(r['monthly_cost_usd'])} · "
                            f"{_share(r['monthly_cost_usd'], total)}"), title))
    cells = [[f"<code>{esc(r['address'])}</code>", where(r), esc(what(r)),
              usd_data(r["monthly_cost_usd"]), _share(r["monthly_cost_usd"], total)]
             for r in priced]
    return figure("top-resources", f"Top {len(priced)} resources by monthly cost",
                  "The resources that dominate the bill, with their share of the total.",
                  bar_chart(bars, "Bar chart: top resources by monthly cost"),
                  table(("Resource", "Where", "Type", "Monthly", "Share"), cells,
                        frozenset({3, 4})), wide=True)
