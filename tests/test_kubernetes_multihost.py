"""Multi-host groups: Ray numOfHosts and LeaderWorkerSet groups are priced for every pod and
fit the model in the whole group's GPUs."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource
from gpulint.pricing import catalog
from gpulint.pricing.shape import cheapest_shape
from gpulint.ruleset import load_rules

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes", "multihost")


@pytest.fixture(scope="module")
def got() -> dict[str, Resource]:
    result = scan.run([HERE], load_rules())
    assert not result.findings or all(f.rule != "gpu-model-does-not-fit" for f in result.findings)
    return {r.address: r for r in result.resources}


def _cheapest_chip_hour(model: str) -> float:
    region = catalog.default_region("gcp")
    rates = [p.ondemand / s.gpu_count for s in catalog.gcp_accelerators()
             for p in [catalog.gcp_accelerator_price(s.name, region)]
             if s.gpu_model == model and p is not None and p.ondemand and s.gpu_count >= 1]
    return min(rates)


def test_ray_num_of_hosts_prices_every_host(got: dict[str, Resource]) -> None:
    r = got["RayCluster/research/maxtext-v6e-256/workers/tpu-v6e-16x16"]
    # 1 replica × numOfHosts 64 pods × 4 chips = 256 TPU v6e chips (was priced as one host).
    assert (r.facts["replicas.desired"], r.facts["gpu.count"], r.facts["group.gpu_count"]) == \
        (64, 4, 256)
    assert r.facts["cost.monthly"] == pytest.approx(_cheapest_chip_hour("TPU-v6e") * 256 * 730)


def test_leaderworkerset_group_fits_the_model_across_hosts(got: dict[str, Resource]) -> None:
    leader = got["LeaderWorkerSet/serving/llama-405b/leader"]
    workers = got["LeaderWorkerSet/serving/llama-405b/workers"]
    assert (leader.facts["replicas.desired"], workers.facts["replicas.desired"]) == (2, 2)
    assert leader.facts["group.gpu_count"] == workers.facts["group.gpu_count"] == 16
    # 405B in bf16 needs ~810 GB: not in one pod's 8 × 80 GiB, but in the group's 16.
    assert leader.facts["model.fits"] is True
    assert leader.facts["explain.provided"] == \
        "16× H100 (1280.0 GiB) across a LeaderWorkerSet group of 2 pods"
    assert leader.facts["sizing.idle_gpus"] == 0  # TP 8 × PP 2 uses all 16
    for r in (leader, workers):  # 2 groups × 8 GPUs per pod, each role, in its own region
        assert r.facts["cost.region"] == catalog.default_region("gcp")
        node = cheapest_shape("gcp", r.facts["cost.region"], "H100", 8)
        assert node is not None and node.price.ondemand is not None
        per_gpu = node.price.ondemand / node.gpu_count
        assert r.facts["cost.monthly"] == pytest.approx(per_gpu * 8 * 2 * 730, rel=1e-6)


def test_training_job_replica_specs_form_one_group() -> None:
    crds = {r.address: r for r in scan.run(
        [os.path.join(HERE, "..", "crds.yaml")], []).resources}
    # PyTorchJob: Master 1 × 8 + Worker 3 × 8 GPUs train one model.
    assert crds["PyTorchJob/ft/Worker"].facts["group.gpu_count"] == 32
    assert crds["JobSet/tpu-train/slice"].facts["group.gpu_count"] == 32  # 2 × 4 pods × 4 chips


def test_kserve_multi_node_inference_service(got: dict[str, Resource]) -> None:
    head = got["InferenceService/serving/llama-70b-multinode/predictor"]
    worker = got["InferenceService/serving/llama-70b-multinode/worker"]
    # workerSpec: tensorParallelSize 4 GPUs per pod, pipelineParallelSize 2 pods per replica.
    assert (head.facts["gpu.count"], worker.facts["gpu.count"], worker.facts["replicas.desired"]) \
        == (4, 4, 1)
    assert head.facts["group.gpu_count"] == 8 and head.facts["model.fits"] is True
    assert head.facts["sizing.idle_gpus"] == 0  # TP 4 × PP 2 uses the group's 8 GPUs
    # L40S is offered on AWS only: 4 of them are a g6e.12xlarge in AWS's default region.
    row = catalog.price("aws", "g6e.12xlarge", "us-east-1")
    assert row is not None and row.ondemand is not None
    assert head.facts["cost.monthly"] == pytest.approx(row.ondemand * 730, abs=0.01)
