"""Malformed manifests never raise: any shape in any field gives facts or unknowns, not a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpulint.facts import kubernetes as k8s_facts
from gpulint.facts.kubernetes import link as linking
from gpulint.facts.kubernetes.registry import table
from gpulint.load.kubernetes import K8sObject
from gpulint.pricing import price as cost

pytestmark = pytest.mark.slow

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.text(max_size=8),
                     st.sampled_from(["1", "0", "spot", "In", "NotIn", "Exists", "NoSchedule",
                                      "nvidia.com/gpu", "vllm", "serve", "$(X)"]))
_keys = st.sampled_from([
    "spec", "template", "containers", "resources", "limits", "requests", "nvidia.com/gpu",
    "nvidia.com/mig-1g.10gb", "google.com/tpu", "aws.amazon.com/neuroncore", "nodeSelector",
    "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
    "nodeSelectorTerms", "matchExpressions", "key", "operator", "values", "tolerations", "env",
    "envFrom", "configMapRef", "valueFrom", "configMapKeyRef", "name", "value", "command", "args",
    "replicas", "minReplicas", "maxReplicas", "workerGroupSpecs", "headGroupSpec", "predictor",
    "model", "storageUri", "pytorchReplicaSpecs", "Worker", "leaderWorkerTemplate", "size",
    "workerTemplate", "replicatedJobs", "trainer", "resourcesPerNode", "numNodes", "metadata",
    "labels", "annotations", "scaleTargetRef", "minReplicaCount", "requirements", "taints",
    "data", "initContainers", "jobTemplate", "parallelism", "rayClusterSpec", "disruption",
    # operator kinds, eksctl, Karpenter node classes
    "resource", "instanceType", "count", "inference", "tuning", "preset", "config", "roles",
    "baseRefs", "worker", "prefill", "tensor", "pipeline", "dataLocal", "expert", "scaling",
    "replicaSpecs", "executor", "driver", "gpu", "quantity", "instances", "dynamicAllocation",
    "sparkConf", "tasks", "plugins", "runtimeRef", "mlPolicy", "nodeGroups", "managedNodeGroups",
    "instanceTypes", "spot", "instancesDistribution", "desiredCapacity", "numOfHosts", "image",
    "repository", "scale", "hpa", "nodeClassRef", "tags", "compute", "embedding", "uri",
])
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=4)), max_leaves=25)
# (API group, kind): every kind of the table, the ones read outside it, and a made-up one
# (read generically).
_kinds = st.sampled_from([*sorted(table()), ("acme.example", "Thing"),
                          ("autoscaling", "HorizontalPodAutoscaler"), ("keda.sh", "ScaledObject"),
                          ("", "ConfigMap"), ("", "Service"), ("", "Namespace"),
                          ("eksctl.io", "ClusterConfig"), ("karpenter.k8s.aws", "EC2NodeClass"),
                          ("serving.kserve.io", "LLMInferenceServiceConfig"),
                          ("trainer.kubeflow.org", "TrainingRuntime")])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_kinds, st.dictionaries(_keys, _values, max_size=5)),
                min_size=1, max_size=4))
def test_any_shape_gives_facts_not_exceptions(
        docs: list[tuple[tuple[str, str], dict[str, Any]]]) -> None:
    objects = [K8sObject("x.yaml", i + 1, {"apiVersion": f"{group}/v1" if group else "v1",
                                           "kind": kind, **body})
               for i, ((group, kind), body) in enumerate(docs)]
    resources = k8s_facts.build_all(objects)
    linking.link(resources, objects)
    for res in resources:
        cost.price_resource(res)
        assert res.source == "kubernetes"


def _fixture_objects() -> list[K8sObject]:
    import glob
    import os

    from gpulint.load.kubernetes import load_documents

    here = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes")
    out: list[K8sObject] = []
    for path in sorted(glob.glob(os.path.join(here, "**", "*.yaml"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            out.extend(load_documents(path, fh.read())[0])
    return out


_REAL = _fixture_objects()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*prefix, i))
    return found


def _replace(doc: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    if isinstance(doc, dict):
        return {k: (_replace(v, path[1:], new) if k == path[0] else v) for k, v in doc.items()}
    return [(_replace(v, path[1:], new) if i == path[0] else v) for i, v in enumerate(doc)]


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_real_manifests_with_one_field_replaced(data: st.DataObject) -> None:
    """Every fixture document, with any field swapped for any value, still scans."""
    objects = list(_REAL)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(objects) - 1))
        paths = _paths(objects[i].doc)
        path = data.draw(st.sampled_from(paths)) if paths else ()
        if path[:1] in {("kind",), ("apiVersion",)}:
            continue
        doc = _replace(objects[i].doc, path, data.draw(_values))
        objects[i] = K8sObject(objects[i].path, objects[i].line, doc)
    resources = k8s_facts.build_all(objects)
    linking.link(resources, objects)
    for res in resources:
        cost.price_resource(res)
        # A negative count (replicas: -1) is not a cost that subtracts from the total.
        monthly = res.facts.get("cost.monthly")
        assert not isinstance(monthly, (int, float)) or monthly >= 0, (res.address, monthly)
