"""The one wildcard dialect of gpulint: `*` (any run of characters, `/` included) and `?` (one
character). It is used for resource addresses, instance types and paths alike.

Terraform addresses are full of brackets (`aws_instance.gpu["a"]`, `count[0]`), so `[` is a
literal character here, unlike in fnmatch.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable


@functools.lru_cache(maxsize=512)
def _compile(pattern: str) -> tuple[tuple[re.Pattern[str], int], ...]:
    """(regex, length) per `*`-separated piece, `?` as any one character: matched piece by
    piece (below), not as one `.*a.*b.*` regex, whose backtracking is cubic in the text for
    three stars and worse for more."""
    return tuple((re.compile(re.escape(piece).replace(r"\?", "."), re.DOTALL), len(piece))
                 for piece in pattern.split("*"))


def is_pattern(text: str) -> bool:
    return "*" in text or "?" in text


def match(pattern: str, text: str) -> bool:
    """The pattern matches all of `text`. The first piece must match at the start and the
    last at the end; each piece between is taken at its leftmost place after the previous
    one, which is right for `*` (a later place never lets more of the rest match). Time:
    pattern length × text length at worst."""
    pieces = _compile(pattern)
    if len(pieces) == 1:
        return pieces[0][0].fullmatch(text) is not None
    (first, first_len), *middle, (last, last_len) = pieces
    if first.match(text) is None:
        return False
    pos = first_len
    for piece, _ in middle:
        found = piece.search(text, pos)
        if found is None:
            return False
        pos = found.end()
    start = len(text) - last_len
    return start >= pos and last.fullmatch(text, start) is not None


def path_match(pattern: str, path: str) -> bool:
    """The file, or one of its parent directories, matches the absolute path pattern."""
    current = os.path.abspath(path)
    while True:
        if match(pattern, current):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def excluded(path: str, patterns: Iterable[str]) -> bool:
    return any(path_match(p, path) for p in patterns)


def anchor(pattern: str, base: str) -> str:
    """An exclusion pattern as an absolute path glob. A bare name (no `/`) matches that name
    anywhere, as ruff's exclude does (`vendor` excludes every directory named vendor); a
    pattern with a `/` is relative to ``base``."""
    if "/" not in pattern and os.sep not in pattern:
        return "*/" + pattern
    return os.path.normpath(os.path.join(base, pattern))
