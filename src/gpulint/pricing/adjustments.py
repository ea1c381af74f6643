"""The catalog's adjustment record, row by row: why the consistency check dropped a row, or
which region's price stands in for one it replaced (catalog_build/consistency.py)."""

from __future__ import annotations

from gpulint.pricing import catalog


def dropped_row(provider: str, name: str, region: str) -> str | None:
    """Why the catalog's consistency check dropped this row, or None when it did not."""
    return _adjusted_row(provider, name, region, "dropped", "reason")


def replaced_row(provider: str, name: str, region: str) -> str | None:  # the donor region
    return _adjusted_row(provider, name, region, "replaced", "estimate_from")


def _adjusted_row(provider: str, name: str, region: str, action: str, field: str) -> str | None:
    cat, acc = catalog._active(), provider == "gcp-accelerator"
    table, prov = ("accelerator_prices", "gcp") if acc else ("prices", provider.lower())
    key = (catalog._gcp_accelerator_key(name) if acc
           else cat.canonical_name(provider, name)) or name
    where = catalog._region_key(prov, region)
    for e in cat.data.get("adjustment_rows", []):
        if (e.get("action") == action and e.get("provider") == prov and e.get("name") == key
                and e.get("table") == table and e.get("region") == where):
            return str(e.get(field))
    return None
