"""eksctl ClusterConfig node groups: GPU groups are priced per node and pods link to them."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes", "eksctl")


@pytest.fixture(scope="module")
def got() -> dict[str, Resource]:
    result = scan.run([HERE], [])
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return {r.address: r for r in result.resources}


def _price(itype: str) -> tuple[float, float]:
    p = catalog.price("aws", itype, "us-west-2")
    assert p is not None and p.ondemand is not None and p.spot is not None
    return p.ondemand, p.spot


def test_only_gpu_node_groups_are_resources(got: dict[str, Resource]) -> None:
    assert sorted(a for a in got if a.startswith("ClusterConfig/")) == [
        "ClusterConfig/ml-prod/managedNodeGroups/gpu-batch-spot",
        "ClusterConfig/ml-prod/managedNodeGroups/gpu-inference",
        "ClusterConfig/ml-prod/nodeGroups/train-p4d",
    ]  # the m6i system group has no GPU


def test_managed_on_demand_group(got: dict[str, Resource]) -> None:
    r = got["ClusterConfig/ml-prod/managedNodeGroups/gpu-inference"]
    f = r.facts
    assert (f["instance.type"], f["region"], f["capacity"], f["replicas.min"], f["replicas.max"]) \
        == ("g6e.2xlarge", "us-west-2", "on-demand", 1, 6)
    assert f["tags"]["team"] == "ml-platform" and f["tags"]["project"] == "search"
    ondemand, _ = _price("g6e.2xlarge")
    # desiredCapacity 2 within minSize 1 and maxSize 6
    assert f["cost.monthly"] == pytest.approx(ondemand * 2 * 730)
    assert f["cost.monthly_min"] == pytest.approx(ondemand * 1 * 730)
    assert f["cost.monthly_max"] == pytest.approx(ondemand * 6 * 730)


def test_spot_and_mixed_capacity(got: dict[str, Resource]) -> None:
    spot = got["ClusterConfig/ml-prod/managedNodeGroups/gpu-batch-spot"]
    assert spot.facts["capacity"] == "spot"
    assert isinstance(spot.facts["gpu.model"], Unknown)  # g5 (A10G) and g6 (L4)
    _, g5_spot = _price("g5.xlarge")
    assert spot.facts["cost.monthly_max"] == pytest.approx(g5_spot * 10 * 730)
    mixed = got["ClusterConfig/ml-prod/nodeGroups/train-p4d"]
    assert mixed.facts["capacity"] == "mixed"
    # At 4 nodes: 1 on-demand base, 0 % of the other 3 on demand: 75 % spot.
    ondemand, spot_rate = _price("p4d.24xlarge")
    assert mixed.facts["cost.monthly_max"] == pytest.approx(
        (0.75 * spot_rate + 0.25 * ondemand) * 4 * 730, rel=1e-4)


def test_pod_links_to_node_group_by_its_label_and_taint(got: dict[str, Resource]) -> None:
    r = got["Deployment/search/reranker"]
    assert (r.facts["node_pool"], r.facts["instance.type"], r.facts["region"]) == \
        ("ClusterConfig/ml-prod/managedNodeGroups/gpu-inference", "g6e.2xlarge", "us-west-2")
    ondemand, _ = _price("g6e.2xlarge")
    assert r.facts["cost.monthly"] == pytest.approx(ondemand * 2 * 730)
