"""Key path → line for `[tool.gpulint]` in pyproject.toml, so configuration errors there cite a
line as they do in `.gpulint.yaml` (the TOML parser keeps no positions). A line scanner over
table headers and `key =` lines: enough to point at a key; a line inside a multi-line string
that looks like a key can only mislead a message, never the parsed values."""

from __future__ import annotations

import re
from typing import Any

_PART = r'(?:"[^"]*"|\'[^\']*\'|[A-Za-z0-9_-]+)'
_DOTTED = rf"{_PART}(?:\s*\.\s*{_PART})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(rf"^\s*({_DOTTED})\s*=")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip().strip("\"'") for p in re.findall(_PART, dotted))


def key_lines(text: str, root: tuple[str, ...] = ("tool", "gpulint")
              ) -> dict[tuple[Any, ...], int]:
    """1-based lines of the keys under ``root``, as paths relative to it."""
    out: dict[tuple[Any, ...], int] = {}
    table: tuple[Any, ...] = ()
    arrays: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            names = _parts(header.group(2))
            if header.group(1) == "[[":  # an array of tables: the next element
                arrays[names] = arrays.get(names, -1) + 1
                table = (*names, arrays[names])
            else:
                table = names
            if table[:len(root)] == root and len(table) > len(root):
                out.setdefault(table[len(root):], number)
            continue
        key = _KEY.match(line)
        if key:
            path = (*table, *_parts(key.group(1)))
            if path[:len(root)] == root and len(path) > len(root):
                out.setdefault(path[len(root):], number)
    return out
