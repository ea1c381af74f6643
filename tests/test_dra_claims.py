"""Pods that claim accelerators through dynamic resource allocation (resource.k8s.io) are GPU
resources like pods that ask for `nvidia.com/gpu`: the real GKE compute-class shape and made-up
variants of the GA API (tests/fixtures/kubernetes/dra/)."""

from __future__ import annotations

from gpulint.facts.kubernetes.dra import accelerator_class
from gpulint.model import Unknown
from gpulint.pipeline import run
from gpulint.ruleset import load_rules

FIXTURES = "tests/fixtures/kubernetes/dra"


def _by_name() -> dict[str, object]:
    result = run([FIXTURES], load_rules())
    return {str(r.facts["k8s.name"]): r for r in result.resources}


def test_a_claim_of_every_gpu_of_the_node_is_a_gpu_resource_of_unknown_count() -> None:
    res = _by_name()["ccc-gpu"]
    count = res.facts["gpu.count"]  # type: ignore[attr-defined]
    assert isinstance(count, Unknown)
    assert "allocationMode: All" in count.reason and "gpu.nvidia.com" in count.reason


def test_claims_with_a_count_are_counted_per_pod_and_priced_like_extended_resources() -> None:
    found = _by_name()
    pair = found["pair-server"]
    assert pair.facts["gpu.count"] == 2  # type: ignore[attr-defined]
    assert pair.facts["gpu.model"] == "L4"  # type: ignore[attr-defined]
    assert pair.facts["replicas.desired"] == 3  # type: ignore[attr-defined]
    assert isinstance(pair.facts.get("cost.monthly"), float)  # type: ignore[attr-defined]
    shard = found["tpu-shard"]  # a named ResourceClaim, the first of its alternatives
    assert shard.facts["gpu.count"] == 4  # type: ignore[attr-defined]
    assert shard.facts["accelerator.kind"] == "tpu"  # type: ignore[attr-defined]


def test_a_claim_of_a_device_that_is_no_accelerator_is_not_a_gpu_resource() -> None:
    assert "nic-only" not in _by_name()


def test_device_classes_are_read_by_their_name_labels() -> None:
    assert accelerator_class("gpu.nvidia.com") == "gpu"
    assert accelerator_class("mig.nvidia.com") == "mig"
    assert accelerator_class("gpu.amd.com") == "gpu"
    assert accelerator_class("tpu.google.com") == "tpu"
    assert accelerator_class("neuron.aws.com") == "neuron"
    assert accelerator_class("compute-domain-default-channel.nvidia.com") is None
    assert accelerator_class("rdma.example.com") is None
    assert accelerator_class("gpupool.example.com") is None
