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
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(re.escape(pattern).replace(r"\*", ".*").replace(r"\?", "."), re.DOTALL)


def is_pattern(text: str) -> bool:
    return "*" in text or "?" in text


def match(pattern: str, text: str) -> bool:
    return _compile(pattern).fullmatch(text) is not None


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
