"""Kubernetes facts: every kind, accelerator, node selection and linking, from fixture files."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.facts.model_decl import declared_model
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes")


def _scan(*names: str) -> dict[str, Resource]:
    result = scan.run([os.path.join(HERE, n) for n in names], [])
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return {r.address: r for r in result.resources}


@pytest.fixture(scope="module")
def crds() -> dict[str, Resource]:
    return _scan("crds.yaml")


@pytest.fixture(scope="module")
def selection() -> dict[str, Resource]:
    return _scan("selection.yaml")


@pytest.fixture(scope="module")
def linked() -> dict[str, Resource]:
    return _scan("linking")


def _facts(res: Resource, *names: str) -> tuple[object, ...]:
    return tuple(res.facts.get(n) for n in names)


def test_every_crd_pod_group_is_its_own_resource(crds: dict[str, Resource]) -> None:
    assert sorted(crds) == [
        "InferenceService/serving/qwen/predictor", "JobSet/tpu-train/slice",
        "LeaderWorkerSet/llama-405b/leader", "LeaderWorkerSet/llama-405b/workers",
        "Notebook/kubeflow-user/alice", "PyTorchJob/ft/Master", "PyTorchJob/ft/Worker",
        "RayCluster/ml/rc/workers/gpu-group", "Service/embed", "TrainJob/tj/trainer",
    ]  # the Ray head asks for no GPU, so it is not a GPU resource


def test_kserve_scale_to_zero_and_storage_uri_model(crds: dict[str, Resource]) -> None:
    r = crds["InferenceService/serving/qwen/predictor"]
    assert _facts(r, "replicas.min", "replicas.max", "shutdown", "workload", "gpu.model") == \
        (0, 4, "scale-to-zero", "inference", "L4")
    assert declared_model(r).id == "hf://Qwen/Qwen2.5-7B-Instruct"
    assert declared_model(r).context == 8192
    assert r.facts["cost.monthly"] == 0.0  # priced at its minimum: zero replicas


def test_ray_worker_group_autoscaling_bounds_and_spot(crds: dict[str, Resource]) -> None:
    r = crds["RayCluster/ml/rc/workers/gpu-group"]
    assert _facts(r, "replicas.desired", "replicas.min", "replicas.max", "capacity", "gpu.model") \
        == (2, 1, 8, "spot", "A10G")


def test_training_operator_replica_specs(crds: dict[str, Resource]) -> None:
    assert _facts(crds["PyTorchJob/ft/Master"], "replicas.desired", "gpu.count", "workload") == \
        (1, 8, "training")
    assert _facts(crds["PyTorchJob/ft/Worker"], "replicas.desired", "workload.source") == \
        (3, "kind PyTorchJob")


def test_notebook_mig_slice(crds: dict[str, Resource]) -> None:
    r = crds["Notebook/kubeflow-user/alice"]
    assert _facts(r, "workload", "gpu.count", "gpu.memory_gib", "gpu.mig_profile") == \
        ("notebook", 1, 10.0, "1g.10gb")
    assert r.facts["gpu.fraction"] == pytest.approx(1 / 7)
    # 1g.10gb exists on A100-80GB and H100: without a selector the GPU (and price) is unknown.
    assert isinstance(r.facts["gpu.model"], Unknown)
    assert "several GPUs" in r.facts["cost.monthly"].reason


def test_leaderworkerset_leader_and_workers(crds: dict[str, Resource]) -> None:
    assert crds["LeaderWorkerSet/llama-405b/leader"].facts["replicas.desired"] == 2
    assert crds["LeaderWorkerSet/llama-405b/workers"].facts["replicas.desired"] == 6  # 2 × (4-1)


def test_jobset_tpu_chips_priced_per_chip_hour(crds: dict[str, Resource]) -> None:
    r = crds["JobSet/tpu-train/slice"]
    assert _facts(r, "replicas.desired", "gpu.count", "gpu.model", "accelerator.kind") == \
        (8, 4, "TPU-v6e", "tpu")
    assert "chip-hour" in r.facts["cost.basis"]
    assert r.facts["cost.monthly"] == pytest.approx(r.facts["cost.hourly"] * 8 * 730)


def test_knative_min_and_max_scale(crds: dict[str, Resource]) -> None:
    r = crds["Service/embed"]
    assert _facts(r, "replicas.min", "replicas.max", "workload", "shutdown") == \
        (1, 3, "inference", "none")


def test_trainjob_neuron_cores_count_as_devices(crds: dict[str, Resource]) -> None:
    r = crds["TrainJob/tj/trainer"]
    assert _facts(r, "gpu.count", "replicas.desired", "accelerator.kind", "workload") == \
        (2, 2, "neuron", "training")


def test_spot_from_required_affinity_not_from_toleration_or_preference(
        selection: dict[str, Resource]) -> None:
    assert _facts(selection["Job/affinity-spot"], "capacity", "capacity.source", "instance.type") \
        == ("spot", "node affinity eks.amazonaws.com/capacityType=SPOT", "g5.12xlarge")
    assert selection["Job/toleration-only"].facts["capacity"] == "on-demand"
    assert selection["Job/preferred-spot"].facts["capacity"] == "on-demand"
    assert selection["Job/notin-on-demand"].facts["capacity"] == "spot"
    assert selection["Pod/aks"].facts["capacity"] == "spot"


def test_gpu_model_from_family_and_vendor_labels(selection: dict[str, Resource]) -> None:
    assert selection["Job/toleration-only"].facts["gpu.model"] == "L4"  # machine-family g2
    assert selection["Job/preferred-spot"].facts["gpu.model"] == "H100"  # instance-family p5
    assert "several GPU models" in selection["Job/notin-on-demand"].facts["gpu.model"].reason
    assert "names the vendor" in selection["Pod/aks"].facts["gpu.model"].reason
    assert "no node selector" in selection["Pod/no-selector"].facts["cost.monthly"].reason


def test_mig_priced_as_a_fraction_of_its_gpu(selection: dict[str, Resource]) -> None:
    r = selection["Pod/mig-a100"]
    assert _facts(r, "gpu.model", "gpu.count", "gpu.memory_gib") == ("A100-80GB", 2, 10.0)
    # Nothing names the cloud: not priced at the cheapest A100-80GB anywhere, but reported.
    assert "cloud unknown" in r.facts["cost.monthly"].reason
    assert "clusters:" in r.facts["cost.monthly"].reason
    assert selection["Pod/mig-h200"].facts["gpu.model"] == "H200"  # 71 GB slices exist only there


def test_neuron_devices_share_of_instance(selection: dict[str, Resource]) -> None:
    r = selection["Pod/neuron"]
    assert _facts(r, "gpu.count", "accelerator.kind", "gpu.model") == (
        3, "inferentia", "Inferentia2")
    assert r.facts["cost.basis"].startswith("3/12 devices of aws inf2.48xlarge")


def test_requests_and_limits(selection: dict[str, Resource]) -> None:
    assert "differs from limit" in selection["Pod/mismatch"].facts["gpu.count"].reason
    assert selection["Pod/init-heavier"].facts["gpu.count"] == 2  # init container needs more


def test_line_numbers_point_at_each_document() -> None:
    got = {r.address: r.line for r in _scan("multidoc.yaml").values()}
    assert got == {"Deployment/first": 11, "Pod/in-list-a": 27, "Pod/in-list-b": 37}
    with open(os.path.join(HERE, "multidoc.yaml"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert lines[11 - 1] == "apiVersion: apps/v1" and lines[27 - 1].strip() == "- apiVersion: v1"


def test_json_manifest() -> None:
    assert _scan("pod.json")["Pod/json-pod"].facts["instance.type"] == "g5.xlarge"


def test_model_from_configmaps_and_unresolvable_secret() -> None:
    got = _scan("env.yaml")
    envfrom = declared_model(got["Deployment/llm/from-envfrom"])
    assert (envfrom.id, envfrom.context) == ("mistralai/Mistral-7B-Instruct-v0.3", 4096)
    keyref = declared_model(got["Deployment/llm/from-keyref"])
    assert (keyref.id, keyref.tensor_parallel) == ("Qwen/Qwen2.5-14B-Instruct", 2)
    secret = got["Deployment/llm/from-secret"]
    assert declared_model(secret) is None
    assert "not in the scanned manifests" in secret.facts["model.id"].reason


def test_pod_linked_to_terraform_pool_by_label_and_toleration(linked: dict[str, Resource]) -> None:
    r = linked["Job/pretrain"]
    assert _facts(r, "node_pool", "instance.type", "capacity", "region") == \
        ("aws_eks_node_group.train_spot", "p4d.24xlarge", "spot", "us-east-1")
    assert r.facts["cost.basis"].startswith(
        "8/8 GPUs of aws p4d.24xlarge us-east-1 (region of the node pool) spot")


def test_untolerated_taint_is_reported_not_linked(linked: dict[str, Resource]) -> None:
    r = linked["Job/pretrain-untolerated"]
    assert "does not tolerate its taint dedicated=train:NoSchedule" in r.facts["node_pool"].reason


def test_gke_pool_region_and_hpa_bounds(linked: dict[str, Resource]) -> None:
    r = linked["Deployment/llm/chat"]
    assert _facts(r, "node_pool", "instance.type", "region", "replicas.min", "replicas.max") == \
        ("google_container_node_pool.l4", "g2-standard-8", "europe-west4", 2, 6)
    assert "europe-west4" in r.facts["cost.basis"] and "2–6 replicas" in r.facts["cost.basis"]


def test_karpenter_nodepool_and_keda_scale_to_zero(linked: dict[str, Resource]) -> None:
    pool = linked["NodePool/gpu-spot"]
    assert _facts(pool, "gpu.count", "gpu.model", "capacity", "nodepool.consolidation",
                  "replicas.desired", "cost.monthly") == (16, "L4", "spot", "WhenEmpty", 0, 0.0)
    r = linked["Deployment/llm/embedder"]
    assert _facts(r, "node_pool", "gpu.model", "capacity", "replicas.min", "replicas.max",
                  "shutdown") == ("NodePool/gpu-spot", "L4", "spot", 0, 5, "scale-to-zero")
    assert "aws" in r.facts["cost.basis"]  # Karpenter GPU names are AWS: priced within AWS


def test_aks_pool_by_implicit_agentpool_label_and_spot_taint(linked: dict[str, Resource]) -> None:
    r = linked["Job/aks-train"]
    assert _facts(r, "node_pool", "instance.type", "capacity", "gpu.model") == (
        "azurerm_kubernetes_cluster_node_pool.a100", "Standard_NC24ads_A100_v4", "spot",
        "A100-80GB")
    assert r.facts["cost.basis"].startswith("1/1 GPUs of azure Standard_NC24ads_A100_v4")
    # AKS taints spot nodes; a pod that does not tolerate that never lands on them.
    blocked = linked["Job/aks-train-no-spot-toleration"].facts["node_pool"]
    assert "kubernetes.azure.com/scalesetpriority=spot:NoSchedule" in blocked.reason


def test_karpenter_pool_with_several_types_of_one_gpu(linked: dict[str, Resource]) -> None:
    r = linked["Deployment/on-g5-any"]
    assert _facts(r, "node_pool", "gpu.model", "capacity") == (
        "NodePool/g5-any", "A10G", "on-demand")
    # The EC2NodeClass puts the pool on AWS; the pod pays the cheapest A10G node there.
    row = catalog.price("aws", "g5.xlarge", "us-east-1")
    assert row and row.ondemand and r.facts["cost.hourly"] == pytest.approx(row.ondemand)
    assert r.facts["cost.basis"].startswith("1/1 GPUs of aws g5.xlarge us-east-1 (the cheapest")
    # No GPU limit: the pool itself says it can grow without bound.
    assert "without bound" in linked["NodePool/g5-any"].facts["gpu.count"].reason
    # The pool itself has that GPU too, rather than "no node selector names a GPU model".
    pool = linked["NodePool/g5-any"]
    assert pool.facts["gpu.model"] == "A10G" and pool.facts["gpu.memory_gib"] == 22.35
    assert "gpu.model" not in dict(pool.unknowns)


def test_daemonset_counts_the_nodes_of_its_pool(linked: dict[str, Resource]) -> None:
    r = linked["DaemonSet/gpu-exporter"]
    assert _facts(r, "replicas.desired", "node_pool") == (1, "google_container_node_pool.l4")
    assert isinstance(r.facts["cost.monthly"], float)


def test_gke_accelerator_label_of_a_bundled_machine_type(linked: dict[str, Resource]) -> None:
    # g2 machine types carry their L4s; GKE still labels the nodes gke-accelerator=nvidia-l4.
    r = linked["Pod/by-gke-accelerator"]
    assert _facts(r, "node_pool", "instance.type", "region") == \
        ("google_container_node_pool.l4", "g2-standard-8", "europe-west4")


def test_negative_counts_are_unknown_not_negative_costs() -> None:
    found = _scan("negative-counts.yaml")
    neg = found["Deployment/negative"]
    assert neg.facts["replicas.desired"].reason == "replicas -1 is negative"
    assert isinstance(neg.facts["cost.monthly"], Unknown)
    scaled = found["Deployment/scaled"]
    assert scaled.facts["replicas.min"].reason == "replica bound -2 is negative"
    assert isinstance(scaled.facts["cost.monthly"], Unknown)
