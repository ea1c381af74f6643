"""Derive the compact catalog (``gpu_catalog.json``) from SkyPilot-format price tables.

The bundled catalog and the one ``gpulint catalog update`` installs come out of ``derive()``:
one spec record per instance type, prices as {region: [ondemand, spot]}. Every cleaning step
is counted in ``adjustments``. Facts a table leaves out (GPU memory of some types, the GPUs of
GCP machine types that the table does not name) come from ``known``: a reference catalog (the
one in use, for an update) or a small fill table (for the bundled build).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from gpulint.catalog_build.common import (
    AWS_REGION_RE,
    AZURE_NOTES,
    DEFAULT_REGIONS,
    HOURS_PER_MONTH,
    OUTPUT_FLOORS,
    PRICED_KINDS,
    SCHEMA_VERSION,
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
from gpulint.catalog_build.tables import Row, lowest, merge_zones, parse


def _regions(rows: Iterable[Row]
             ) -> dict[tuple[str, str, float | None, str], tuple[Row, list[float | None]]]:
    """(type, accelerator, count, region) -> (first row, [ondemand, spot]) over the zones."""
    return {key: (group[0], [lowest([r.price for r in group]), lowest([r.spot for r in group])])
            for key, group in merge_zones(list(rows)).items()}


# --------------------------------------------------------------------------- AWS


def build_aws(rows: list[Row], known: Known, notes: Notes) -> dict[str, Any]:
    specs: SpecTable = {}
    prices: PriceTable = defaultdict(dict)
    for (name, accel, count, region), (row, (od, spot)) in sorted(
            _regions(r for r in rows if r.accelerator and r.name).items(),
            key=lambda kv: (kv[0][0], kv[0][3])):
        kind = accelerator_kind(accel)
        if kind not in PRICED_KINDS:
            notes.add(f"aws_rows_dropped_kind_{kind}")
            continue
        if not AWS_REGION_RE.match(region):
            notes.add("aws_rows_dropped_local_or_wavelength_zone")
            continue
        n = float(count or 0)
        if n <= 0:
            raise BuildError(f"aws/vms.csv line {row.line}: {name} has no AcceleratorCount")
        # g6f/gr6f report the memory of the slice: the full device is slice / fraction.
        mem = None if row.mem_mib is None else gib(row.mem_mib / n if n < 1 else row.mem_mib)
        if mem is None and (filled := known.memory.get(("aws", name))) is not None:
            mem = filled
            notes.add("aws_rows_memory_filled")
        if kind == "gpu" and mem is None:
            notes.add("aws_rows_dropped_gpu_without_memory")
            continue
        put_spec(specs, name, spec_record(kind, model_name(accel), n, mem, row.vcpus, row.ram))
        pair = clean_pair(od, spot, notes, "aws_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add("aws_rows_without_any_price")  # spec kept; price() returns None
            continue
        prices[name][region] = pair
    return {"instances": specs, "prices": dict(prices)}


# --------------------------------------------------------------------------- Azure


def azure_note(name: str, accel: str, count: float) -> str | None:
    for pattern, note in AZURE_NOTES:
        if pattern.match(name):
            return note
    if count < 1:
        return f"fractional {accel} ({count:g} of a GPU); memory column is the full-GPU figure"
    return None


def build_azure(rows: list[Row], known: Known, notes: Notes) -> dict[str, Any]:
    specs: SpecTable = {}
    prices: PriceTable = defaultdict(dict)
    for (name, accel, count, region), (row, (od, spot)) in sorted(
            _regions(r for r in rows if r.accelerator and r.name).items(),
            key=lambda kv: (kv[0][0], kv[0][3])):
        n = float(count or 0)
        # Memory the table leaves out: this size's, else its GPU model's, in the catalog in use.
        mem = (gib(row.mem_mib) if row.mem_mib is not None
               else known.mem("azure", name, model_name(accel)))
        if mem is None:
            notes.add("azure_rows_dropped_gpu_without_memory")
            continue
        # NC H100 v5 sizes carry H100 NVL (94 GB), a different part from the 80 GB SXM.
        model = "H100-NVL" if accel == "H100" and round(mem) == 94 else model_name(accel)
        # NVadsA10 v5 lists the full-GPU memory next to a fractional count: kept as it is.
        put_spec(specs, name, spec_record(accelerator_kind(accel), model, n, mem, row.vcpus,
                                          row.ram, azure_note(name, accel, n)))
        pair = clean_pair(od, spot, notes, "azure_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add("azure_rows_without_any_price")
            continue
        prices[name][region] = pair
    return {"instances": specs, "prices": dict(prices)}


def gpu_models(providers: dict[str, Any]) -> dict[str, float]:
    """GPU model -> GiB per device. Sources differ slightly (L4: 22.35 on AWS, 24 on GCP);
    the smallest figure is kept so memory-fit checks stay conservative."""
    out: dict[str, float] = {}
    for prov in providers.values():
        for table in (prov["instances"], prov.get("accelerators", {})):
            for spec in table.values():
                if spec.get("kind") == "gpu" and spec["mem"] is not None:
                    out[spec["model"]] = min(out.get(spec["model"], spec["mem"]), spec["mem"])
    return out


def count_rows(prices: PriceTable) -> int:
    return sum(len(regions) for regions in prices.values())


def sizes(providers: dict[str, Any]) -> dict[str, int]:
    """Entries and price rows per table, named as in OUTPUT_FLOORS."""
    out = {}
    for prov, body in providers.items():
        for table in ("instances", "accelerators", "hosts"):
            if table in body:
                label = {"instances": "instances", "accelerators": "accelerators",
                         "hosts": "hosts"}[table]
                out[f"{prov}_{label}"] = len(body[table])
        for table, label in (("prices", "prices"), ("accelerator_prices", "accelerator_prices"),
                             ("host_prices", "host_prices")):
            if table in body:
                out[f"{prov}_{label}"] = count_rows(body[table])
    return out


def check_floors(providers: dict[str, Any]) -> None:
    """The big three must be there in full; a further cloud only when its table was."""
    from gpulint import providers as clouds

    have = sizes(providers)
    absent = {c.name for c in clouds.CLOUDS if c.table and c.name not in providers}
    low = {k: have.get(k, 0) for k, floor in OUTPUT_FLOORS.items()
           if have.get(k, 0) < floor and k.split("_", 1)[0] not in absent}
    if low:
        detail = ", ".join(f"{k} {v} < {OUTPUT_FLOORS[k]}" for k, v in sorted(low.items()))
        raise BuildError(f"derived catalog below its row floors ({detail})")


def derive(tables: dict[str, str], sources: list[dict[str, Any]], snapshot_date: str,
           known: Known | None = None) -> dict[str, Any]:
    """The catalog from the text of each table in TABLES (a missing optional table: "")."""
    from gpulint.catalog_build import consistency as catalog_consistency
    from gpulint.catalog_build.flat import build_others
    from gpulint.catalog_build.gcp import build_gcp
    from gpulint.pricing import catalog_sources

    known = known or Known()
    notes = Notes()
    rows = {name: parse(name, text) if text else [] for name, text in tables.items()}
    providers = {
        "aws": build_aws(rows.get("aws/vms.csv", []), known, notes),
        "gcp": build_gcp(rows.get("gcp/vms.csv", []) + rows.get("gcp/accelerators.csv", []),
                         known, notes),
        "azure": build_azure(rows.get("azure/vms.csv", []), known, notes),
    }
    sources = list(sources)
    providers.update(build_others(rows, known, notes, sources))
    source_of = {p: catalog_sources.provider_label(sources, p) or "?" for p in providers}
    entries = catalog_consistency.check(providers, source_of)
    for key, n in catalog_consistency.counts(entries).items():
        notes.add(key, n)
    check_floors(providers)
    return {
        "schema_version": SCHEMA_VERSION,
        "currency": "USD",
        "snapshot_date": snapshot_date,
        "hours_per_month_default": HOURS_PER_MONTH,
        "default_regions": DEFAULT_REGIONS,
        "sources": sources,
        "adjustments": dict(notes.counts),
        "adjustment_rows": entries,
        "gpu_models": gpu_models(providers),
        "providers": providers,
    }


def render(catalog: dict[str, Any]) -> bytes:
    """Sorted, compact JSON: the same catalog always gives the same bytes."""
    return (json.dumps(catalog, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
            + "\n").encode("utf-8")


def read_memory_fill(text: str) -> dict[tuple[str, str], float]:
    """provider,instance_type,gpu_memory_mib[,source] rows -> GiB per device."""
    import csv
    import io

    return {(r["provider"], r["instance_type"]): gib(float(r["gpu_memory_mib"]))
            for r in csv.DictReader(io.StringIO(text))}


def from_directory(path: str) -> dict[str, Any]:
    """The bundled catalog from a directory of tables, ``sources.json`` (provenance, with the
    date of each source) and ``memory_fill.csv`` (GPU memory the tables leave blank)."""
    from pathlib import Path

    from gpulint.catalog_build.tables import OPTIONAL_TABLES, TABLES
    from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text

    base = Path(path)
    tables = {}
    for name in TABLES:
        file = base / name
        if name in OPTIONAL_TABLES and not file.exists():
            tables[name] = ""
            continue
        tables[name] = read_file_text(str(file), TOOL_FILE_LIMIT)
    sources = json.loads(read_file_text(str(base / "sources.json"), TOOL_FILE_LIMIT))
    fill = base / "memory_fill.csv"
    memory = read_memory_fill(read_file_text(str(fill))) if fill.exists() else {}
    # A date from the sources, not the build time, so rebuilding gives identical bytes.
    date = max(str(s["date"]) for s in sources if s.get("date"))
    return derive(tables, sources, date, Known(memory=memory))
