"""Regression tests for silent misses and false GPU pools: Karpenter pools read by their
requirement values, Neuron-only limits, files mixing templated and plain documents, empty
accelerator quantities, `generateName`, non-Kubernetes YAML and namespace labels."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes")


def _scan(*names: str) -> tuple[dict[str, Resource], scan.ScanResult]:
    result = scan.run([os.path.join(HERE, n) for n in names], [])
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return {r.address: r for r in result.resources}, result


@pytest.fixture(scope="module")
def pools() -> dict[str, Resource]:
    return _scan("karpenter")[0]


def test_cpu_nodepools_are_not_gpu_pools(pools: dict[str, Resource]) -> None:
    # default (category c/m/r), system (t3 types) and batch-cpu (c5/m6i/r6i families) launch
    # no accelerator: before, the last two were reported as GPU pools without a GPU limit.
    assert sorted(a for a in pools if a.startswith("NodePool/")) == [
        "NodePool/auto-gpu", "NodePool/gpu-inference", "NodePool/inferentia", "NodePool/trainium"]


def test_gpu_pool_from_family_values(pools: dict[str, Resource]) -> None:
    r = pools["NodePool/gpu-inference"]
    assert (r.facts["accelerator.kind"], r.facts["gpu.count"], r.facts["gpu.model"]) == \
        ("gpu", 8, "L40S")  # every g6e type has L40S GPUs


def test_neuron_only_limits(pools: dict[str, Resource]) -> None:
    inf = pools["NodePool/inferentia"]
    assert (inf.facts["accelerator.kind"], inf.facts["gpu.count"], inf.facts["gpu.model"]) == \
        ("neuron", 4, "Inferentia2")
    spec = catalog.instance("aws", "inf2.xlarge")
    assert spec is not None and inf.facts["gpu.memory_gib"] == spec.gpu_memory_gib
    trn = pools["NodePool/trainium"]
    assert (trn.facts["accelerator.kind"], trn.facts["gpu.count"]) == ("neuron", 32)  # 64 cores
    assert "instance-category In ['trn']" in trn.facts["gpu.model"].reason


def test_eks_auto_mode_pool(pools: dict[str, Resource]) -> None:
    r = pools["NodePool/auto-gpu"]
    assert (r.facts["gpu.count"], r.facts["capacity"]) == (4, "spot")
    # g6 (L4) and g5 (A10G): the GPU cannot be told, and the reason names the requirement.
    assert "eks.amazonaws.com/instance-family In ['g6', 'g5']" in r.facts["gpu.model"].reason


@pytest.mark.parametrize("requirement,expected", [
    ({"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt", "values": ["0"]}, "gpu"),
    ({"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "In", "values": ["0"]}, None),
    ({"key": "karpenter.k8s.aws/instance-category", "operator": "NotIn",
      "values": ["g", "p"]}, None),
    ({"key": "karpenter.k8s.aws/instance-gpu-name", "operator": "In", "values": ["h100"]}, "gpu"),
    ({"key": "node.kubernetes.io/instance-type", "operator": "In",
      "values": ["m5.large", "p5.48xlarge"]}, "gpu"),
    ({"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["t3", "t4g"]}, None),
])
def test_requirement_values_decide(requirement: dict[str, object], expected: str | None) -> None:
    from gpulint.facts.kubernetes.pool_kind import launches_accelerators
    assert launches_accelerators([requirement], set()) == expected


def test_a_cpu_requirement_rules_out_a_gpu_limit() -> None:
    from gpulint.facts.kubernetes.pool_kind import launches_accelerators
    cpu_only = [{"key": "karpenter.k8s.aws/instance-family", "operator": "In", "values": ["c7i"]}]
    assert launches_accelerators(cpu_only, {"gpu"}) is None
    assert launches_accelerators([], {"neuron"}) == "neuron"


def test_mixed_templated_file_reads_its_plain_documents() -> None:
    got, result = _scan("mixed")
    assert sorted(got) == ["Deployment/speech/asr-worker", "Job/speech/eval-whisper-"]
    notes = [(d.line, d.message) for d in result.diagnostics if d.severity == "info"]
    assert notes == [(6, "skipped a template: this document uses Helm/Go template syntax "
                            "({{ }}); the file's other documents are scanned")]
    dep = got["Deployment/speech/asr-worker"]
    # 2 replicas of 1 L4 on GKE: the cheapest node with an L4 in the default region, each.
    row = catalog.price("gcp", "g2-standard-4", catalog.default_region("gcp"))
    assert row is not None and row.ondemand is not None
    assert dep.facts["cost.monthly"] == round(row.ondemand * 2 * 730, 2)
    assert dep.facts["cost.basis"].startswith("1/1 GPUs of gcp g2-standard-4 us-central1")


def test_empty_quantity_is_unknown_and_generate_name_names_the_job() -> None:
    job = _scan("mixed")[0]["Job/speech/eval-whisper-"]
    assert isinstance(job.facts["gpu.count"], Unknown)
    assert job.facts["gpu.count"].reason == "nvidia.com/gpu in limits has no value"
    assert isinstance(job.facts["cost.monthly"], Unknown)


def test_cloudformation_tags_are_not_a_yaml_error(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "nodegroup.yaml")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("AWSTemplateFormatVersion: '2010-09-09'\nConditions:\n"
                 "  Spot: !Equals [!Ref CapacityType, SPOT]\nResources:\n  Ng:\n"
                 "    Type: AWS::EKS::Nodegroup\n    Properties:\n      ClusterName: !Ref C\n"
                 "      Labels: {kind: gpu, apiVersion: none}\n")
    result = scan.run([path], [])
    assert result.diagnostics == [] and result.resources == []


def test_namespace_labels_are_inherited_and_say_where_from() -> None:
    got = _scan(os.path.join("..", "..", "rules", "gpu-missing-cost-tags", "namespaces.yaml"))[0]
    job = got["Job/team-nlp/finetune-summarizer"]
    assert {k: job.facts["tags"][k] for k in ("team", "project", "env")} == \
        {"team": "nlp", "project": "assistant", "env": "prod"}
    assert "kubernetes.io/metadata.name" not in job.facts["tags"]
    assert job.facts["tags.inherited"]["team"].startswith("Namespace team-nlp (")
    probe = got["Job/sandbox/probe-"]
    assert probe.facts["tags"].get("team") == "research" and "project" not in probe.facts["tags"]


def test_ec2nodeclass_tags_are_the_pools_cost_tags(pools: dict[str, Resource]) -> None:
    r = pools["NodePool/gpu-inference"]
    assert {k: r.facts["tags"][k] for k in ("team", "project", "env")} == \
        {"team": "ml-platform", "project": "inference", "env": "prod"}
    assert r.facts["tags"]["workload"] == "inference"  # the pool's own node label stays
    assert r.facts["tags.inherited"]["team"].startswith("EC2NodeClass gpu (")
    assert "team" not in pools["NodePool/inferentia"].facts["tags"]  # names EC2NodeClass neuron
