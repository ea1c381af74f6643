"""Invariants over the committed GPU catalog, plus spot checks against the raw CSVs."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpulint.catalog_build.build import from_directory, render
from gpulint.pricing import catalog

REPO = Path(__file__).resolve().parent.parent
CATALOG_FILE = REPO / "src" / "gpulint" / "data" / "gpu_catalog.json"
RAW_DIR = REPO.parent / "shared" / "data" / "pricing"
TABLES = REPO / "tests" / "data" / "catalog_tables"
needs_raw = pytest.mark.skipif(not (RAW_DIR / "aws.csv").exists(),
                               reason=f"raw pricing snapshots not found in {RAW_DIR}")


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(CATALOG_FILE.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def bundled_catalog() -> Iterator[None]:
    catalog.use_catalog_file(None)
    yield
    catalog.use_catalog_file(None)


def price_tables(raw: dict) -> Iterator[tuple[str, str, str, list]]:
    for prov, body in raw["providers"].items():
        for table in ("prices", "accelerator_prices", "host_prices"):
            for name, by_region in body.get(table, {}).items():
                for region, pair in by_region.items():
                    yield f"{prov}/{table}", name, region, pair


def spec_tables(raw: dict) -> Iterator[tuple[str, str, dict]]:
    for prov, body in raw["providers"].items():
        for table in ("instances", "accelerators"):
            for name, rec in body.get(table, {}).items():
                yield prov, name, rec


# --------------------------------------------------------------------------- invariants


def test_every_price_positive(raw: dict) -> None:
    bad = [(t, n, r, p) for t, n, r, p in price_tables(raw)
           if any(v is not None and not v > 0 for v in p) or p == [None, None]]
    assert not bad


def test_spot_never_above_ondemand(raw: dict) -> None:
    bad = [(t, n, r, p) for t, n, r, p in price_tables(raw)
           if None not in p and p[1] > p[0]]
    assert not bad


def test_every_gpu_has_model_and_memory(raw: dict) -> None:
    for prov, name, rec in spec_tables(raw):
        assert rec["count"] > 0, (prov, name)
        assert rec["model"], (prov, name)
        if rec["kind"] == "gpu":
            assert rec["mem"] and rec["mem"] > 0, (prov, name)
            assert rec["model"] in raw["gpu_models"], (prov, name)


def test_every_priced_name_has_a_spec(raw: dict) -> None:
    for prov, body in raw["providers"].items():
        assert set(body["prices"]) <= set(body["instances"]), prov
    gcp = raw["providers"]["gcp"]
    assert set(gcp["accelerator_prices"]) <= set(gcp["accelerators"])
    assert set(gcp["host_prices"]) <= set(gcp["hosts"])


def test_aws_regions_are_regions_not_zones(raw: dict) -> None:
    region_re = re.compile(r"^[a-z]{2}(-gov)?-[a-z]+-\d+$")
    seen = {r for by_region in raw["providers"]["aws"]["prices"].values() for r in by_region}
    assert all(region_re.match(r) for r in seen), sorted(r for r in seen if not region_re.match(r))
    assert "us-gov-west-1" in seen  # GovCloud kept on purpose


def test_tpu_placeholder_prices_excluded(raw: dict) -> None:
    tpu = raw["providers"]["gcp"]["accelerator_prices"]
    assert not [(n, r) for n, by_region in tpu.items() if n.startswith("tpu-")
                for r, pair in by_region.items() if 700.0 in pair]
    assert catalog.gcp_accelerator_price("tpu-v6e-8", "asia-east1") is None
    assert catalog.gcp_accelerator_price("tpu-v6e-8", "us-central1") == catalog.Price(21.6, 4.11533)


def test_catalog_file_is_deterministic_text(raw: dict) -> None:
    text = CATALOG_FILE.read_bytes()
    assert text == (json.dumps(raw, sort_keys=True, separators=(",", ":")) + "\n").encode()


# --------------------------------------------------------------------------- spot checks


def test_aws_p4d_us_east_1() -> None:
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1") == catalog.Price(21.957642, 6.289)
    spec = catalog.instance("aws", "p4d.24xlarge")
    assert spec is not None
    assert (spec.gpu_model, spec.gpu_count, spec.gpu_memory_gib) == ("A100", 8.0, 40.0)


def test_aws_g5_xlarge_memory() -> None:
    spec = catalog.instance("aws", "g5.xlarge")
    assert spec is not None
    assert (spec.gpu_model, spec.gpu_count, spec.gpu_memory_gib) == ("A10G", 1.0, 22.35)
    assert catalog.instance("aws", "G5.XLARGE") is None  # AWS names are case-sensitive


def test_fractional_gpu_counts_are_floats() -> None:
    g6f = catalog.instance("aws", "g6f.large")
    assert g6f is not None
    assert g6f.gpu_count == 0.125 and g6f.gpu_memory_gib == 22.35
    assert g6f.total_gpu_memory_gib == 2.79  # what the source reports for the slice
    nv6 = catalog.instance("azure", "Standard_NV6ads_A10_v5")
    assert nv6 is not None and nv6.gpu_count == 0.167 and nv6.gpu_model == "A10"


def test_gcp_bundled_price_is_vm_plus_accelerator_once() -> None:
    # gcp.csv a2-highgpu-1g us-central1: VM part 0.73948 + accelerator part 2.93391.
    total = catalog.price("gcp", "a2-highgpu-1g", "us-central1")
    assert total is not None and total.ondemand == pytest.approx(0.73948 + 2.93391)
    per_gpu = catalog.gcp_accelerator_price("nvidia-tesla-a100", "us-central1")
    assert per_gpu is not None and per_gpu.ondemand == pytest.approx(2.93391)
    assert total.ondemand < 0.73948 + 2 * per_gpu.ondemand
    a100 = catalog.gcp_accelerator("nvidia-tesla-a100")
    assert a100 is not None and a100.note and "bundled" in a100.note


def test_gcp_n1_plus_t4() -> None:
    t4 = catalog.gcp_accelerator("nvidia-tesla-t4")
    assert t4 is not None
    assert (t4.accelerator_kind, t4.gpu_model, t4.gpu_memory_gib) == ("gpu", "T4", 16.0)
    assert t4.note and "n1" in t4.note
    host = catalog.gcp_host_price("n1-standard-8", "us-central1")
    gpu = catalog.gcp_accelerator_price("nvidia-tesla-t4", "us-central1")
    assert host == catalog.Price(0.38, 0.13954)
    assert gpu == catalog.Price(0.35, 0.1654)
    assert host.ondemand + 2 * gpu.ondemand == pytest.approx(1.08)


@pytest.mark.parametrize(
    ("api_name", "model", "mem"),
    [("nvidia-l4", "L4", 24.0), ("nvidia-a100-80gb", "A100-80GB", 80.0),
     ("nvidia-h100-mega-80gb", "H100", 80.0), ("NVIDIA-TESLA-V100", "V100", 16.0),
     ("nvidia-tesla-p4", "P4", 8.0)],
)
def test_gcp_accelerator_names(api_name: str, model: str, mem: float) -> None:
    spec = catalog.gcp_accelerator(api_name)
    assert spec is not None and (spec.gpu_model, spec.gpu_memory_gib) == (model, mem)


def test_gcp_tpu_slice_lookup() -> None:
    for name in ("tpu-v5litepod-8", "v5litepod-8"):
        spec = catalog.gcp_accelerator(name)
        assert spec is not None
        assert (spec.accelerator_kind, spec.gpu_model, spec.gpu_count) == ("tpu", "TPU-v5e", 8.0)


def test_azure_sizes_case_insensitive_and_h100_nvl() -> None:
    spec = catalog.instance("azure", "standard_nc40ads_h100_v5")
    assert spec is not None and spec.name == "Standard_NC40ads_H100_v5"
    assert (spec.gpu_model, spec.gpu_memory_gib) == ("H100-NVL", 94.0)
    assert catalog.price("azure", "STANDARD_NC40ADS_H100_V5", "East US") == \
        catalog.price("azure", "Standard_NC40ads_H100_v5", "eastus")
    nd = catalog.instance("azure", "Standard_ND96isr_H100_v5")
    assert nd is not None and (nd.gpu_model, nd.gpu_memory_gib) == ("H100", 80.0)


def test_non_gpu_accelerators_keep_their_kind() -> None:
    kinds = {s.accelerator_kind for s in catalog.instances("aws")}
    assert {"gpu", "inferentia", "trainium", "gaudi"} <= kinds
    assert "qualcomm_ai100" not in kinds
    assert "Inferentia2" not in catalog.gpu_models()


def test_gpu_model_vocabulary() -> None:
    models = catalog.gpu_models()
    for name, gib in {"A100": 40.0, "A100-80GB": 80.0, "H100": 80.0, "H200": 141.0,
                      "L40S": 44.7, "A10G": 22.35, "A10": 24.0, "T4": 16.0, "V100-32GB": 32.0,
                      "MI300X": 192.0, "L4": 22.35}.items():
        assert models[name] == gib, name


def test_counts_are_sane() -> None:
    assert len(catalog.instances("aws")) >= 75
    assert len(catalog.instances("gcp")) >= 24
    assert len(catalog.instances("azure")) >= 32
    assert len(catalog.regions("aws", "g4dn.xlarge")) >= 20


# --------------------------------------------------------------------------- API behaviour


def test_unknowns_are_none_not_zero() -> None:
    assert catalog.instance("aws", "x9.huge") is None
    assert catalog.instance("nocloud", "p4d.24xlarge") is None
    assert catalog.price("aws", "x9.huge", "us-east-1") is None
    assert catalog.price("aws", "p4d.24xlarge", "mars-north-1") is None
    assert catalog.regions("gcp", "a9-nonsense") == []
    assert catalog.gcp_accelerator("nvidia-quantum-9000") is None
    assert catalog.gcp_accelerator_price("nvidia-tesla-t4", "mars-north-1") is None
    assert catalog.gcp_host_price("n1-standard-8", "mars-north-1") is None
    assert catalog.cheapest_per_gpu_hour("NoSuchGPU") is None


def test_price_without_ondemand_is_not_zero() -> None:
    p5e = catalog.price("aws", "p5e.48xlarge", "us-west-2")
    assert p5e is not None and p5e.ondemand is None and p5e.spot is not None


def test_default_regions_and_metadata() -> None:
    assert [catalog.default_region(p) for p in ("aws", "gcp", "azure")] == \
        ["us-east-1", "us-central1", "eastus"]
    with pytest.raises(ValueError):
        catalog.default_region("oracle")
    meta = catalog.metadata()
    assert meta["snapshot_date"] == "2026-05-20"
    assert meta["currency"] == "USD" and meta["schema_version"] == 1
    assert meta["hours_per_month_default"] == 730
    for src in meta["sources"]:
        assert re.fullmatch(r"[0-9a-f]{40}", src["commit"]) and src["repo"] and src["license"]


def test_cheapest_per_gpu_hour() -> None:
    best = catalog.cheapest_per_gpu_hour("H100")
    assert best is not None
    usd, prov, name, region = best
    spec = catalog.instance(prov, name)
    assert spec is not None and spec.gpu_model == "H100" and spec.gpu_count >= 1
    listed = catalog.price(prov, name, region)
    assert listed is not None and listed.ondemand is not None
    assert usd == pytest.approx(listed.ondemand / spec.gpu_count)
    aws_l4 = catalog.cheapest_per_gpu_hour("L4", "aws")
    assert aws_l4 is not None and not aws_l4[2].startswith(("g6f", "gr6f"))  # no slices
    for prov in ("aws", "gcp", "azure"):
        for spec in catalog.instances(prov):
            for region in catalog.regions(prov, spec.name):
                listed = catalog.price(prov, spec.name, region)
                if spec.gpu_model == "H100" and spec.gpu_count >= 1 and listed and listed.ondemand:
                    assert listed.ondemand / spec.gpu_count >= usd - 1e-6


def test_load_catalog_from_file(tmp_path: Path, raw: dict) -> None:
    newer = json.loads(json.dumps(raw))
    newer["snapshot_date"] = "2099-01-01"
    newer["providers"]["aws"]["prices"]["p4d.24xlarge"]["us-east-1"] = [1.5, None]
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(newer), encoding="utf-8")

    assert catalog.load(str(path)).data["snapshot_date"] == "2099-01-01"
    assert catalog.metadata()["snapshot_date"] == "2026-05-20"  # load() alone switches nothing
    catalog.use_catalog_file(str(path))
    assert catalog.metadata()["snapshot_date"] == "2099-01-01"
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1") == catalog.Price(1.5, None)
    catalog.use_catalog_file(None)
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1") == catalog.Price(21.957642, 6.289)


def test_bad_catalog_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"schema_version": 99, "providers": {}}), encoding="utf-8")
    with pytest.raises(ValueError):
        catalog.use_catalog_file(str(path))
    assert catalog.metadata()["snapshot_date"] == "2026-05-20"


# --------------------------------------------------------------------------- against the tables


def test_bundled_catalog_is_rebuilt_from_the_checked_in_tables(tmp_path: Path) -> None:
    """The same code that `catalog update` runs rebuilds the shipped file byte for byte."""
    assert render(from_directory(str(TABLES))) == CATALOG_FILE.read_bytes()


def test_build_script_writes_the_same_bytes(tmp_path: Path) -> None:
    out = tmp_path / "gpu_catalog.json"
    script = REPO / "scripts" / "build_catalog.py"
    spec = importlib.util.spec_from_file_location("build_catalog", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--tables", str(TABLES), "--out", str(out)]) == 0
    assert out.read_bytes() == CATALOG_FILE.read_bytes()
    assert module.main(["--tables", str(tmp_path / "missing"), "--out", str(out)]) == 1


def _table(name: str) -> list[dict[str, str]]:
    with open(TABLES / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _dropped(raw: dict, provider: str) -> set[tuple[str, str]]:
    """(type, region) rows the consistency check dropped or replaced by an estimate, per its
    adjustment record."""
    return {(e["name"], e["region"]) for e in raw["adjustment_rows"]
            if e["provider"] == provider and e["action"] in ("dropped", "replaced")}


def test_gcp_bundled_prices_match_the_table(raw: dict) -> None:
    rows = [r for r in _table("gcp/vms.csv") if r["AcceleratorName"]]
    assert len(rows) > 300
    dropped = _dropped(raw, "gcp")
    for row in rows:
        got = catalog.price("gcp", row["InstanceType"], row["Region"])
        if (row["InstanceType"], row["Region"]) in dropped:
            assert got is None or got.ondemand != float(row["Price"])
            continue
        assert got is not None and got.ondemand == float(row["Price"]), row["InstanceType"]


def test_aws_prices_match_the_table() -> None:
    checked = 0
    for row in _table("aws/vms.csv"):
        got = catalog.price("aws", row["InstanceType"], row["Region"])
        if got is None or not row["Price"]:
            continue
        assert got.ondemand == float(row["Price"])
        checked += 1
    assert checked > 900


@needs_raw
def test_tables_carry_the_raw_snapshot_over(tmp_path: Path) -> None:
    """The checked-in tables are the raw snapshots rewritten, cell for cell."""
    script = REPO / "scripts" / "snapshot_to_tables.py"
    import subprocess
    import sys

    subprocess.run([sys.executable, str(script), "--data-dir", str(RAW_DIR), "--out",
                    str(tmp_path)], check=True, capture_output=True)
    for name in ("aws/vms.csv", "gcp/vms.csv", "gcp/accelerators.csv", "azure/vms.csv"):
        assert (tmp_path / name).read_bytes() == (TABLES / name).read_bytes(), name
