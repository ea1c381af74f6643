"""Checks on configuration values that the JSON schema cannot express."""

from __future__ import annotations

import math
from typing import Any


def non_finite(value: Any, keys: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Key paths of NaN and infinite numbers: they pass every range check of the schema."""
    if isinstance(value, float) and not math.isfinite(value):
        return [keys]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in non_finite(v, (*keys, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in non_finite(v, (*keys, i))]
    return []
