"""The regions the catalog in use prices, per cloud, and a did-you-mean for the others: a
mistyped region must not silently price everything at $0 (unpriced)."""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import TYPE_CHECKING

from gpulint.pricing import catalog
from gpulint.providers import ANY_REGION

if TYPE_CHECKING:
    from gpulint.config.clusters import Cluster


def _key(provider: str, region: str) -> str:
    # Azure regions are also written as display names ("East US" for eastus).
    return region.replace(" ", "").lower() if provider == "azure" else region


@lru_cache(maxsize=16)
def _known(origin: str, provider: str) -> frozenset[str]:
    del origin  # the cache key: another catalog file has other regions
    out: set[str] = set()
    for spec in catalog.instances(provider):
        out.update(catalog.price_table(provider, spec.name))
    if provider == "gcp":
        for acc in catalog.gcp_accelerators():
            out.update(catalog.price_table("gcp-accelerator", acc.name))
    return frozenset(out)


def known(provider: str) -> frozenset[str]:
    return _known(catalog.active_origin(), provider.lower())


def problem(provider: str, region: str) -> str | None:
    """None for a region the catalog prices, else what is wrong with a did-you-mean."""
    provider = provider.lower()
    regions = known(provider)
    if not regions or _key(provider, region) in regions:
        return None  # a cloud without prices in this catalog cannot be checked
    if ANY_REGION in regions:
        return None  # a cloud with one price everywhere: no region to get wrong
    near = difflib.get_close_matches(_key(provider, region), sorted(regions), n=2, cutoff=0.75)
    hint = f" (did you mean {' or '.join(map(repr, sorted(near)))}?)" if near else ""
    return f"unknown {provider} region {region!r}{hint}"


def catalog_problems(clusters: tuple[Cluster, ...]) -> list[str]:
    """Regions and instance types the catalog in use does not price, each with its place and
    a did-you-mean (checked once the catalog is chosen)."""
    out = []
    for c in clusters:
        unknown = problem(c.cloud, c.region) if c.region else None
        if unknown:
            out.append(f"{c.region_where}: {unknown}")
        names = [s.name for s in catalog.instances(c.cloud)]
        for pool in c.pools:
            if pool.instance_type and catalog.instance(c.cloud, pool.instance_type) is None:
                near = difflib.get_close_matches(pool.instance_type, names, n=1, cutoff=0.75)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                out.append(f"{pool.type_where}: {pool.instance_type!r} is not a "
                           f"{c.cloud} instance type in the catalog{hint}")
    return out
