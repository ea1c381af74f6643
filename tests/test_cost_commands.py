"""`gpulint catalog`, `gpulint cost`, and the pricing flags of `gpulint scan`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from gpulint import units
from gpulint.cli import cli
from gpulint.pricing import catalog
from gpulint.pricing.catalog_report import provider_dates
from gpulint.pricing.catalog_sources import provider_label

HERE = os.path.join(os.path.dirname(__file__), "cost")


@pytest.fixture(autouse=True)
def bundled_catalog() -> Iterator[None]:
    yield
    catalog.use_catalog_file(None)  # --catalog switches the process-wide catalog


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_catalog_instance_type_text_shows_default_region_cheapest_and_source() -> None:
    code, out = _run("catalog", "p4d.24xlarge")
    assert code == 0
    row = catalog.price("aws", "p4d.24xlarge", "us-east-1")
    assert row and row.ondemand
    assert "aws p4d.24xlarge  [instance type] 8× A100 (40 GiB each), 96 vCPU" in out
    assert f"us-east-1                on-demand {units.usd_rate(row.ondemand)}/h" in out
    # AWS rows are dated by the AWS sources, not by the newest (GCP/Azure) one.
    aws = provider_dates()["aws"]
    assert aws != catalog.metadata()["snapshot_date"]
    assert f": prices of aws {aws}; source skypilot-org" in out


def test_catalog_spot_only_type_shows_its_cheapest_spot_region() -> None:
    # p5e.48xlarge has spot prices but no on-demand price in any region of the snapshot:
    # the short listing must still show a price, and say why it is a spot one.
    code, out = _run("catalog", "p5e.48xlarge")
    assert code == 0
    table = catalog.price_table("aws", "p5e.48xlarge")
    spot = {region: p.spot for region, p in table.items() if p.spot}
    assert spot and not any(p.ondemand for p in table.values())
    region = min(spot, key=lambda r: spot[r])
    assert "cheapest spot (no on-demand price in any region) shown" in out
    assert f"{region:<24} on-demand —  spot {units.usd_rate(spot[region])}/h" in out


def test_catalog_gpu_model_one_provider_json() -> None:
    code, out = _run("catalog", "A100-80GB", "--provider", "gcp", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["matched_by"] == "gpu model" and data["catalog"]["date"]
    names = {m["name"] for m in data["matches"]}
    assert "a2-ultragpu-8g" in names and "nvidia-a100-80gb" in names
    assert {m["provider"] for m in data["matches"]} == {"gcp"}
    a2 = next(m for m in data["matches"] if m["name"] == "a2-ultragpu-1g")
    table = catalog.price_table("gcp", "a2-ultragpu-1g")
    assert [p["region"] for p in a2["prices"]] == list(table)


def test_catalog_region_filter_and_accelerator_unit() -> None:
    code, out = _run("catalog", "nvidia-tesla-t4", "--region", "us-east1")
    assert code == 0
    gpu = catalog.gcp_accelerator_price("nvidia-tesla-t4", "us-east1")
    assert gpu and gpu.ondemand
    assert f"us-east1                 on-demand {units.usd_rate(gpu.ondemand)}/GPU-h" in out
    code, out = _run("catalog", "H100", "--region", "us-east-1")
    assert "have no price in us-east-1: azure Standard_ND96isr_H100_v5" in out
    assert "p5.48xlarge" in out


def test_catalog_azure_case_and_unknown_query() -> None:
    assert "azure Standard_NC24ads_A100_v4" in _run("catalog", "standard_nc24ads_a100_v4")[1]
    code, out = _run("catalog", "p4d.24xlarg")
    assert code == 0 and "p4d.24xlarge" in out  # a prefix
    code, out = _run("catalog", "zz-nothing")
    assert code == 1 and "nothing in the catalog matches 'zz-nothing'" in out


def test_cost_breakdown_json_totals_by_provider_and_team() -> None:
    code, out = _run("cost", os.path.join(HERE, "aws"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    rows = {r["address"]: r for r in data["resources"]}
    ondemand = rows["aws_instance.ondemand"]
    assert ondemand["group"] == "search" and ondemand["hours"] == 730
    assert ondemand["monthly_usd"] == round(ondemand["hourly_usd"] * 730, 2)
    assert rows["aws_eks_node_group.fixed"]["group"] == "(untagged)"
    t = data["totals"]
    assert t["by_provider"] == {"aws": t["monthly_usd"]}
    assert t["by_group"]["search"] == round(
        rows["aws_instance.ondemand"]["monthly_usd"] + rows["aws_instance.spot"]["monthly_usd"], 2)
    assert round(sum(t["by_group"].values()), 2) == t["monthly_usd"]
    assert data["catalog"]["date"] == catalog.metadata()["snapshot_date"]


def test_cost_text_and_markdown_and_group_by() -> None:
    code, out = _run("cost", HERE, "--var", "location=westeurope")
    assert code == 0
    assert "aws_eks_node_group.spot_pool" in out and "(autoscaling 2–6 nodes" in out
    assert "Tag team" in out and "Total: $" in out and "Prices: list prices of aws " in out
    code, md = _run("cost", os.path.join(HERE, "k8s.yaml"), "--format", "markdown",
                    "--group-by", "app")
    assert code == 0
    # No resource carries an `app` label: said on standard error (output mixes both here).
    assert md.startswith("gpulint: no GPU resource has the tag 'app'")
    assert "\n## GPU cost\n" in md and "| Deployment/serve |" in md
    assert "### By tag `app`" in md and "| (untagged) |" in md


def test_cost_unpriced_resource_says_why() -> None:
    _code, out = _run("cost", os.path.join(HERE, "azure"))
    assert "not priced: region unknown: variable location has no default" in out
    assert "(1 not priced)" in out


def test_scan_pricing_flags_overrides_hours_and_catalog(tmp_path: object) -> None:
    tmp = str(tmp_path)
    prices = os.path.join(tmp, "prices.yaml")
    with open(prices, "w") as fh:
        fh.write("overrides:\n  - provider: aws\n    instance_type: g5.xlarge\n"
                 "    hourly_usd: 0.5\n")
    code, out = _run("scan", os.path.join(HERE, "aws"), "--format", "json", "--fail-on", "never",
                     "--pricing-overrides", prices)
    assert code == 0
    report = json.loads(out)
    assert report["catalog"]["pricing_overrides"] == prices
    res = {r["address"]: r for r in report["resources"]}
    assert res["aws_instance.ondemand"]["monthly_cost_usd"] == 365.0
    assert f"[override {prices}:2 (aws g5.xlarge on-demand $0.5/h)" in \
        res["aws_instance.ondemand"]["price_basis"]
    assert "override" not in res["aws_instance.spot"]["price_basis"]  # on-demand rule only

    # a newer snapshot from a file: same data, one price changed, a new date
    bundled = os.path.join(os.path.dirname(catalog.__file__), os.pardir, "data",
                           "gpu_catalog.json")
    with open(bundled) as fh:
        data = json.load(fh)
    data["snapshot_date"] = "2027-01-01"
    data["providers"]["aws"]["prices"]["g5.xlarge"]["us-west-2"] = [2.0, 1.0]
    snap = os.path.join(tmp, "snap.json")
    with open(snap, "w") as fh:
        json.dump(data, fh)
    code, out = _run("scan", os.path.join(HERE, "aws"), "--format", "json", "--fail-on", "never",
                     "--catalog", snap, "--hours-for", "unknown=100")
    report = json.loads(out)
    assert report["catalog"]["date"] == "2027-01-01"
    assert report["catalog"]["origin"] == os.path.realpath(snap)
    res = {r["address"]: r for r in report["resources"]}
    assert res["aws_instance.ondemand"]["monthly_cost_usd"] == 200.0  # $2/h × 100 h
    assert res["aws_instance.ondemand"]["price_basis"].endswith(
        "aws prices: " + provider_label(data["sources"], "aws"))  # the file's own sources
    assert "× 100 h (hours for workload unknown)" in res["aws_instance.ondemand"]["price_basis"]


@pytest.mark.parametrize("args,message", [
    (["--hours-for", "notebook"], "--hours-for expects WORKLOAD=HOURS"),
    (["--hours-for", "notebook=lots"], "hours must be a number"),
    (["--default-region", "aws"], "--default-region expects PROVIDER=REGION"),
    (["--default-region", "ibm=x"], "unknown provider 'ibm'"),
    (["--hours-for", "notebooks=100"],
     "unknown workload 'notebooks' (did you mean 'notebook'?); expected one of batch"),
    (["--catalog", "/nonexistent/catalog.json"], "--catalog /nonexistent/catalog.json"),
    (["--pricing-overrides", "/nonexistent/p.yaml"], "cannot read pricing overrides"),
])
def test_bad_pricing_flags_are_usage_errors(args: list[str], message: str) -> None:
    code, out = _run("cost", os.path.join(HERE, "aws"), *args)
    assert code == 2 and message in out


def test_default_region_flag() -> None:
    _code, out = _run("cost", os.path.join(HERE, "azure"), "--default-region", "azure=westus2",
                     "--format", "json")
    rows = {r["address"]: r for r in json.loads(out)["resources"]}
    pool = rows["azurerm_kubernetes_cluster_node_pool.autoscale"]
    assert pool["region"] == "westus2"
    assert "westus2 (configured default region)" in pool["basis"]


def test_cost_totals_kubernetes_workloads_under_their_cloud() -> None:
    """A Karpenter pod on g5 nodes is an AWS cost, a GKE pod a GCP one: never "kubernetes"."""
    code, out = _run("cost", os.path.join(HERE, "k8s.yaml"), "--format", "json")
    assert code == 0
    data = json.loads(out)
    rows = {r["address"]: r for r in data["resources"]}
    serve, gke = rows["Deployment/serve"], rows["Job/gke-spot"]
    assert (serve["provider"], serve["cloud"], gke["cloud"]) == ("kubernetes", "aws", "gcp")
    by_cloud = data["totals"]["by_provider"]
    assert by_cloud == {"aws": serve["monthly_usd"], "gcp": gke["monthly_usd"]}
    code, text = _run("cost", os.path.join(HERE, "k8s.yaml"))
    assert code == 0 and "kubernetes  " not in text.split("Provider", 1)[1]
