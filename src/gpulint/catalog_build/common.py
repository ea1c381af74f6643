"""The vocabulary every table builder shares: catalog constants, GPU and machine names,
the cleaning notes, the known facts a table leaves out, and the spec record."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from gpulint import providers

SCHEMA_VERSION = 1
HOURS_PER_MONTH = 730
DEFAULT_REGIONS = {c.name: c.default_region for c in providers.CLOUDS}
PRICED_KINDS = {"gpu", "tpu", "inferentia", "trainium", "gaudi"}

# Floors sit roughly 10% below the 2026-05 snapshot: a truncated download or a renamed column
# would otherwise shrink the catalog silently and lookups would start returning None.
OUTPUT_FLOORS = {
    "aws_instances": 75, "aws_prices": 650, "gcp_instances": 24, "gcp_prices": 230,
    "gcp_accelerators": 150, "gcp_accelerator_prices": 880, "gcp_hosts": 25,
    "gcp_host_prices": 720, "azure_instances": 32, "azure_prices": 740,
    **{f"{c.name}_{table}": floor for c in providers.CLOUDS if c.table
       for table, floor in zip(("instances", "prices"), c.floors, strict=True)},
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
                 gcp_bundles: dict[str, tuple[str, float]] | None = None,
                 previous: dict[str, Any] | None = None) -> None:
        self.memory = memory or {}
        self.model_memory = model_memory or {}
        self.gcp_bundles = gcp_bundles or {}
        # The catalog in use (an update keeps a cloud whose table the source does not have).
        self.previous = previous or {}

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
        return cls(memory, dict(data.get("gpu_models", {})), bundles, data)

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


