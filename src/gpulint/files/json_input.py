"""JSON read from scanned repositories."""

from __future__ import annotations

import json
from typing import Any


def _int(digits: str) -> int | float:
    # Past Python's 4,300-digit conversion limit json.loads raises ValueError for the whole
    # file; such a number is infinite for gpulint (unknown where a value is needed).
    return int(digits) if len(digits) <= 4000 else float("inf")


def load_json(text: str) -> Any:
    """json.loads for repository files: a 5,000-digit integer does not fail the file."""
    return json.loads(text, parse_int=_int)
