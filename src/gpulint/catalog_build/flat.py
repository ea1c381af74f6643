"""The clouds after the big three (providers.CLOUDS with a `table`): one SkyPilot-format table
each, whole instances (or GPU classes) per hour.

A cloud that lists one price per type for every region (`regional_prices=False`: OCI, whose
list prices are the same in all commercial regions, and the GPU clouds) gets no region
dimension: a type's rows collapse to one price under ANY_REGION when every region agrees. When
they do not, the regional rows are kept as the table has them and the adjustment says so.

A cloud billed per resource (`billing="gpu+cpu+memory"`: CoreWeave's resource pricing) lists
its GPU classes as one-GPU rows and two rows without an accelerator: `vcpu` (one vCPU) and
`memory` (one GiB), stored as the provider's `components`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from gpulint.catalog_build.common import (
    PRICED_KINDS,
    BuildError,
    Known,
    Notes,
    PriceTable,
    SpecTable,
    accelerator_kind,
    clean_pair,
    gib,
    model_name,
    put_spec,
    spec_record,
)
from gpulint.catalog_build.tables import Row, lowest, merge_zones
from gpulint.providers import ANY_REGION, Cloud

COMPONENTS = {"vcpu": ("vcpus", "ram"), "memory": ("ram", "vcpus")}  # name: (1 of, none of)


def _component(row: Row) -> tuple[str, float] | None:
    """('vcpu' | 'memory_gib', USD/h) of a component row, else None."""
    for name, (one, none) in COMPONENTS.items():
        if row.name == name and getattr(row, one) == 1 and getattr(row, none) is None \
                and row.price is not None:
            return ("memory_gib" if name == "memory" else name), row.price
    return None


def _one_price(cloud: str, regions: dict[str, list[float | None]],
               notes: Notes) -> dict[str, list[float | None]]:
    pairs = {tuple(pair) for pair in regions.values()}
    if len(pairs) == 1:
        notes.add(f"{cloud}_region_rows_merged", len(regions))
        return {ANY_REGION: list(next(iter(pairs)))}
    notes.add(f"{cloud}_types_with_regional_prices_kept")
    return regions


def build_flat(cloud: Cloud, rows: list[Row], known: Known, notes: Notes) -> dict[str, Any]:
    specs: SpecTable = {}
    prices: PriceTable = defaultdict(dict)
    components: dict[str, float] = {}
    for (name, accel, count, region), group in sorted(merge_zones(rows).items(),
                                                      key=lambda kv: (kv[0][0], kv[0][3])):
        row = group[0]
        if not accel:
            found = _component(row) if cloud.billing != "instance" else None
            if found:
                components[found[0]] = found[1]
            else:
                notes.add(f"{cloud.name}_rows_dropped_without_accelerator")
            continue
        kind = accelerator_kind(accel)
        if kind not in PRICED_KINDS:
            notes.add(f"{cloud.name}_rows_dropped_kind_{kind}")
            continue
        n = float(count or 0)
        if n <= 0:
            raise BuildError(f"{cloud.table} line {row.line}: {name} has no AcceleratorCount")
        mem = gib(row.mem_mib) if row.mem_mib is not None else \
            known.mem(cloud.name, name, model_name(accel))
        if kind == "gpu" and mem is None:
            notes.add(f"{cloud.name}_rows_dropped_gpu_without_memory")
            continue
        note = None if cloud.billing == "instance" else \
            "GPU class: a pod pays its GPU-hours plus the vCPUs and memory it requests"
        put_spec(specs, name, spec_record(kind, model_name(accel), n, mem, row.vcpus, row.ram,
                                          note))
        pair = clean_pair(lowest([r.price for r in group]), lowest([r.spot for r in group]),
                          notes, f"{cloud.name}_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add(f"{cloud.name}_rows_without_any_price")
            continue
        prices[name][region] = pair
    if not cloud.regional_prices:
        prices = {name: _one_price(cloud.name, regions, notes) for name, regions in prices.items()}
    body: dict[str, Any] = {"instances": specs, "prices": dict(prices)}
    if cloud.billing != "instance":
        missing = sorted({"vcpu", "memory_gib"} - set(components))
        if missing and specs:
            raise BuildError(f"{cloud.table}: no {' or '.join(missing)} component row; "
                             f"{cloud.name} bills a pod's GPUs, vCPUs and memory")
        body["components"] = components
    return body


def build_others(tables: dict[str, list[Row]], known: Known, notes: Notes,
                 sources: list[dict[str, Any]]) -> dict[str, Any]:
    """Each further cloud's provider body; one whose table the source lacks keeps the catalog
    in use's body and sources (an update from SkyPilot's tables, which have no CoreWeave)."""
    from gpulint import providers
    from gpulint.pricing import catalog_sources

    out = {}
    for cloud in providers.CLOUDS:
        if not cloud.table:
            continue
        rows = tables.get(cloud.table, [])
        kept = known.previous.get("providers", {}).get(cloud.name)
        if not rows and kept:
            out[cloud.name] = kept
            notes.add(f"{cloud.name}_kept_from_catalog_in_use")
            sources.extend(s for s in known.previous.get("sources", [])
                           if cloud.name in catalog_sources.providers_of(s) and s not in sources)
        elif rows:
            out[cloud.name] = build_flat(cloud, rows, known, notes)
    return out
