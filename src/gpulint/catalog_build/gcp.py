"""GCP part of the catalog derivation: machine types with GPUs, attachable GPUs and TPU slices
(keyed by GCE API name, priced per GPU-hour or slice-hour), and n1 host VMs.

GCP tables come in two shapes. Some list a2/a3/a4/g2 machine types with their GPUs and the
whole price; SkyPilot's lists the machine type without GPUs (the VM part of the price) and the
GPUs as separate rows with no InstanceType. Both give the same catalog: for the second, the
machine type's price is its VM part plus the price of its GPUs in the same region.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from gpulint.catalog_build.common import (
    G2_L4_COUNT,
    GCE_NAMES,
    GCP_BUNDLED_FAMILIES,
    TPU_FAMILIES,
    TPU_NAMED_BY_CHIPS,
    TPU_PLACEHOLDER_PRICE,
    BuildError,
    Known,
    Notes,
    PriceTable,
    SpecTable,
    clean_pair,
    gib,
    model_name,
    put_spec,
    spec_record,
)
from gpulint.catalog_build.tables import Row, lowest, merge_zones

N1_ATTACHABLE = {"T4", "V100", "P100", "P4", "K80"}


def gce_name(raw: str, notes: Notes) -> str:
    if raw not in GCE_NAMES:
        notes.add("gcp_gpu_api_name_guessed")
    return GCE_NAMES.get(raw, "nvidia-" + raw.lower())


def tpu_model(slice_name: str) -> str:
    """tpu-v5litepod-8 -> TPU-v5e (family, without the slice size)."""
    family = slice_name.removeprefix("tpu-").rsplit("-", 1)[0]
    return "TPU-" + TPU_FAMILIES.get(family, family)


def tpu_chips(slice_name: str) -> float:
    family, _, size = slice_name.removeprefix("tpu-").rpartition("-")
    n = float(size) if size.isdigit() else 1.0
    return n if family in TPU_NAMED_BY_CHIPS else max(n / 2, 1.0)


def tpu_price(value: float | None, notes: Notes) -> float | None:
    if value == TPU_PLACEHOLDER_PRICE:
        notes.add("gcp_tpu_placeholder_700_prices_dropped")
        return None
    return value


BUNDLED_RE = re.compile(r"^(a\d-[a-z]+gpu)-(\d+)g(-[a-z]+)?$")  # a3-edgegpu-8g-nolssd


def bundled_gpus(row: Row, known: Known) -> tuple[str, float] | None:
    """(table GPU name, count) of a machine type: from the row, else the reference catalog,
    else the accelerator-optimized family rules."""
    if row.accelerator:
        return row.accelerator, float(row.count or 0)
    if row.name in known.gcp_bundles:
        return known.gcp_bundles[row.name]
    m = BUNDLED_RE.match(row.name)
    if m and m.group(1) in GCP_BUNDLED_FAMILIES:
        return GCP_BUNDLED_FAMILIES[m.group(1)], float(m.group(2))
    family, _, tail = row.name.rpartition("-")
    if family == "g2-standard" and tail.isdigit() and int(tail) in G2_L4_COUNT:
        return "L4", float(G2_L4_COUNT[int(tail)])
    return None


def family_label(names: set[str]) -> str:
    """a2-highgpu-1g, a2-megagpu-16g -> a2-highgpu/a2-megagpu; g2-standard-4 -> g2-standard-*."""
    return "/".join(sorted({m.group(1) if (m := BUNDLED_RE.match(n)) else re.sub(r"-\d+$", "-*", n)
                            for n in names}))


def accelerator_note(raw: str, bundled_in: set[str]) -> str:
    if raw.startswith("tpu-"):
        return "TPU slice; price is per slice-hour, no host VM needed"
    if raw in N1_ATTACHABLE or not bundled_in:
        return "attaches to n1-* hosts; price is per GPU-hour, add the host VM"
    return (f"bundled in {family_label(bundled_in)}; the machine type price already "
            "includes it")


Key = tuple[str, str, "float | None", str]
ZonePrice = tuple[Row, "float | None", "float | None"]  # first row, on-demand, spot


def zone_prices(rows: list[Row]) -> dict[Key, ZonePrice]:
    """(type, accelerator, count, region) -> (first row, on-demand, spot), lowest over zones."""
    return {key: (group[0], lowest([r.price for r in group]), lowest([r.spot for r in group]))
            for key, group in sorted(merge_zones(rows).items(),
                                     key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or 0, kv[0][3]))}


def build_machines(machines: list[Row], gpu_totals: dict[Key, ZonePrice],
                   known: Known, notes: Notes) -> tuple[SpecTable, PriceTable, dict[str, set[str]]]:
    """a2/a3/a4/g2: the price is VM part + GPU part. Never add the accelerator price again."""
    specs: SpecTable = {}
    prices: PriceTable = defaultdict(dict)
    bundled_in: dict[str, set[str]] = defaultdict(set)
    for (name, _accel, _count, region), (row, od, spot) in zone_prices(machines).items():
        gpus = bundled_gpus(row, known)
        if gpus is None:
            continue
        raw, count = gpus
        if not row.accelerator:  # SkyPilot shape: add the GPUs' price in the same region
            part = gpu_totals.get(("", raw, count, region))
            if part is None:
                notes.add("gcp_machine_rows_without_gpu_price")
                continue
            od = None if od is None or part[1] is None else round(od + part[1], 5)
            spot = None if spot is None or part[2] is None else round(spot + part[2], 5)
        api = GCE_NAMES.get(raw, "nvidia-" + raw.lower())
        mem = (gib(row.mem_mib) if row.mem_mib is not None
               else known.mem("gcp", name, model_name(raw)))
        if mem is None:
            notes.add("gcp_machine_rows_dropped_gpu_without_memory")
            continue
        put_spec(specs, name, spec_record("gpu", model_name(raw), count, mem, row.vcpus, row.ram,
                                          f"bundles {api}"))
        bundled_in[raw].add(name)
        prices[name][region] = clean_pair(od, spot, notes, "gcp_spot_above_ondemand_dropped")
    return specs, dict(prices), bundled_in


def build_accelerators(totals: dict[Key, ZonePrice], known: Known,
                       bundled_in: dict[str, set[str]], notes: Notes
                       ) -> tuple[SpecTable, PriceTable]:
    """GPUs keyed by GCE API name, priced per GPU-hour; TPU slices keyed by slice name,
    priced per slice-hour (count = chips)."""
    specs: SpecTable = {}
    best: dict[tuple[str, str], tuple[float, list[float | None]]] = {}
    for (_name, raw, count, region), (row, od, spot) in totals.items():
        n = float(count or 1)
        if raw.startswith("tpu-"):
            key = raw
            spec = spec_record("tpu", tpu_model(raw), tpu_chips(raw), None, None, None,
                               accelerator_note(raw, set()))
            od, spot, n = tpu_price(od, notes), tpu_price(spot, notes), 1.0
        else:
            key = gce_name(raw, notes)
            mem = (gib(row.mem_mib) if row.mem_mib is not None
                   else known.mem("gcp", key, model_name(raw)))
            if mem is None:
                notes.add("gcp_accelerator_rows_dropped_gpu_without_memory")
                continue
            spec = spec_record("gpu", model_name(raw), 1.0, mem, None, None,
                               accelerator_note(raw, bundled_in.get(raw, set())))
            # The table prices N devices; per device, to the table's five decimals.
            od = None if od is None else round(od / n, 5)
            spot = None if spot is None else round(spot / n, 5)
        put_spec(specs, key, spec)
        # Per-device figures differ by 1e-5 between counts (rounding): the smallest count wins.
        if (key, region) not in best or n < best[(key, region)][0]:
            best[(key, region)] = (n, [od, spot])
    prices: PriceTable = defaultdict(dict)
    for (key, region), (_, (od, spot)) in sorted(best.items()):
        pair = clean_pair(od, spot, notes, "gcp_accelerator_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add("gcp_accelerator_rows_without_any_price")
            continue
        prices[key][region] = pair
    return specs, dict(prices)


def build_hosts(hosts: list[Row], notes: Notes) -> tuple[SpecTable, PriceTable]:
    specs: SpecTable = {}
    prices: PriceTable = defaultdict(dict)
    for (name, _a, _c, region), (row, od, spot) in zone_prices(hosts).items():
        put_spec(specs, name, {"vcpus": row.vcpus, "ram": row.ram})
        prices[name][region] = clean_pair(od, spot, notes, "gcp_host_spot_above_ondemand_dropped")
    return specs, dict(prices)


def build_gcp(rows: list[Row], known: Known, notes: Notes) -> dict[str, Any]:
    machines = [r for r in rows if r.name and bundled_gpus(r, known) is not None]
    hosts = [r for r in rows if r.name.startswith("n1-") and not r.accelerator]
    totals = zone_prices([r for r in rows if not r.name and r.accelerator])
    instances, prices, bundled_in = build_machines(machines, totals, known, notes)
    accelerators, accelerator_prices = build_accelerators(totals, known, bundled_in, notes)
    host_specs, host_prices = build_hosts(hosts, notes)
    if not machines and not totals and rows:
        raise BuildError("gcp tables: no machine type with GPUs and no accelerator rows")
    return {"instances": instances, "prices": prices, "accelerators": accelerators,
            "accelerator_prices": accelerator_prices, "hosts": host_specs,
            "host_prices": host_prices}
