"""Lines that fit a terminal: the text report wraps its own lines at 80 columns so nothing
depends on the terminal wrapping them (only a path longer than a line stays whole)."""

from __future__ import annotations

import textwrap

WIDTH = 80
_GLUE = "\x00"  # stands for a space that must not break while wrapping


def keep(text: str) -> str:
    """``text`` as one unbreakable chunk (a location, a rule id, a `[saves …]` tail)."""
    return text.replace(" ", _GLUE)


def fit(text: str, first: str = "", rest: str = "    ", width: int = WIDTH) -> list[str]:
    """``text`` wrapped at ``width`` columns, the first line indented by ``first`` and the
    others by ``rest``. Words are never split, so a long path overflows instead of breaking."""
    lines = textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                          break_long_words=False, break_on_hyphens=False) or [first.rstrip()]
    return [line.replace(_GLUE, " ") for line in lines]
