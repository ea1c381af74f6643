"""Every price basis names its provider's price source and that source's date; report footers
give the date per provider; `gpulint catalog info` lists sources, dates, rows and the
consistency check's changes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.pricing import catalog
from gpulint.pricing.catalog_sources import provider_dates, provider_label

COST = os.path.join(os.path.dirname(__file__), "cost")


@pytest.fixture(autouse=True)
def bundled() -> Iterator[None]:
    catalog.use_catalog_file(None)
    yield
    catalog.use_catalog_file(None)


def _sources() -> list[dict]:
    return list(catalog.metadata()["sources"])


def test_each_provider_names_its_sources_and_their_dates() -> None:
    by_name = {s["name"]: s for s in _sources()}
    any_ = by_name["anycloud-sh/catalog"]
    assert provider_label(_sources(), "gcp") == f"anycloud-sh/catalog {any_['date']}"
    vantage = by_name["vantage instances data (tsaol/aws-gpu)"]
    assert provider_label(_sources(), "aws") == (
        f"skypilot-catalog v8 undated + vantage instances data (tsaol/aws-gpu) {vantage['date']}")
    # The further clouds' sources: SkyPilot's undated OCI and Nebius tables, Lambda's from
    # anycloud-sh/catalog's 2026-05-20 update, and CoreWeave's resource-based pricing page as
    # of its 2023-05-24 commit.
    assert provider_dates(_sources()) == {"aws": f"{vantage['date']} (part undated)",
                                          "azure": any_["date"], "gcp": any_["date"],
                                          "oci": "undated", "lambda": any_["date"],
                                          "nebius": "undated", "coreweave": "2023-05-24"}


def test_downloaded_tables_date_their_provider() -> None:
    tables = [{"name": "aws/vms.csv", "date": "2026-11-20"},
              {"name": "gcp/vms.csv", "date": "2026-11-23"},
              {"name": "gcp/accelerators.csv", "date": "2026-11-23"}]
    assert provider_dates(tables) == {"aws": "2026-11-20", "gcp": "2026-11-23"}
    assert provider_label(tables, "azure") == ""


@pytest.mark.parametrize("cloud", ["aws", "gcp", "azure"])
def test_every_price_basis_names_its_source_and_date(cloud: str) -> None:
    result = scan.run([os.path.join(COST, cloud)], [])
    priced = [r for r in result.resources if isinstance(r.facts.get("cost.monthly"), float)]
    assert priced
    want = f"; {cloud} prices: {provider_label(_sources(), cloud)}"
    for res in priced:
        assert res.facts["cost.basis"].endswith(want), res.facts["cost.basis"]


def test_a_pods_basis_names_the_cloud_it_is_priced_on() -> None:
    result = scan.run([os.path.join(COST, "k8s.yaml")], [])
    gke = next(r for r in result.resources if r.address == "Job/gke-spot")
    assert gke.facts["cost.basis"].endswith(f"; gcp prices: {provider_label(_sources(), 'gcp')}")


def test_footers_give_the_date_per_provider() -> None:
    out = CliRunner().invoke(cli, ["scan", os.path.join(COST, "gcp"), "--format", "json"]).output
    report = json.loads(out)
    dates = provider_dates(_sources())
    # A report names the big three's dates, and a further cloud's only when it prices one.
    assert report["catalog"]["dates"] == {c: dates[c] for c in ("aws", "azure", "gcp")}
    text = CliRunner().invoke(cli, ["scan", os.path.join(COST, "gcp")]).output
    assert f"Prices: gcp {dates['gcp']} (stale" in text  # only the clouds it priced
    verbose = CliRunner().invoke(cli, ["scan", "-v", os.path.join(COST, "gcp")]).output
    assert f"Prices: list prices of gcp {dates['gcp']} (catalog " in verbose
    assert "aws " not in text.split("Prices:", 1)[1]
    md = CliRunner().invoke(cli, ["scan", COST, "--format", "markdown"]).output
    assert f"list prices of aws {dates['aws']}, azure {dates['azure']}, gcp {dates['gcp']}" \
        in md.replace("\\", "")


def test_catalog_info_lists_sources_dates_rows_and_adjustments() -> None:
    out = CliRunner().invoke(cli, ["catalog", "info", "--format", "json"]).output
    info = json.loads(out)
    assert info["dates"] == provider_dates(_sources())
    anycloud = next(s for s in info["sources"] if s["date"] == "2026-05-20")
    assert anycloud["source"] == "anycloud-sh/catalog@62ff0a9 (2026-05-20)"
    assert anycloud["providers"] == ["gcp", "azure"]
    # Each source's own age: the AWS one (2026-01-21) is 119 days older than anycloud's.
    aws = next(s for s in info["sources"] if s["date"] == "2026-01-21")
    assert aws["age_days"] - anycloud["age_days"] == 119
    rows = catalog.load().data["adjustment_rows"]
    assert sum(info["adjustments"].values()) == len(rows)
    text = CliRunner().invoke(cli, ["catalog", "info"]).output
    assert f"  gcp, prices of {info['dates']['gcp']}: " in text
    assert f"Consistency check: {info['adjustments']['replaced']} replaced" in text


def test_lookups_and_explain_model_date_each_cloud_by_its_own_source() -> None:
    aws = provider_dates(_sources())["aws"]
    out = CliRunner().invoke(cli, ["catalog", "p4d.24xlarge"]).output
    assert f"prices of aws {aws};" in out and "2026-05-20;" not in out.split("source")[0]
    out = CliRunner().invoke(cli, ["explain-model", "meta-llama/Llama-3.1-8B",
                                   "--provider", "aws"]).output
    assert out.rstrip().endswith(f"Prices: list prices of aws {aws}, USD.")
