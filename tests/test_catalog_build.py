"""The catalog derivation from SkyPilot-format tables: shapes, cleaning and refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpulint.catalog_build.build import derive, from_directory
from gpulint.catalog_build.common import BuildError, Known, Notes
from gpulint.catalog_build.gcp import build_gcp, tpu_chips
from gpulint.catalog_build.tables import TableError, gpu_memory_mib, parse

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


def test_skypilot_shaped_gcp_tables_give_the_same_catalog() -> None:
    """SkyPilot's own GCP table lists machine types without their GPUs (the VM part of the
    price) and the GPUs in vms.csv with no InstanceType. The bundled tables rewritten in that
    shape give the same GCP prices, to the tables' five decimals."""
    import csv
    import io

    reference = from_directory(str(TABLES))
    accel_text = (TABLES / "gcp/accelerators.csv").read_text(encoding="utf-8")
    gpus = {(r["AcceleratorName"], float(r["AcceleratorCount"]), r["Region"]): r
            for r in csv.DictReader(io.StringIO(accel_text))}
    out = io.StringIO()
    reader = csv.DictReader(io.StringIO((TABLES / "gcp/vms.csv").read_text(encoding="utf-8")))
    writer = csv.DictWriter(out, reader.fieldnames or [], lineterminator="\n")
    writer.writeheader()
    for row in reader:
        if row["AcceleratorName"]:
            gpu = gpus[(row["AcceleratorName"], float(row["AcceleratorCount"]), row["Region"])]
            for col in ("Price", "SpotPrice"):
                if row[col]:
                    row[col] = f"{float(row[col]) - float(gpu[col]):.5f}"
            row.update(AcceleratorName="", AcceleratorCount="", GpuInfo="")
        writer.writerow(row)
    out.write(accel_text.split("\n", 1)[1])  # the GPU and TPU rows, in vms.csv
    tables = {n: (TABLES / n).read_text(encoding="utf-8")
              for n in ("aws/vms.csv", "azure/vms.csv")}
    tables |= {"gcp/vms.csv": out.getvalue(), "gcp/accelerators.csv": ""}
    rebuilt = derive(tables, [], "2026-11-24", Known.from_catalog(reference))
    assert "gcp_machine_rows_without_gpu_price" not in rebuilt["adjustments"]
    assert "a2-highgpu-1g,,,12.0,85.0,," in out.getvalue()  # really the SkyPilot shape
    want, got = reference["providers"]["gcp"], rebuilt["providers"]["gcp"]
    assert got["instances"] == want["instances"]
    assert got["accelerators"].keys() == want["accelerators"].keys()
    assert got["prices"].keys() == want["prices"].keys()
    for name, regions in want["prices"].items():
        assert regions.keys() == got["prices"][name].keys(), name
        for region, pair in regions.items():
            for a, b in zip(pair, got["prices"][name][region], strict=True):
                assert (a is None) == (b is None) and (a is None or abs(a - b) < 2e-5), \
                    (name, region, pair, got["prices"][name][region])
    assert got["accelerator_prices"] == want["accelerator_prices"]
    assert got["host_prices"] == want["host_prices"]
