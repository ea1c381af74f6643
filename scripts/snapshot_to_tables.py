#!/usr/bin/env python3
"""Rewrite the curated raw pricing snapshots as SkyPilot-format price tables.

The bundled catalog was first derived from curated CSVs (one row per type and region, with
columns of their own). `gpulint catalog update` reads the SkyPilot catalog format instead, and
the bundled catalog is now rebuilt by the same code from tables in that format. This script
made those tables (tests/data/catalog_tables/) once, from the snapshots in
shared/data/pricing: facts carried over cell by cell, nothing added. GPU memory lands in
GpuInfo as SizeInMiB, as in the SkyPilot files.

Usage: python scripts/snapshot_to_tables.py [--data-dir DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ["InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB",
           "GpuInfo", "Price", "SpotPrice", "Region", "AvailabilityZone"]


def gpu_info(name: str, mib: str | None) -> str:
    if not mib:
        return ""
    return f"{{'Gpus': [{{'Name': '{name}', 'MemoryInfo': {{'SizeInMiB': {round(float(mib))}}}}}]}}"


def read(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def first_zone(zones: str) -> str:
    return zones.split(";")[0] if zones else ""


def aws(data: Path) -> list[dict[str, str]]:
    out = []
    for r in read(data / "aws.csv"):
        mib = r["accelerator_memory_mib_reported"]
        if not mib and r["accelerator_memory_gib_per_device"]:
            mib = str(float(r["accelerator_memory_gib_per_device"]) * 1024)
        out.append({"InstanceType": r["instance_type"], "AcceleratorName": r["accelerator_name"],
                    "AcceleratorCount": r["accelerator_count"], "vCPUs": r["vcpus"],
                    "MemoryGiB": r["memory_gib"], "GpuInfo": gpu_info(r["accelerator_name"], mib),
                    "Price": r["price_ondemand_usd_hr"], "SpotPrice": r["price_spot_usd_hr"],
                    "Region": r["region"], "AvailabilityZone": ""})
    return out


def gcp(data: Path) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    vms = []
    for r in read(data / "gcp.csv"):
        mib = r["accelerator_memory_mib_reported"] or str(
            float(r["accelerator_memory_gib_per_device"]) * 1024)
        vms.append({"InstanceType": r["instance_type"], "AcceleratorName": r["accelerator_name"],
                    "AcceleratorCount": r["accelerator_count"], "vCPUs": r["vcpus"],
                    "MemoryGiB": r["memory_gib"], "GpuInfo": gpu_info(r["accelerator_name"], mib),
                    "Price": r["price_ondemand_usd_hr"], "SpotPrice": r["price_spot_usd_hr"],
                    "Region": r["region"], "AvailabilityZone": first_zone(r["zones"])})
    for r in read(data / "gcp_n1_host_vms.csv"):
        vms.append({"InstanceType": r["instance_type"], "AcceleratorName": "",
                    "AcceleratorCount": "", "vCPUs": r["vcpus"], "MemoryGiB": r["memory_gib"],
                    "GpuInfo": "", "Price": r["price_ondemand_usd_hr"],
                    "SpotPrice": r["price_spot_usd_hr"], "Region": r["region"],
                    "AvailabilityZone": first_zone(r["zones"])})
    accelerators = []
    for r in read(data / "gcp_accelerators.csv"):
        tpu = r["accelerator_kind"] == "tpu"
        accelerators.append({
            "InstanceType": "", "AcceleratorName": r["accelerator_name"],
            "AcceleratorCount": r["accelerator_count"], "vCPUs": "", "MemoryGiB": "",
            "GpuInfo": "" if tpu else gpu_info(r["accelerator_name"],
                                               r["accelerator_memory_mib_reported"]),
            "Price": r["price_ondemand_usd_hr"], "SpotPrice": r["price_spot_usd_hr"],
            "Region": r["region"], "AvailabilityZone": first_zone(r["zones"])})
    return vms, accelerators


def azure(data: Path) -> list[dict[str, str]]:
    out = []
    for r in read(data / "azure.csv"):
        gib = r["accelerator_memory_gib_per_device"]
        out.append({"InstanceType": r["instance_type"], "AcceleratorName": r["accelerator_name"],
                    "AcceleratorCount": r["accelerator_count"], "vCPUs": r["vcpus"],
                    "MemoryGiB": r["memory_gib"],
                    "GpuInfo": gpu_info(r["accelerator_name"], str(float(gib) * 1024) if gib else ""),
                    "Price": r["price_ondemand_usd_hr"], "SpotPrice": r["price_spot_usd_hr"],
                    "Region": r["region"], "AvailabilityZone": ""})
    return out


def write(path: Path, rows: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path,
                        default=REPO_ROOT.parent / "shared" / "data" / "pricing")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "tests" / "data" / "catalog_tables")
    args = parser.parse_args()
    write(args.out / "aws" / "vms.csv", aws(args.data_dir))
    vms, accelerators = gcp(args.data_dir)
    write(args.out / "gcp" / "vms.csv", vms)
    write(args.out / "gcp" / "accelerators.csv", accelerators)
    write(args.out / "azure" / "vms.csv", azure(args.data_dir))
    print(f"wrote SkyPilot-format tables to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
