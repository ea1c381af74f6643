"""Without declared clusters a workload links only to node pools of its own project (the pool's
home directory holds its file), so a file is linked and priced the same whatever else is
scanned. Every price is recomputed from its catalog row."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.facts.kubernetes import scope
from gpulint.model import Resource
from gpulint.pricing import catalog

TESTS = os.path.dirname(__file__)
SAMPLES = os.path.join(TESTS, "rules", "gpu-pod-larger-than-node", "samples")
UNRELATED = os.path.join(TESTS, "rules", "gpu-oversized-for-model", "unrelated-pool")
HOURS = 730


def _scan(*paths: str) -> dict[str, Resource]:
    return {r.address: r for r in scan.run(list(paths), []).resources}


def _row(provider: str, itype: str, region: str) -> float:
    p = catalog.price(provider, itype, region)
    assert p is not None and p.ondemand is not None, (provider, itype, region)
    return p.ondemand


@pytest.fixture(scope="module")
def samples() -> dict[str, Resource]:
    return _scan(SAMPLES)


@pytest.mark.parametrize("sample", ["gemma-on-l4", "llama-finetune"])
def test_a_sample_is_linked_and_priced_the_same_alone_and_with_the_repository(
        samples: dict[str, Resource], sample: str) -> None:
    alone = _scan(os.path.join(SAMPLES, sample))
    assert alone
    for address, res in alone.items():
        together = samples[address]
        for fact in ("node_pool", "cost.monthly", "cost.basis", "node.gpu_shortfall"):
            assert together.facts_by_name.get(fact) == res.facts_by_name.get(fact), \
                (address, fact)


def test_a_pod_is_not_linked_to_another_samples_pool(samples: dict[str, Resource]) -> None:
    job = samples["Job/finetune-llama-8xl4"]
    assert "node_pool" not in job.facts and "node.gpu_shortfall" not in job.facts
    # Its own cloud's cheapest 8-L4 shape in the default region, not the other sample's 1-L4 node.
    assert job.facts["cost.monthly"] == round(_row("gcp", "g2-standard-96", "us-central1") * HOURS,
                                              2)
    assert "8/8 GPUs of gcp g2-standard-96 us-central1" in job.facts["cost.basis"]


def test_a_pod_still_links_to_its_own_samples_pool(samples: dict[str, Resource]) -> None:
    served = samples["Deployment/vllm-gemma"]
    assert served.facts["node_pool"] == "google_container_node_pool.l4"
    # One replica (the pool's autoscaling minimum does not scale the Deployment).
    assert served.facts["cost.monthly"] == round(
        _row("gcp", "g2-standard-8", "europe-west4") * HOURS, 2)
    assert "(region of the node pool)" in served.facts["cost.basis"]
    own = samples["Job/finetune-llama-8xa100"]
    assert own.facts["node_pool"] == "google_container_node_pool.a100"
    assert own.facts["node.gpu_shortfall"] == \
        "requests 8 GPUs but nodes of pool google_container_node_pool.a100 have 1"


def test_a_single_l4_pod_next_to_an_unrelated_bigger_pool_keeps_its_own_shape() -> None:
    res = _scan(UNRELATED)["Deployment/qwen-chat"]
    assert "node_pool" not in res.facts
    # 2 replicas of one g2-standard-4 (the cheapest L4 node), not of the pool's g2-standard-32.
    assert res.facts["cost.monthly"] == round(
        _row("gcp", "g2-standard-4", "us-central1") * 2 * HOURS, 2)
    assert res.facts["cost.monthly"] < _row("gcp", "g2-standard-32", "us-central1") * 2 * HOURS


@pytest.mark.slow
def test_fixture_tree_scanned_whole_does_not_link_gke_pricing_pods_to_the_linking_pool() -> None:
    found = _scan(os.path.join(TESTS, "fixtures"))
    for address in ("Job/training/finetune-4xl4", "Job/training/pretrain-8xl4"):
        assert "node_pool" not in found[address].facts
        assert "node.gpu_shortfall" not in found[address].facts


def _pool(path: str) -> Resource:
    return Resource("google_container_node_pool.p", "google_container_node_pool", path, 1,
                    "terraform")


@pytest.mark.parametrize(("pool", "home"), [
    ("repo/sample/main.tf", "repo/sample"),
    ("repo/sample/terraform/main.tf", "repo/sample"),  # an infrastructure folder: its parent
    ("repo/sample/Infra/gke.tf", "repo/sample"),
    ("repo/sample/gke/main.tf", "repo/sample/gke"),  # any other name is the project itself
])
def test_home_of_a_pool(pool: str, home: str) -> None:
    assert scope.home(_pool(pool), {}) == os.path.abspath(home)


def test_home_of_a_module_pool_is_its_root_modules_directory() -> None:
    pool = _pool("repo/modules/gke/pools.tf")
    # Innermost call first: the root module's call is the last.
    calls = {id(pool): ("repo/modules/stack/main.tf", "repo/envs/prod/main.tf")}
    assert scope.home(pool, calls) == os.path.abspath("repo/envs/prod")


@pytest.mark.parametrize(("workload", "covered"), [
    ("repo/sample/deploy.yaml", True), ("repo/sample/k8s/base/deploy.yaml", True),
    ("repo/sample-b/deploy.yaml", False), ("repo/deploy.yaml", False),
])
def test_a_home_covers_its_subtree_only(workload: str, covered: bool) -> None:
    res = Resource("Deployment/x", "Deployment", workload, 1, "kubernetes")
    assert scope.covers(os.path.abspath("repo/sample"), res) is covered


def _subdirectories(root: str) -> list[str]:
    return sorted(os.path.join(root, top, sub) for top in os.listdir(root)
                  if os.path.isdir(os.path.join(root, top))
                  for sub in os.listdir(os.path.join(root, top))
                  if os.path.isdir(os.path.join(root, top, sub)))


@pytest.fixture(scope="module")
def fixture_tree() -> dict[tuple[str, str], Resource]:
    result = scan.run([os.path.join(TESTS, "fixtures")], [])
    return {(r.path, r.address): r for r in result.resources}


@pytest.mark.slow
@pytest.mark.parametrize("directory", _subdirectories(os.path.join(TESTS, "fixtures")),
                         ids=os.path.basename)
def test_every_fixture_directory_links_the_same_alone_and_in_the_whole_tree(
        fixture_tree: dict[tuple[str, str], Resource], directory: str) -> None:
    """The linking facts of a directory's workloads do not depend on what else is scanned."""
    for res in scan.run([directory], []).resources:
        whole = fixture_tree.get((res.path, res.address))
        if whole is None:
            continue  # a chart release named after the scan root: another resource
        for fact in ("node_pool", "cost.cloud", "cost.region", "node.gpu_shortfall"):
            assert res.facts_by_name.get(fact) == whole.facts_by_name.get(fact), \
                (res.address, fact)
