"""The catalog's adjustment record, row by row: why the consistency check dropped a row, or
which region's price stands in for one it replaced (catalog_build/consistency.py)."""

from __future__ import annotations

from typing import Any

from gpulint.pricing import catalog


def dropped_row(provider: str, name: str, region: str) -> str | None:
    """Why the catalog's consistency check dropped this row, or None when it did not."""
    e = _adjusted_row(provider, name, region, "dropped")
    return None if e is None else str(e.get("reason"))


def replaced_row(provider: str, name: str, region: str) -> str | None:  # the donor region
    e = _adjusted_row(provider, name, region, "replaced")
    return None if e is None else str(e.get("estimate_from"))


def replaced_basis(provider: str, name: str, region: str) -> str | None:
    """How a replaced row was priced: "derived: host + 8× nvidia-h100-80gb" (its parts, the GPU
    part from the region ``replaced_row`` names) or "nearest region" (that region's row)."""
    e = _adjusted_row(provider, name, region, "replaced")
    # A catalog built before the basis was recorded replaced rows by the nearest region only.
    return None if e is None else str(e.get("basis") or "nearest region")


def _adjusted_row(provider: str, name: str, region: str, action: str) -> dict[str, Any] | None:
    cat, acc = catalog._active(), provider == "gcp-accelerator"
    table, prov = ("accelerator_prices", "gcp") if acc else ("prices", provider.lower())
    key = (catalog._gcp_accelerator_key(name) if acc
           else cat.canonical_name(provider, name)) or name
    where = catalog._region_key(prov, region)
    found = _index(cat.data).get((action, prov, table, key, where))
    return None if found is None else dict(found)


_INDEXED: list[tuple[Any, dict[tuple[Any, ...], dict[str, Any]]]] = []  # the last catalog's


def _index(data: dict[str, Any]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The adjustment rows by (action, provider, table, name, region): `gpulint catalog` asks
    once per price row."""
    if not _INDEXED or _INDEXED[0][0] is not data:
        rows: dict[tuple[Any, ...], dict[str, Any]] = {}
        for e in data.get("adjustment_rows", []):
            rows.setdefault((e.get("action"), e.get("provider"), e.get("table"), e.get("name"),
                             e.get("region")), e)
        _INDEXED[:] = [(data, rows)]
    return _INDEXED[0][1]
