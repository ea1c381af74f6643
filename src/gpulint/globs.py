"""Wildcards for addresses and instance types: `*` and `?` only.

Terraform addresses are full of brackets (`aws_instance.gpu["a"]`, `count[0]`), so `[` is a
literal character here, unlike in fnmatch.
"""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=512)
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(re.escape(pattern).replace(r"\*", ".*").replace(r"\?", "."), re.DOTALL)


def is_pattern(text: str) -> bool:
    return "*" in text or "?" in text


def match(pattern: str, text: str) -> bool:
    return _compile(pattern).fullmatch(text) is not None
