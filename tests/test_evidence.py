"""Accelerator evidence (load/evidence.py) in shapes no reader was written for: made-up kinds,
every vendor's extended resources, bare fields, wrapped values, selectors and profile strings."""

from __future__ import annotations

from typing import Any

import pytest

from gpulint.load.evidence import find, first_line, is_gpu_instance, is_profile


def _sorts(doc: Any) -> list[tuple[str, str]]:
    return [(e.dotted, e.sort) for e in find(doc)]


@pytest.mark.parametrize("key", ["nvidia.com/gpu", "nvidia.com/mig-3g.40gb", "amd.com/gpu",
                                 "gpu.intel.com/i915", "gpu.intel.com/xe", "google.com/tpu",
                                 "aws.amazon.com/neuron", "aws.amazon.com/neuroncore",
                                 "habana.ai/gaudi", "acme.ai/npu"])
def test_every_vendors_extended_resource_is_evidence(key: str) -> None:
    doc = {"spec": {"x": [{"resources": {"limits": {key: 2}}}]}}
    assert _sorts(doc) == [(f"spec.x[0].resources.limits.{key}", "request")]


def test_a_zero_request_is_not_evidence_but_an_unreadable_one_is() -> None:
    assert find({"limits": {"nvidia.com/gpu": 0}}) == []
    assert find({"limits": {"nvidia.com/gpu": "0"}}) == []
    assert [e.value for e in find({"limits": {"nvidia.com/gpu": "{{ .Values.gpus }}"}})] == \
        ["{{ .Values.gpus }}"]


def test_bare_fields_count_in_resource_like_maps_and_wrapped_values() -> None:
    assert _sorts({"spec": {"resources": {"gpu": 2, "accelerator": "nvidia-l40s"}}}) == [
        ("spec.resources.gpu", "bare"), ("spec.resources.accelerator", "bare")]
    # Run:ai wraps every field: {value: …}
    assert [(e.dotted, e.value) for e in find({"spec": {"gpuDevices": {"value": 8}}})] == [
        ("spec.gpuDevices", 8)]
    # Outside resource-like maps a `gpu` key is a setting's name, not a count.
    assert find({"spec": {"monitoring": {"gpu": 1}}}) == []
    assert find({"spec": {"resources": {"gpu": 0}}}) == []
    # Ray's rayStartParams num-gpus and prose are not requests.
    assert find({"rayStartParams": {"num-gpus": "2"}, "description": "uses nvidia.com/gpu"}) == []


def test_gpu_node_selection_is_evidence() -> None:
    doc = {"nodeSelector": {"cloud.google.com/gke-accelerator": "nvidia-l4",
                            "kubernetes.io/os": "linux"},
           "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
               "nodeSelectorTerms": [{"matchExpressions": [
                   {"key": "karpenter.k8s.aws/instance-gpu-count", "operator": "Gt",
                    "values": ["0"]},
                   {"key": "node.kubernetes.io/instance-type", "operator": "In",
                    "values": ["p5.48xlarge"]},
                   {"key": "node.kubernetes.io/instance-type", "operator": "In",
                    "values": ["m5.large"]}]}]}}}}
    keys = [e.key for e in find(doc)]
    assert keys == ["cloud.google.com/gke-accelerator", "karpenter.k8s.aws/instance-gpu-count",
                    "node.kubernetes.io/instance-type"]
    assert [e.sort for e in find({"nodeSelector": {"nvidia.com/gpu.present": "true"}})] == \
        ["selector"]
    assert find({"nodeSelector": {"node.kubernetes.io/instance-type": "c5.xlarge"}}) == []


@pytest.mark.parametrize("value,expected", [
    ("nvidia-gpu-h100:8", True), ("amd-gpu-mi300x:8", True), ("google-tpu-v5e-2x2:4", True),
    ("nvidia-gpu-l4:1", True), ("cpu:4", False), ("nvidia-gpu-h100", False),
    ("redis:7", False), ("gpu-node-pool", False)])
def test_profile_strings_name_an_accelerator_and_a_count(value: str, expected: bool) -> None:
    assert is_profile(value) is expected


@pytest.mark.parametrize("value,expected", [
    ("p5.48xlarge", True), ("g6e.xlarge", True), ("trn1.32xlarge", True), ("inf2.xlarge", True),
    ("ml.p4d.24xlarge", True), ("a3-highgpu-8g", True), ("g2-standard-4", True),
    ("ct5lp-hightpu-4t", True), ("Standard_NC24ads_A100_v4", True),
    ("p6-b200.48xlarge", True), ("p6e-gb200.36xlarge", True), ("ml.p6-b200.48xlarge", True),
    ("m5.large", False), ("c7g.xlarge", False), ("n2-standard-8", False),
    ("Standard_D4s_v5", False), ("e2-medium", False)])
def test_gpu_instance_types(value: str, expected: bool) -> None:
    assert is_gpu_instance(value) is expected


def test_first_line_finds_requests_in_text_that_is_not_yaml() -> None:
    text = "{{- if .Values.on }}\nkind: Pod\n  limits:\n    nvidia.com/gpu: {{ .Values.n }}\n"
    assert first_line(text) == 4
    assert first_line("kind: Pod\nimage: x\n") is None


def test_an_extended_resource_name_as_a_node_label_is_a_selector() -> None:
    assert [e.sort for e in find({"nodeSelector": {"nvidia.com/gpu": "present"}})] == \
        ["selector"]


def test_fields_named_as_requests_count_anywhere() -> None:
    doc = {"servingEngineSpec": {"modelSpec": [{"name": "m", "requestGPU": 2}]},
           "trainer": {"numGpus": 4}, "ui": {"gpu": 1}, "requestGPUType": "nvidia.com/gpu"}
    assert [e.dotted for e in find(doc)] == ["servingEngineSpec.modelSpec[0].requestGPU",
                                              "trainer.numGpus"]


def test_a_charts_accelerator_section_that_is_switched_on_is_evidence() -> None:
    # Ollama's chart values (otwld/ollama-helm), as kubernetes-engine-samples sets them.
    ollama = {"ollama": {"gpu": {"enabled": True, "type": "nvidia", "number": 1},
                         "models": ["gemma:7b"]}}
    assert [(e.dotted, e.value) for e in find(ollama)] == [("ollama.gpu.number", 1)]
    # Made-up variants: another count field, a switch alone, TPUs.
    assert [e.value for e in find({"worker": {"gpus": {"count": 2, "vendor": "amd"}}})] == [2]
    assert [e.dotted for e in find({"tpu": {"enabled": True}})] == ["tpu.enabled"]
    # Switched off, a zero count, or a section of settings only: nothing asked.
    assert find({"gpu": {"enabled": False, "number": 1}}) == []
    assert find({"gpu": {"enabled": True, "number": 0}}) == []
    assert find({"gpu": {"type": "nvidia", "driver": "550"}}) == []


def test_a_dra_device_class_of_accelerators_is_evidence() -> None:
    claim = {"spec": {"devices": {"requests": [
        {"name": "a", "exactly": {"deviceClassName": "gpu.nvidia.com"}},
        {"name": "b", "deviceClassName": "rdma.example.com"}]}}}
    assert [e.value for e in find(claim)] == ["gpu.nvidia.com"]


def test_a_gke_compute_class_with_gpu_priorities_is_a_documented_non_workload() -> None:
    from gpulint.facts.kubernetes.accounting import non_workload
    from gpulint.load.kubernetes import K8sObject

    # The shape of GKE's custom compute class samples (kubernetes-engine-samples,
    # autoscaling/custom-compute-classes): node shapes for the pods that select the class.
    doc = {"apiVersion": "cloud.google.com/v1", "kind": "ComputeClass",
           "metadata": {"name": "inference-1x8x24"},
           "spec": {"priorities": [{"machineFamily": "a3",
                                    "gpu": {"type": "nvidia-h100-80gb", "count": 8}}],
                    "nodePoolAutoCreation": {"enabled": True}}}
    found = find(doc)
    assert [e.dotted for e in found] == ["spec.priorities[0].gpu.count"]
    assert non_workload(K8sObject("ccc.yaml", 1, doc), found) is not None


def test_a_gpu_machine_type_in_a_tools_cluster_configuration_is_evidence() -> None:
    # The SageMaker HyperPod CLI's job configuration (awsome-distributed-training's
    # task-governance example) names its nodes under `cluster`; a made-up Slurm-like tool names
    # them under a queue's compute resources. Both describe machines that would run.
    hyperpod = {"training_cfg": {"run": {"name": "mnist", "nodes": 2}},
                "cluster": {"cluster_type": "k8s", "instance_type": "ml.g5.8xlarge"}}
    assert [e.dotted for e in find(hyperpod)] == ["cluster.instance_type"]
    queues = {"queues": [{"name": "gpu", "compute_resources": [
        {"name": "h100", "InstanceType": "p5.48xlarge", "min_count": 0}]}]}
    assert [e.sort for e in find(queues)] == ["selector"]
    # The same field in a report's rows or a price list is data, and a CPU type is no evidence.
    report = {"resources": [{"address": "aws_instance.x", "instance_type": "p4d.24xlarge"}]}
    prices = {"prices": {"p5.48xlarge": {"instance_type": "p5.48xlarge", "usd": 55.04}}}
    cpu = {"cluster": {"instance_type": "m5.large"}}
    assert find(report) == find(prices) == find(cpu) == []
