"""A pod that names only a GPU model is priced in its own cloud and region, as its share of the
cheapest node shape there with at least as many GPUs of that model (issue: priced the way the
bill will be). Every figure is recomputed here from its catalog row; the rows were chosen by
hand from the catalog's shapes of that GPU."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.config.cost import CostOptions
from gpulint.config.settings import Settings
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes", "pricing")
REGIONS = {"gcp": "europe-west4", "aws": "us-west-2", "azure": "westeurope"}


def _scan(**options: object) -> dict[str, Resource]:
    result = scan.run([HERE], [], Settings(pricing=CostOptions(**options)))  # type: ignore[arg-type]
    return {r.address: r for r in result.resources}


@pytest.fixture(scope="module")
def default() -> dict[str, Resource]:
    return _scan()


@pytest.fixture(scope="module")
def configured() -> dict[str, Resource]:
    return _scan(default_regions=REGIONS)


def _row(provider: str, itype: str, region: str) -> float:
    p = catalog.price(provider, itype, region)
    assert p is not None and p.ondemand is not None, (provider, itype, region)
    return p.ondemand


# (address, cloud, the node shape, GPUs of the pod, GPUs of the shape)
CASES = [
    ("Deployment/serving/l4-server", "gcp", "g2-standard-4", 1, 1),
    ("Job/training/finetune-4xl4", "gcp", "g2-standard-48", 4, 4),  # not 4 × g2-standard-4
    ("Job/training/pretrain-8xl4", "gcp", "g2-standard-96", 8, 8),
    ("Job/ml/a100-8x", "aws", "p4d.24xlarge", 8, 8),
    ("Deployment/ml/l4-2x", "aws", "g6.12xlarge", 2, 4),  # no 2-GPU L4 type on AWS
    ("Deployment/docs/t4-ocr", "azure", "Standard_NC4as_T4_v3", 1, 1),
]


@pytest.mark.parametrize(("address", "cloud", "shape", "gpus", "node_gpus"), CASES)
@pytest.mark.parametrize("configured_region", [False, True])
def test_model_only_pod_is_priced_on_its_clouds_node_shape(
        default: dict[str, Resource], configured: dict[str, Resource], configured_region: bool,
        address: str, cloud: str, shape: str, gpus: int, node_gpus: int) -> None:
    res = (configured if configured_region else default)[address]
    region = REGIONS[cloud] if configured_region else catalog.default_region(cloud)
    hourly = _row(cloud, shape, region) * gpus / node_gpus
    assert res.facts["cost.monthly"] == round(hourly * 730, 2)
    assert (res.facts["cost.cloud"], res.facts["cost.region"]) == (cloud, region)
    how = "configured default region" if configured_region else "default region"
    assert res.facts["cost.basis"].startswith(
        f"{gpus}/{node_gpus} GPUs of {cloud} {shape} {region} (the cheapest {cloud} node "
        f"with ≥ {gpus} ")
    assert f"; {how}) on-demand" in res.facts["cost.basis"]


def test_gcp_attached_gpus_are_an_n1_host_plus_the_gpus(default: dict[str, Resource]) -> None:
    res = default["Deployment/serving/t4-embedder"]
    host = catalog.gcp_host_price("n1-standard-1", "us-central1")
    gpu = catalog.gcp_accelerator_price("nvidia-tesla-t4", "us-central1")
    assert host and gpu and host.ondemand and gpu.ondemand
    hourly = host.ondemand + 2 * gpu.ondemand
    assert res.facts["cost.monthly"] == pytest.approx(hourly * 730, abs=0.01)
    assert "gcp n1-standard-1 + 2× nvidia-tesla-t4 us-central1" in res.facts["cost.basis"]


def test_unknown_cloud_is_not_priced_and_says_what_fixes_it(
        default: dict[str, Resource]) -> None:
    res = default["Deployment/gfd-l4"]
    monthly = res.facts["cost.monthly"]
    assert isinstance(monthly, Unknown) and "cloud unknown" in monthly.reason
    assert "`clusters:`" in monthly.reason
    # The cheapest L4 anywhere would have been a price; there is none.
    assert not isinstance(res.facts.get("cost.hourly"), float)


def test_json_carries_cloud_and_region_of_a_pod(default: dict[str, Resource]) -> None:
    from gpulint.report.build import _resource
    row = _resource(default["Job/training/finetune-4xl4"])
    assert (row["cloud"], row["region"]) == ("gcp", "us-central1")
    unknown = _resource(default["Deployment/gfd-l4"])
    assert (unknown["cloud"], unknown["region"]) == (None, None)
