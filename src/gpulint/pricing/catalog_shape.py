"""The shape a catalog file must have before gpulint prices from it: a `--catalog` given a JSON
list, or an instance entry whose count is a string, failed deep in a scan (exit 3) instead of
being a usage error naming what is wrong."""

from __future__ import annotations

import math
from typing import Any

_SPEC_NUMBERS = ("count",)
_SPEC_OPTIONAL_NUMBERS = ("mem", "vcpus", "ram")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _spec_problem(where: str, rec: Any) -> str | None:
    if not isinstance(rec, dict):
        return f"{where} is not a mapping"
    if not isinstance(rec.get("kind"), str) or not isinstance(rec.get("model"), (str, type(None))):
        return f"{where}: 'kind' must be a string and 'model' a string or null"
    if not all(_number(rec.get(k)) for k in _SPEC_NUMBERS):
        return f"{where}: 'count' must be a number"
    if not all(rec.get(k) is None or _number(rec[k]) for k in _SPEC_OPTIONAL_NUMBERS):
        return f"{where}: 'mem', 'vcpus' and 'ram' must be numbers or null"
    return None


def _prices_problem(where: str, table: Any) -> str | None:
    if not isinstance(table, dict):
        return f"{where} is not a mapping"
    for name, regions in table.items():
        if not isinstance(regions, dict):
            return f"{where}.{name} is not a mapping of regions"
        for region, pair in regions.items():
            if pair is not None and not (isinstance(pair, list) and len(pair) == 2 and all(
                    p is None or (_number(p) and p >= 0) for p in pair)):
                return f"{where}.{name}.{region} must be [on-demand, spot] (numbers or null)"
    return None


def problem(data: Any) -> str | None:
    """What makes `data` unusable as a catalog, or None."""
    if not isinstance(data, dict):
        return "not a JSON object"
    providers = data.get("providers")
    if not isinstance(providers, dict):
        return "'providers' is not a mapping"
    for key in ("default_regions", "gpu_models"):
        if not isinstance(data.get(key, {}), dict):
            return f"'{key}' is not a mapping"
    if not all(_number(v) for v in data.get("gpu_models", {}).values()):
        return "'gpu_models' values must be numbers"
    for provider, tables in providers.items():
        where = f"providers.{provider}"
        if not isinstance(tables, dict):
            return f"{where} is not a mapping"
        for key in ("instances", "accelerators"):
            entries = tables.get(key, {})
            if not isinstance(entries, dict):
                return f"{where}.{key} is not a mapping"
            for name, rec in entries.items():
                found = _spec_problem(f"{where}.{key}.{name}", rec)
                if found:
                    return found
        for key in ("prices", "accelerator_prices", "host_prices"):
            found = _prices_problem(f"{where}.{key}", tables.get(key, {}))
            if found:
                return found
    return None
