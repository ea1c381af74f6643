"""The catalog derivation from SkyPilot-format tables: shapes, cleaning and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpulint.pricing.catalog_build import (
    BuildError,
    Known,
    Notes,
    derive,
    from_directory,
)
from gpulint.pricing.catalog_gcp import build_gcp, tpu_chips
from gpulint.pricing.catalog_tables import TableError, gpu_memory_mib, parse

TABLES = Path(__file__).resolve().parent / "data" / "catalog_tables"
HEADER = ("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,"
          "Region,AvailabilityZone\n")


def test_gcp_skypilot_shape_adds_the_gpus_to_the_vm_part() -> None:
    """SkyPilot's GCP table lists a2-highgpu-1g without GPUs (VM part only) and the A100 as a
    row of its own: the catalog price is VM + GPU in the same region, lowest over zones."""
    text = HEADER + (
        "a2-highgpu-1g,,,12.0,85.0,,0.73948,0.29576,us-central1,us-central1-a\n"
        + ",A100,1,,,A100,2.93889,1.1,us-central1,us-central1-a\n"
        + ",A100,1,,,A100,2.93889,1.0,us-central1,us-central1-b\n"
        + "n1-standard-8,,,8.0,30.0,,0.379998,0.08,us-central1,us-central1-a\n"
        + "e2-standard-8,,,8.0,32.0,,0.268,0.08,us-central1,us-central1-a\n")
    known = Known(model_memory={"A100": 40.0})
    notes = Notes()
    gcp = build_gcp(parse("gcp/vms.csv", text), known, notes)
    assert gcp["prices"]["a2-highgpu-1g"]["us-central1"] == [round(0.73948 + 2.93889, 5),
                                                            round(0.29576 + 1.0, 5)]
    spec = gcp["instances"]["a2-highgpu-1g"]
    assert (spec["model"], spec["count"], spec["mem"]) == ("A100", 1.0, 40.0)
    assert spec["note"] == "bundles nvidia-tesla-a100"
    assert gcp["accelerator_prices"]["nvidia-tesla-a100"]["us-central1"] == [2.93889, 1.0]
    assert set(gcp["hosts"]) == {"n1-standard-8"}  # other machine families are not kept


def test_tpu_slices_count_chips() -> None:
    # tpu-v4-8 names 8 TensorCores (4 chips); v5e and v6e slices are named by chips.
    assert tpu_chips("tpu-v4-8") == 4 and tpu_chips("tpu-v2-8") == 4
    assert tpu_chips("tpu-v6e-8") == 8 and tpu_chips("tpu-v5litepod-16") == 16


def test_gpu_info_memory() -> None:
    info = "{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 40960}}]}"
    assert gpu_memory_mib(info) == 40960
    assert gpu_memory_mib("A100") is None
    assert gpu_memory_mib("{'Gpus': []}") is None
    assert gpu_memory_mib("{'Gpus': [{'MemoryInfo': {'SizeInMiB': __import__('os')}}]}") is None


@pytest.mark.parametrize("text, message", [
    ("", "empty file"),
    ("<!DOCTYPE html><html><body>Rate limited</body></html>\n", "HTML"),
    ("InstanceType,Price,Region\np5.48xlarge,98.32,us-east-1\n",
     "missing column(s) AcceleratorName"),
    (HEADER + "p5.48xlarge,H100,8,192,2048,,98.32,,us-east-1,\np4d.24xl", "line 3"),
    (HEADER + "p5.48xlarge,H100,8,192,2048,,98.32,,us-east-1,", "truncated"),
    (HEADER + "p5.48xlarge,H100,8,192,2048,,ninety,,us-east-1,\n", "Price is not a number"),
    (HEADER + "p5.48xlarge,H100,8,192,2048,,-1,,us-east-1,\n", ">= 0"),
])
def test_bad_tables_are_refused_with_file_and_line(text: str, message: str) -> None:
    with pytest.raises(TableError, match=r"aws/vms\.csv") as info:
        parse("aws/vms.csv", text)
    assert message in str(info.value)


def test_columns_are_read_by_name_in_any_order() -> None:
    text = ("Region,Price,InstanceType,SpotPrice,Extra,AcceleratorCount,AcceleratorName,vCPUs,"
            "MemoryGiB,GpuInfo\nus-east-1,98.32,p5.48xlarge,,x,8,H100,192,2048,\n")
    (row,) = parse("aws/vms.csv", text)
    assert (row.name, row.accelerator, row.count, row.price, row.region) == (
        "p5.48xlarge", "H100", 8.0, 98.32, "us-east-1")


def test_tables_below_the_row_floors_are_refused() -> None:
    tables = {name: (TABLES / name).read_text(encoding="utf-8")
              for name in ("aws/vms.csv", "gcp/vms.csv", "gcp/accelerators.csv")}
    tables["azure/vms.csv"] = HEADER  # a column rename upstream would look like this
    with pytest.raises(BuildError, match="azure_instances 0 < 32"):
        derive(tables, [], "2026-11-24")


def test_memory_fill_is_counted() -> None:
    data = from_directory(str(TABLES))
    assert data["adjustments"]["aws_rows_memory_filled"] == 11
    assert data["providers"]["aws"]["instances"]["p6-b300.48xlarge"]["mem"] == 268.59
