"""Money and hourly rates as gpulint prints them: one formatter per rounding, used everywhere.

- `usd`: cents, for tables (`$1,234.56`, `-$5.00`, `+$5.00` when signed, `not priced`);
- `usd_whole`: whole dollars, for finding messages (`$1,235`);
- `usd_compact`: whole dollars with a typographic minus, for the pull-request comment and the
  HTML page (`$1,234`, `$12`, `<$1`, `−$500`, `n/a`);
- `usd_rate`: an hourly rate with every digit the catalog has, so a product can be re-done by hand.
"""

from __future__ import annotations

from typing import Any


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def usd(v: Any, signed: bool = False) -> str:
    if not isinstance(v, (int, float)):
        return "not priced"
    text = f"${abs(v):,.2f}"
    if signed:
        return ("+" if v > 0 else "-" if v < 0 else "±") + text
    return text if v >= 0 else "-" + text


def usd_whole(v: float) -> str:
    return f"${v:,.0f}"


def usd_compact(amount: float | None, *, signed: bool = False) -> str:
    if amount is None:
        return "n/a"
    sign = ""
    if signed:
        sign = "+" if amount > 0 else ("−" if amount < 0 else "±")
    elif amount < 0:
        sign = "−"
    value = abs(float(amount))
    if 0 < value < 0.5:  # whole dollars would say $0 of a real, small amount
        return f"{sign}<$1"
    return sign + usd_whole(value)


def usd_rate(v: float) -> str:
    return "$" + f"{v:,.6f}".rstrip("0").rstrip(".")


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 file`, `2 files`, `0 files`; ``many`` for irregular plurals."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"
