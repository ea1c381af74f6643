"""Static bar charts as inline SVG for the HTML report: no script, no fonts, no network.

Bars are horizontal, each with its label above it and its value at the right, so every figure
is read from text (nothing depends on colour) and long resource names fit a phone. Lengths
are percentages of the chart's width while text stays at its CSS size, so a chart fills any
screen without shrinking its labels. Labels and values arrive already escaped for HTML.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

ROW = 34        # px per bar row: a 14 px label line, then the bar
PAIR_ROW = 48   # px per before/after row: a label line, then two bars
BAR = 12        # px bar thickness
LABEL_CHARS = 44  # labels longer than this are cut with an ellipsis; the table has them whole


@dataclass(frozen=True)
class Bar:
    label: str   # escaped HTML text
    value: float
    text: str    # escaped HTML text shown at the right: "$1,234 · 48%"
    title: str = ""  # escaped full label for the tooltip, when the label was cut


@dataclass(frozen=True)
class Pair:
    label: str
    before: float
    after: float
    text: str
    title: str = ""


def _pct(value: float, top: float) -> str:
    if top <= 0 or value <= 0:
        return "0"
    # A tiny but non-zero value keeps a visible sliver.
    return f"{max(value / top * 100, 0.4):.2f}"


def _svg_open(height: int, label: str) -> str:
    return (f'<svg class="bars" width="100%" height="{height}" role="img" '
            f'aria-label="{label}" focusable="false">')


def _label(text: str, title: str, y: int) -> str:
    tip = f"<title>{title}</title>" if title else ""
    return f'<text class="lbl" x="0" y="{y}">{tip}{text}</text>'


def _value(text: str, y: int) -> str:
    """The value at the right, over a mask that hides the end of a label too long to fit.

    A mask in pixels at a position in percent: a translate moves it left of the right edge."""
    width = len(html.unescape(text)) * 8 + 10  # 13 px bold digits are ~7.5 px wide
    return (f'<rect class="mask" x="100%" y="{y - 13}" width="{width}" height="17" '
            f'transform="translate(-{width} 0)"/>'
            f'<text class="val" x="100%" y="{y}" text-anchor="end">{text}</text>')


def bar_chart(bars: list[Bar], label: str) -> str:
    """One row per bar, scaled to the largest value."""
    top = max((b.value for b in bars), default=0.0)
    if top <= 0:  # an empty chart would be a blank box
        return '<p class="note">Nothing priced to draw.</p>'
    out = [_svg_open(len(bars) * ROW, label)]
    for i, b in enumerate(bars):
        y = i * ROW
        out.append(f'<g>{_label(b.label, b.title, y + 14)}{_value(b.text, y + 14)}'
                   f'<rect class="track" x="0" y="{y + 19}" width="100%" height="{BAR}" rx="2"/>'
                   f'<rect class="bar" x="0" y="{y + 19}" width="{_pct(b.value, top)}%" '
                   f'height="{BAR}" rx="2"/></g>')
    out.append("</svg>")
    return "".join(out)


def pair_chart(pairs: list[Pair], label: str) -> str:
    """Before (hatched, upper) and after (solid, lower) per row, on one scale."""
    top = max((max(p.before, p.after) for p in pairs), default=0.0)
    out = [_svg_open(len(pairs) * PAIR_ROW + 4, label),
           ('<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
           'patternTransform="rotate(45)"><rect class="hatch-bg" width="6" height="6"/>'
           '<rect class="hatch-fg" width="2" height="6"/></pattern></defs>')]
    for i, p in enumerate(pairs):
        y = i * PAIR_ROW
        out.append(f'<g>{_label(p.label, p.title, y + 14)}{_value(p.text, y + 14)}'
                   f'<rect class="before" x="0" y="{y + 20}" width="{_pct(p.before, top)}%" '
                   f'height="{BAR - 2}" rx="1"/>'
                   f'<rect class="bar" x="0" y="{y + 32}" width="{_pct(p.after, top)}%" '
                   f'height="{BAR - 2}" rx="1"/></g>')
    out.append("</svg>")
    return "".join(out)


def legend() -> str:
    """The key of pair_chart: shape and position, not only colour, tell the two bars apart."""
    return ('<p class="legend"><svg width="28" height="10" aria-hidden="true">'
            '<rect class="before" width="28" height="10"/></svg> before (upper, hatched) '
            '<svg width="28" height="10" aria-hidden="true"><rect class="bar" width="28" '
            'height="10"/></svg> after (lower, solid)</p>')
