#!/usr/bin/env python3
"""Build src/gpulint/data/gpu_catalog.json from the raw pricing snapshots.

The raw CSVs (see <data-dir>/README.md) are large and partly redundant. This script
derives one compact, deterministic JSON file that gpulint ships and reads at run time:
one spec record per instance type, and prices as {region: [ondemand, spot]}.

Usage: python scripts/build_catalog.py [--data-dir DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO_ROOT.parent / "shared" / "data" / "pricing"
DEFAULT_OUT = REPO_ROOT / "src" / "gpulint" / "data" / "gpu_catalog.json"

SCHEMA_VERSION = 1
HOURS_PER_MONTH = 730
DEFAULT_REGIONS = {"aws": "us-east-1", "gcp": "us-central1", "azure": "eastus"}

# Kinds the tool prices. qualcomm_ai100 (dl2q) is left out: no memory figure and
# nothing in gpulint targets it yet.
PRICED_KINDS = {"gpu", "tpu", "inferentia", "trainium", "gaudi"}

# Provenance, carried over from the data README. `date` is the date of the data
# (null when the source gives none).
SOURCES: list[dict[str, str | None]] = [
    {
        "name": "skypilot-catalog v8",
        "used_for": "aws (rows marked skypilot-catalog v8)",
        "repo": "skypilot-org/skypilot-catalog",
        "path": "catalogs/v8/aws/vms.csv",
        "commit": "e385a0d348eda9cefd9806423e7725944dc249e4",
        "date": None,
        "date_note": "no date in the file; probably late 2025 (has p6-b200, lacks g7e/p6-b300)",
        "license": "no LICENSE file in the catalog repo; the SkyPilot project is Apache-2.0",
    },
    {
        "name": "vantage instances data (tsaol/aws-gpu)",
        "used_for": "aws (rows marked vantage), on-demand only",
        "repo": "tsaol/aws-gpu",
        "path": "data/all_gpu_instances.js",
        "commit": "77fcd9fe1d0652fd07b830e5ed030d61da87923e",
        "date": "2026-01-21",
        "date_note": "marked 'Last updated 2026-01-21'",
        "license": "README shows an MIT badge but the repo has no LICENSE file; "
        "ec2instances.info data is MIT",
    },
    {
        "name": "anycloud-sh/catalog",
        "used_for": "gcp and azure",
        "repo": "anycloud-sh/catalog",
        "path": "gcp/vms.csv; azure/vms.csv",
        "commit": "62ff0a987e0c257a89235415d2877812fb1aaf29",
        "date": "2026-05-20",
        "date_note": "commit message 'Update catalogs 2026-05-20'",
        "license": "no LICENSE file in the repo",
    },
    {
        "name": "SpareCores sc-data-dumps",
        "used_for": "fills GPU memory where the price sources leave it blank",
        "repo": "SpareCores/sc-data-dumps",
        "path": "servers table (GPU servers)",
        "commit": "e8749bef991dfd1c531e84f09c2882945064a18d",
        "date": "2026-01-31",
        "date_note": None,
        "license": "CC BY-SA 4.0",
    },
]

# Minimum rows per raw file and minimum output entries. A truncated download or an
# upstream column rename would otherwise shrink the catalog silently, and lookups
# would start returning None (unpriced) instead of the build failing loudly.
# Floors sit roughly 10% below the 2026-05 snapshot.
RAW_ROW_FLOORS = {
    "aws.csv": 1050,
    "gcp.csv": 300,
    "gcp_accelerators.csv": 1100,
    "gcp_n1_host_vms.csv": 720,
    "azure.csv": 740,
}
OUTPUT_FLOORS = {
    "aws_instances": 75,
    "aws_prices": 650,
    "gcp_instances": 24,
    "gcp_prices": 300,
    "gcp_accelerators": 150,
    "gcp_accelerator_prices": 880,
    "gcp_hosts": 25,
    "gcp_host_prices": 720,
    "azure_instances": 32,
    "azure_prices": 740,
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

# A region id is <geo>[-gov]-<area>-<n>. Local Zone (us-west-2-lax-1) and Wavelength
# (us-east-1-wl1-atl1) ids are zones inside a parent region, not regions: Terraform
# never sets them as the provider region, and they would skew "cheapest region"
# answers, so they are dropped. GovCloud ids match and are kept.
AWS_REGION_RE = re.compile(r"^[a-z]{2}(-gov)?-[a-z]+-\d+$")

# The GCP source fills unknown TPU v6e prices with a flat 700.0 USD/h, the same for
# every slice size from 1 to 256 chips (asia-east1, southamerica-east1, us-central2,
# and the spot column of southamerica-west1). That cannot be a real price.
TPU_PLACEHOLDER_PRICE = 700.0


def fnum(text: str) -> float | None:
    """Parse a CSV cell; blank means the source had no value."""
    text = text.strip()
    return float(text) if text else None


def read_csv(data_dir: Path, name: str) -> list[dict[str, str]]:
    with open(data_dir / name, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    floor = RAW_ROW_FLOORS.get(name, 0)
    if len(rows) < floor:
        sys.exit(f"refusing to build: {name} has {len(rows)} rows, expected >= {floor}")
    return rows


def gib(mib: float) -> float:
    return round(mib / 1024, 2)


def model_name(raw: str) -> str:
    return MODEL_NAMES.get(raw, raw)


class Notes:
    """Counts every adjustment made to the source data, so metadata can report it."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] += n


def clean_pair(od: float | None, spot: float | None, notes: Notes, key: str) -> list[float | None]:
    """Spot above on-demand is a source artefact (rounding or stale sample): drop the spot."""
    if od is not None and spot is not None and spot > od:
        notes.add(key)
        spot = None
    return [od, spot]


def put_spec(table: dict[str, dict], name: str, spec: dict) -> None:
    """Every row of a type must carry the same spec; a conflict means the source changed shape."""
    old = table.setdefault(name, spec)
    if old != spec:
        sys.exit(f"refusing to build: conflicting specs for {name}: {old} vs {spec}")


def spec_record(
    kind: str,
    model: str | None,
    count: float,
    mem: float | None,
    vcpus: float | None,
    ram: float | None,
    note: str | None = None,
) -> dict:
    rec = {"kind": kind, "model": model, "count": count, "mem": mem, "vcpus": vcpus, "ram": ram}
    if note:
        rec["note"] = note
    return rec


# --------------------------------------------------------------------------- AWS


def sparecores_memory(data_dir: Path) -> dict[tuple[str, str], float]:
    """(vendor, server id) -> per-GPU GiB from the independent Spare Cores dump."""
    out: dict[tuple[str, str], float] = {}
    for row in read_csv(data_dir, "gpu_server_specs_sparecores.csv"):
        mib = fnum(row["gpu_memory_min_mib"])
        if mib:
            out[(row["vendor"], row["server_id"])] = gib(mib)
    return out


def aws_device_memory(row: dict[str, str], count: float) -> float | None:
    """Memory of one full device. g6f/gr6f report the slice (2861 MiB for 1/8 L4), so
    divide by the fraction: the instance then sees count x memory, as for Azure."""
    mib = fnum(row["accelerator_memory_mib_reported"])
    if mib is not None:
        return gib(mib / count) if count < 1 else gib(mib)
    return fnum(row["accelerator_memory_gib_per_device"])


def pick_aws_row(rows: list[dict[str, str]]) -> dict[str, str]:
    """Both sources may list a (type, region): prefer the one with a spot price, but only
    if on-demand agrees. (The 2026-05 snapshot has no such overlaps; kept for updates.)"""
    ods = {r["price_ondemand_usd_hr"] for r in rows if r["price_ondemand_usd_hr"]}
    if len(ods) > 1:
        sys.exit(f"refusing to build: on-demand disagrees for {rows[0]['instance_type']} "
                 f"{rows[0]['region']}: {sorted(ods)}")
    return sorted(rows, key=lambda r: (not r["price_spot_usd_hr"], not r["price_ondemand_usd_hr"],
                                       r["source"]))[0]


def build_aws(data_dir: Path, notes: Notes) -> dict:
    filled = sparecores_memory(data_dir)
    grouped: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for row in read_csv(data_dir, "aws.csv"):
        if row["accelerator_kind"] not in PRICED_KINDS:
            notes.add(f"aws_rows_dropped_kind_{row['accelerator_kind']}")
            continue
        if not AWS_REGION_RE.match(row["region"]):
            notes.add("aws_rows_dropped_local_or_wavelength_zone")
            continue
        grouped[(row["instance_type"], row["region"])].append(row)

    specs: dict[str, dict] = {}
    prices: dict[str, dict[str, list]] = defaultdict(dict)
    for (name, region), rows in sorted(grouped.items()):
        if len(rows) > 1:
            notes.add("aws_duplicate_rows_merged", len(rows) - 1)
        row = pick_aws_row(rows)
        kind, count = row["accelerator_kind"], float(row["accelerator_count"])
        mem = aws_device_memory(row, count)
        if mem is None and ("aws", name) in filled:
            # g3s.xlarge and p6-b300 are blank in the price sources.
            mem = filled[("aws", name)]
            notes.add("aws_rows_memory_from_sparecores")
        if kind == "gpu" and mem is None:
            # g2 (K520): no memory figure in any source; gpulint needs one for every GPU.
            notes.add("aws_rows_dropped_gpu_without_memory")
            continue
        put_spec(specs, name, spec_record(kind, model_name(row["accelerator_name"]), count, mem,
                                          fnum(row["vcpus"]), fnum(row["memory_gib"])))
        pair = clean_pair(fnum(row["price_ondemand_usd_hr"]), fnum(row["price_spot_usd_hr"]),
                          notes, "aws_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add("aws_rows_without_any_price")  # spec kept; price() returns None
            continue
        prices[name][region] = pair
    return {"instances": specs, "prices": dict(prices)}


# --------------------------------------------------------------------------- GCP


def build_gcp_bundled(data_dir: Path, notes: Notes) -> tuple[dict, dict]:
    """a2/a3/a4/g2: price_* already is VM part + accelerator part. Never add the
    accelerator price again."""
    specs: dict[str, dict] = {}
    prices: dict[str, dict[str, list]] = defaultdict(dict)
    for row in read_csv(data_dir, "gcp.csv"):
        name = row["instance_type"]
        mib = fnum(row["accelerator_memory_mib_reported"])
        mem = gib(mib) if mib is not None else fnum(row["accelerator_memory_gib_per_device"])
        put_spec(specs, name, spec_record("gpu", model_name(row["accelerator_name"]),
                                          float(row["accelerator_count"]), mem,
                                          fnum(row["vcpus"]), fnum(row["memory_gib"]),
                                          f"bundles {row['gcp_accelerator_type']}"))
        prices[name][row["region"]] = clean_pair(
            fnum(row["price_ondemand_usd_hr"]), fnum(row["price_spot_usd_hr"]),
            notes, "gcp_spot_above_ondemand_dropped")
    return specs, dict(prices)


def tpu_model(slice_name: str) -> str:
    """tpu-v5litepod-8 -> TPU-v5e (family, without the slice size)."""
    family = slice_name.removeprefix("tpu-").rsplit("-", 1)[0]
    return "TPU-" + TPU_FAMILIES.get(family, family)


def tpu_price(value: float | None, notes: Notes) -> float | None:
    if value == TPU_PLACEHOLDER_PRICE:
        notes.add("gcp_tpu_placeholder_700_prices_dropped")
        return None
    return value


def accelerator_note(attach_to: str, kind: str) -> str:
    if kind == "tpu":
        return "TPU slice; price is per slice-hour, no host VM needed"
    if attach_to.startswith("n1-"):
        return "attaches to n1-* hosts; price is per GPU-hour, add the host VM"
    return (f"bundled in {attach_to.removesuffix(' only')}; the machine type price already "
            "includes it")


def build_gcp_accelerators(data_dir: Path, notes: Notes) -> tuple[dict, dict]:
    """GPUs keyed by GCE API name, priced per GPU-hour; TPU slices keyed by slice name,
    priced per slice-hour (count = chips)."""
    specs: dict[str, dict] = {}
    best: dict[tuple[str, str], tuple[float, list]] = {}
    for row in read_csv(data_dir, "gcp_accelerators.csv"):
        kind = row["accelerator_kind"]
        if kind == "tpu":
            key = row["accelerator_name"]
            spec = spec_record("tpu", tpu_model(key), float(row["tpu_chips"]), None, None, None,
                               accelerator_note(row["attach_to"], kind))
            od = tpu_price(fnum(row["price_ondemand_usd_hr"]), notes)
            spot = tpu_price(fnum(row["price_spot_usd_hr"]), notes)
            count = 1.0
        else:
            key = row["gcp_accelerator_type"]
            spec = spec_record("gpu", model_name(row["accelerator_name"]), 1.0,
                               gib(float(row["accelerator_memory_mib_reported"])), None, None,
                               accelerator_note(row["attach_to"], kind))
            od = fnum(row["price_ondemand_per_device_usd_hr"])
            spot = fnum(row["price_spot_per_device_usd_hr"])
            count = float(row["accelerator_count"])
        put_spec(specs, key, spec)
        # Per-device figures differ by 1e-5 between counts (rounding); the smallest
        # count is the least rounded, so take it.
        slot = (key, row["region"])
        if slot not in best or count < best[slot][0]:
            best[slot] = (count, [od, spot])
    prices: dict[str, dict[str, list]] = defaultdict(dict)
    for (key, region), (_, (od, spot)) in sorted(best.items()):
        pair = clean_pair(od, spot, notes, "gcp_accelerator_spot_above_ondemand_dropped")
        if pair == [None, None]:
            notes.add("gcp_accelerator_rows_without_any_price")
            continue
        prices[key][region] = pair
    return specs, dict(prices)


def build_gcp_hosts(data_dir: Path, notes: Notes) -> tuple[dict, dict]:
    specs: dict[str, dict] = {}
    prices: dict[str, dict[str, list]] = defaultdict(dict)
    for row in read_csv(data_dir, "gcp_n1_host_vms.csv"):
        name = row["instance_type"]
        put_spec(specs, name, {"vcpus": fnum(row["vcpus"]), "ram": fnum(row["memory_gib"])})
        prices[name][row["region"]] = clean_pair(
            fnum(row["price_ondemand_usd_hr"]), fnum(row["price_spot_usd_hr"]),
            notes, "gcp_host_spot_above_ondemand_dropped")
    return specs, dict(prices)


def build_gcp(data_dir: Path, notes: Notes) -> dict:
    instances, prices = build_gcp_bundled(data_dir, notes)
    accelerators, accelerator_prices = build_gcp_accelerators(data_dir, notes)
    hosts, host_prices = build_gcp_hosts(data_dir, notes)
    return {
        "instances": instances,
        "prices": prices,
        "accelerators": accelerators,
        "accelerator_prices": accelerator_prices,
        "hosts": hosts,
        "host_prices": host_prices,
    }


# --------------------------------------------------------------------------- Azure


def azure_model(row: dict[str, str]) -> str:
    # NC H100 v5 sizes carry H100 NVL (94 GB), a different part from the 80 GB SXM in ND H100 v5.
    if row["accelerator_name"] == "H100" and row["accelerator_memory_gib_per_device"] == "94":
        return "H100-NVL"
    return model_name(row["accelerator_name"])


def build_azure(data_dir: Path, notes: Notes) -> dict:
    specs: dict[str, dict] = {}
    prices: dict[str, dict[str, list]] = defaultdict(dict)
    for row in read_csv(data_dir, "azure.csv"):
        name = row["instance_type"]
        # NVadsA10 v5 already lists the full-GPU memory next to a fractional count,
        # which is the convention used for all providers here.
        put_spec(specs, name, spec_record(row["accelerator_kind"], azure_model(row),
                                          float(row["accelerator_count"]),
                                          fnum(row["accelerator_memory_gib_per_device"]),
                                          fnum(row["vcpus"]), fnum(row["memory_gib"]),
                                          row["notes"] or None))
        prices[name][row["region"]] = clean_pair(
            fnum(row["price_ondemand_usd_hr"]), fnum(row["price_spot_usd_hr"]),
            notes, "azure_spot_above_ondemand_dropped")
    return {"instances": specs, "prices": dict(prices)}


# --------------------------------------------------------------------------- assembly


def gpu_models(providers: dict) -> dict[str, float]:
    """GPU model -> GiB per device. Sources differ slightly (L4: 22.35 on AWS, 24 on GCP);
    the smallest figure is kept so memory-fit checks stay conservative."""
    out: dict[str, float] = {}
    for table in iter_specs(providers):
        for spec in table.values():
            if spec.get("kind") == "gpu" and spec["mem"] is not None:
                model = spec["model"]
                out[model] = min(out.get(model, spec["mem"]), spec["mem"])
    return out


def iter_specs(providers: dict) -> Iterable[dict[str, dict]]:
    for prov in providers.values():
        yield prov["instances"]
        if "accelerators" in prov:
            yield prov["accelerators"]


def count_rows(prices: dict[str, dict[str, list]]) -> int:
    return sum(len(regions) for regions in prices.values())


def check_floors(providers: dict) -> None:
    sizes = {
        "aws_instances": len(providers["aws"]["instances"]),
        "aws_prices": count_rows(providers["aws"]["prices"]),
        "gcp_instances": len(providers["gcp"]["instances"]),
        "gcp_prices": count_rows(providers["gcp"]["prices"]),
        "gcp_accelerators": len(providers["gcp"]["accelerators"]),
        "gcp_accelerator_prices": count_rows(providers["gcp"]["accelerator_prices"]),
        "gcp_hosts": len(providers["gcp"]["hosts"]),
        "gcp_host_prices": count_rows(providers["gcp"]["host_prices"]),
        "azure_instances": len(providers["azure"]["instances"]),
        "azure_prices": count_rows(providers["azure"]["prices"]),
    }
    low = {k: v for k, v in sizes.items() if v < OUTPUT_FLOORS[k]}
    if low:
        sys.exit(f"refusing to write: output below floor: {low} (floors {OUTPUT_FLOORS})")


def build(data_dir: Path) -> dict:
    notes = Notes()
    providers = {
        "aws": build_aws(data_dir, notes),
        "gcp": build_gcp(data_dir, notes),
        "azure": build_azure(data_dir, notes),
    }
    check_floors(providers)
    # Fixed date from the sources, not the build time, so rebuilding is byte-identical.
    snapshot_date = max(str(s["date"]) for s in SOURCES if s["date"])
    return {
        "schema_version": SCHEMA_VERSION,
        "currency": "USD",
        "snapshot_date": snapshot_date,
        "hours_per_month_default": HOURS_PER_MONTH,
        "default_regions": DEFAULT_REGIONS,
        "sources": SOURCES,
        "adjustments": dict(notes.counts),
        "gpu_models": gpu_models(providers),
        "providers": providers,
    }


def render(catalog: dict) -> bytes:
    return (json.dumps(catalog, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
            + "\n").encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR,
                        help="directory with the raw pricing CSVs (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="where to write the catalog (default: %(default)s)")
    args = parser.parse_args(argv)
    data = render(build(args.data_dir))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
