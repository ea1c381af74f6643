"""Derive the compact catalog (``gpu_catalog.json``) from SkyPilot-format price tables.

The bundled catalog and the one ``gpulint catalog update`` installs come out of ``derive()``:
one spec record per instance type, prices as {region: [ondemand, spot]}. Every cleaning step
is counted in ``adjustments``. Facts a table leaves out (GPU memory of some types, the GPUs of
GCP machine types that the table does not name) come from ``known``: a reference catalog (the
one in use, for an update) or a small fill table (for the bundled build).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from gpulint.pricing.catalog_tables import Row, lowest, merge_zones, parse

SCHEMA_VERSION = 1
HOURS_PER_MONTH = 730
DEFAULT_REGIONS = {"aws": "us-east-1", "gcp": "us-central1", "azure": "eastus"}
PRICED_KINDS = {"gpu", "tpu", "inferentia", "trainium", "gaudi"}

# Floors sit roughly 10% below the 2026-05 snapshot: a truncated download or a renamed column
# would otherwise shrink the catalog silently and lookups would start returning None.
OUTPUT_FLOORS = {
    "aws_instances": 75, "aws_prices": 650, "gcp_instances": 24, "gcp_prices": 230,
    "gcp_accelerators": 150, "gcp_accelerator_prices": 880, "gcp_hosts": 25,
    "gcp_host_prices": 720, "azure_instances": 32, "azure_prices": 740,
}

# One GPU vocabulary across providers; names not listed are kept as the source wrote them.
MODEL_NAMES = {
    "T4g": "T4G",  # Graviton g5g: same memory as T4, but arm64 hosts, so kept apart
    "RTXPRO6000": "RTX-PRO-6000",
    "Radeon Pro V520": "V520",
    "Gaudi HL-205": "Gaudi",
    "H100-MEGA": "H100",  # a3-megagpu: same H100 80GB part, more network
}
TPU_FAMILIES = {"v5litepod": "v5e"}
# TPU slice names count chips for these families and TensorCores (2 per chip) for the others
# (tpu-v4-8 is 4 chips; tpu-v6e-8 is 8), per the Cloud TPU docs.
TPU_NAMED_BY_CHIPS = {"v5litepod", "v5e", "v6e"}

# GCE API accelerator names (cloud.google.com/compute/docs/gpus) of the table's GPU names.
GCE_NAMES = {
    "A100": "nvidia-tesla-a100", "A100-80GB": "nvidia-a100-80gb", "H100": "nvidia-h100-80gb",
    "H100-MEGA": "nvidia-h100-mega-80gb", "H200": "nvidia-h200-141gb", "B200": "nvidia-b200",
    "L4": "nvidia-l4", "T4": "nvidia-tesla-t4", "V100": "nvidia-tesla-v100",
    "P100": "nvidia-tesla-p100", "P4": "nvidia-tesla-p4", "K80": "nvidia-tesla-k80",
}
# Accelerator-optimized GCE families whose GPUs are part of the machine type, for tables that
# list the machine type without its GPUs (SkyPilot's own): family -> GPU name; the count is the
# machine type's "-<N>g" suffix (cloud.google.com/compute/docs/accelerator-optimized-machines).
GCP_BUNDLED_FAMILIES = {
    "a2-highgpu": "A100", "a2-megagpu": "A100", "a2-ultragpu": "A100-80GB",
    "a3-highgpu": "H100", "a3-edgegpu": "H100", "a3-megagpu": "H100-MEGA",
    "a3-ultragpu": "H200", "a4-highgpu": "B200",
}
G2_L4_COUNT = {4: 1, 8: 1, 12: 1, 16: 1, 32: 1, 24: 2, 48: 4, 96: 8}  # g2-standard-<vCPUs>

# A region id is <geo>[-gov]-<area>-<n>. Local Zone and Wavelength ids are zones inside a
# parent region that Terraform never sets as the provider region: dropped. GovCloud is kept.
AWS_REGION_RE = re.compile(r"^[a-z]{2}(-gov)?-[a-z]+-\d+$")
# The GCP source fills unknown TPU v6e prices with a flat 700.0 USD/h for every slice size.
TPU_PLACEHOLDER_PRICE = 700.0

AZURE_NOTES = (
    (re.compile(r"^Standard_NV\d+as_v4$"),
     "NVv4 partitions one MI25; catalog lists count 1 for all sizes (actual partition 1/8..1)"),
    (re.compile(r"^Standard_NCC?\d+adi?s_H100_v5$"),
     "H100 NVL (94 GB) per Azure NCads H100 v5 docs; SpareCores measured 95830 MiB"),
)


SpecTable = dict[str, dict[str, Any]]
PriceTable = dict[str, dict[str, list[float | None]]]


class BuildError(ValueError):
    """The tables cannot give a trustworthy catalog."""


class Notes:
    """Counts every adjustment made to the source data, for the catalog's metadata."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] += n


class Known:
    """Facts the tables may leave out: GPU memory (GiB per device) by (provider, type) and by
    model, and the GPUs of GCP machine types (type -> (table GPU name, count))."""

    def __init__(self, memory: dict[tuple[str, str], float] | None = None,
                 model_memory: dict[str, float] | None = None,
                 gcp_bundles: dict[str, tuple[str, float]] | None = None) -> None:
        self.memory = memory or {}
        self.model_memory = model_memory or {}
        self.gcp_bundles = gcp_bundles or {}

    @classmethod
    def from_catalog(cls, data: dict[str, Any]) -> Known:
        memory, bundles = {}, {}
        reverse = {v: k for k, v in GCE_NAMES.items()}
        for prov, body in data.get("providers", {}).items():
            for table in ("instances", "accelerators"):
                for name, rec in body.get(table, {}).items():
                    if rec.get("mem"):
                        memory[(prov, name)] = rec["mem"]
                    note = rec.get("note") or ""
                    if prov == "gcp" and table == "instances" and note.startswith("bundles "):
                        raw = reverse.get(note.removeprefix("bundles "))
                        if raw:
                            bundles[name] = (raw, float(rec["count"]))
        return cls(memory, dict(data.get("gpu_models", {})), bundles)

    def mem(self, provider: str, name: str, model: str | None) -> float | None:
        found = self.memory.get((provider, name))
        return found if found is not None else self.model_memory.get(model or "")


def gib(mib: float) -> float:
    return round(mib / 1024, 2)


def model_name(raw: str) -> str:
    return MODEL_NAMES.get(raw, raw)


def accelerator_kind(name: str) -> str:
    low = name.lower()
    for key, kind in (("inferentia", "inferentia"), ("trainium", "trainium"),
                      ("gaudi", "gaudi"), ("ai100", "qualcomm_ai100"), ("tpu", "tpu")):
        if key in low:
            return kind
    return "gpu"


def clean_pair(od: float | None, spot: float | None, notes: Notes, key: str) -> list[float | None]:
    """Spot above on-demand is a source artefact (rounding or a stale sample): drop the spot.
    A zero price is no price (the tables write 0 for "not offered")."""
    od, spot = od or None, spot or None
    if od is not None and spot is not None and spot > od:
        notes.add(key)
        spot = None
    return [od, spot]


def put_spec(table: SpecTable, name: str, spec: dict[str, Any]) -> None:
    """Every row of a type must carry the same spec; a conflict means the source changed shape."""
    old = table.setdefault(name, spec)
    if old != spec:
        raise BuildError(f"conflicting specs for {name}: {old} vs {spec}")


def spec_record(kind: str, model: str | None, count: float, mem: float | None,
                vcpus: float | None, ram: float | None, note: str | None = None) -> dict[str, Any]:
    rec = {"kind": kind, "model": model, "count": count, "mem": mem, "vcpus": vcpus, "ram": ram}
    if note:
        rec["note"] = note
    return rec


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
    have = sizes(providers)
    low = {k: have.get(k, 0) for k, floor in OUTPUT_FLOORS.items() if have.get(k, 0) < floor}
    if low:
        detail = ", ".join(f"{k} {v} < {OUTPUT_FLOORS[k]}" for k, v in sorted(low.items()))
        raise BuildError(f"derived catalog below its row floors ({detail})")


def derive(tables: dict[str, str], sources: list[dict[str, Any]], snapshot_date: str,
           known: Known | None = None) -> dict[str, Any]:
    """The catalog from the text of each table in TABLES (a missing optional table: "")."""
    from gpulint.pricing import catalog_consistency, catalog_sources
    from gpulint.pricing.catalog_gcp import build_gcp

    known = known or Known()
    notes = Notes()
    rows = {name: parse(name, text) if text else [] for name, text in tables.items()}
    providers = {
        "aws": build_aws(rows.get("aws/vms.csv", []), known, notes),
        "gcp": build_gcp(rows.get("gcp/vms.csv", []) + rows.get("gcp/accelerators.csv", []),
                         known, notes),
        "azure": build_azure(rows.get("azure/vms.csv", []), known, notes),
    }
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

    from gpulint.load.reader import TOOL_FILE_LIMIT, read_file_text
    from gpulint.pricing.catalog_tables import OPTIONAL_TABLES, TABLES

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
