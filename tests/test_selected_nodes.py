"""A pod that reaches accelerator nodes by its node selection alone is evidence: reported with
the GPU its selector names and its count "could not evaluate", never dropped; node agents and a
driver beside GPU workers are not."""

from __future__ import annotations

import os

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.model import Unknown
from gpulint.report.remedies import fix_for
from gpulint.reporters.text import root_cause

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "selected_nodes")


def _scan(name: str) -> pipeline.ScanResult:
    return pipeline.run([os.path.relpath(os.path.join(DATA, name))], [], Settings())


def test_a_ray_worker_group_on_gpu_nodes_by_selector_is_reported() -> None:
    [res] = _scan("raycluster.yaml").resources
    assert res.address == "RayCluster/label-selected/workers/accelerator-group"
    assert res.facts.get("gpu.model") == "A100"
    assert res.facts.get("capacity") == "spot"
    count = res.facts.get("gpu.count")
    assert isinstance(count, Unknown)
    assert "node selector cloud.google.com/gke-accelerator=nvidia-tesla-a100" in count.reason
    fix = fix_for(root_cause(f"could not evaluate: gpu.count: {count.reason}"), count.reason)
    assert "nvidia.com/gpu" in fix


def test_a_node_agent_is_not_a_gpu_workload() -> None:
    assert _scan("agents.yaml").resources == []


def test_a_driver_beside_gpu_executors_is_not_reported() -> None:
    result = _scan("spark.yaml")
    assert [r.address for r in result.resources] == ["SparkApplication/spark/etl/executor"]


def test_a_patch_without_containers_is_not_a_pod(tmp_path: object) -> None:
    import pathlib

    root = pathlib.Path(str(tmp_path))
    (root / "l40s.yaml").write_text(  # a kustomize overlay's strategic-merge patch
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: chat\nspec:\n"
        "  template:\n    spec:\n      nodeSelector:\n"
        "        node.kubernetes.io/instance-type: g6e.xlarge\n")
    assert pipeline.run([str(root)], [], Settings()).resources == []


def test_sagemaker_node_types_name_their_gpu() -> None:
    """HyperPod nodes carry SageMaker types (`ml.g5.8xlarge`): the GPU is the EC2 type's, and
    the price basis says the EC2 rate is a lower bound of SageMaker's."""
    got = {r.address: r for r in _scan("hyperpod.yaml").resources}
    job = got["PyTorchJob/hyperpod-ns-team-a/imagenet-gpu-team-a-1/Worker"]
    scorer = got["Deployment/scorer"]
    # g5.8xlarge: 1 NVIDIA A10G; p4d.24xlarge: 8 NVIDIA A100 40 GB
    # (aws.amazon.com/ec2/instance-types/g5 and /p4).
    assert (job.facts.get("gpu.model"), job.facts.get("node.gpu_count")) == ("A10G", 1)
    assert (scorer.facts.get("gpu.model"), scorer.facts.get("node.gpu_count")) == ("A100", 8)
    assert "SageMaker ml.g5.8xlarge priced at the EC2 g5.8xlarge rate" in \
        job.facts.get("cost.note", "")
