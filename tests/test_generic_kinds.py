"""Kinds gpulint has no entry for, read generically, and YAML read before templates are
assumed: made-up shapes beyond the operator fixtures."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

from gpulint.facts.model_decl import declared_model
from gpulint.model import Unknown
from gpulint.pipeline import ScanResult, run
from gpulint.ruleset import load_rules


def _scan(tmp_path: Path, files: dict[str, str]) -> ScanResult:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return run([str(tmp_path)], load_rules())


POD = """
    nodeSelector:
      cloud.google.com/gke-accelerator: nvidia-l4
    containers:
      - name: engine
        image: vllm/vllm-openai:v0.8.5
        args: ["--model", "Qwen/Qwen2.5-7B-Instruct"]
        resources:
          limits:
            nvidia.com/gpu: 1
"""


def _indent(text: str, n: int) -> str:
    return textwrap.indent(textwrap.dedent(text), " " * n)


def test_a_pod_template_deep_in_an_unknown_kind_is_priced_like_a_deployment(
        tmp_path: Path) -> None:
    made_up = ("apiVersion: widgets.example.org/v2\nkind: Thing\nmetadata: {name: t}\n"
               "spec:\n  deploy:\n    sizing: {replicas: 2}\n    stages:\n      main:\n"
               "        podTemplate:\n          spec:\n" + _indent(POD, 12))
    deployment = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n"
                  "  replicas: 2\n  template:\n    spec:\n" + _indent(POD, 6))
    result = _scan(tmp_path, {"thing.yaml": made_up, "deploy.yaml": deployment})
    thing = next(r for r in result.resources if r.address.startswith("Thing/"))
    dep = next(r for r in result.resources if r.address.startswith("Deployment/"))
    assert thing.facts["gpu.count"] == 1 and thing.facts["replicas.desired"] == 2
    assert thing.facts["gpu.model"] == dep.facts["gpu.model"] == "L4"
    # Priced on the same basis as the equivalent Deployment (whatever the catalog's price).
    assert isinstance(dep.facts.get("cost.monthly"), float)
    assert thing.facts.get("cost.monthly") == dep.facts["cost.monthly"]
    decl = declared_model(thing)
    assert decl is not None and decl.id == "Qwen/Qwen2.5-7B-Instruct"
    assert "read generically" in thing.facts["k8s.read_as"]
    assert "spec.deploy.stages.main.podTemplate" in thing.facts["k8s.read_as"]


def test_roles_multiply_the_objects_replicas_and_cpu_roles_are_not_gpu(tmp_path: Path) -> None:
    doc = ("apiVersion: x.example/v1\nkind: Job2\nmetadata: {name: j}\nspec:\n  replicas: 3\n"
           "  groups:\n  - name: gpu\n    size: 2\n    template:\n      spec:\n" + _indent(POD, 8)
           + "  - name: cpu\n    size: 5\n    template:\n      spec:\n        containers:\n"
           "        - {name: c, image: busybox, resources: {limits: {cpu: 1}}}\n")
    result = _scan(tmp_path, {"j.yaml": doc})
    assert [(r.address, r.facts["replicas.desired"]) for r in result.resources] == [
        ("Job2/j/gpu", 6)]


def test_a_service_map_with_a_bare_gpu_field_and_a_main_container(tmp_path: Path) -> None:
    doc = """
    apiVersion: graph.example.com/v1
    kind: ServingGraph
    metadata: {name: g}
    spec:
      services:
        router: {replicas: 1, main: {image: router:1}}
        worker:
          replicas: 2
          resources: {limits: {gpu: "2"}}
          main: {image: "vllm/vllm-openai:v0.8.5", args: [--model, Qwen/Qwen3-8B]}
    """
    result = _scan(tmp_path, {"g.yaml": doc})
    [res] = result.resources
    assert res.address == "ServingGraph/g/worker"
    assert res.facts["gpu.count"] == 2 and res.facts["replicas.desired"] == 2
    assert res.facts["k8s.resource"] == "nvidia.com/gpu"


def test_evidence_without_a_pod_shape_is_named_with_its_path(tmp_path: Path) -> None:
    docs = """
    apiVersion: llm.example.net/v1
    kind: Serve
    metadata: {name: a}
    spec: {accelerators: {profile: "amd-gpu-mi300x:4"}, model: m}
    ---
    apiVersion: llm.example.net/v1
    kind: Serve
    metadata: {name: b}
    spec: {hardware: {nodeSelector: {cloud.google.com/gke-accelerator: nvidia-h100-80gb}}}
    ---
    apiVersion: llm.example.net/v1
    kind: Serve
    metadata: {name: cpu}
    spec: {model: m, resources: {cpu: 4}}
    """
    result = _scan(tmp_path, {"s.yaml": docs})
    assert result.resources == []
    notes = {n.address: n.reason for n in result.module_notes}
    assert set(notes) == {"Serve/a", "Serve/b"}
    assert notes["Serve/a"].startswith("spec.accelerators.profile = amd-gpu-mi300x:4: ")
    assert "not in gpulint's kind table" in notes["Serve/a"]
    # One cause for both: the text report groups them on one line.
    assert len({r.rsplit(": ", 1)[1] for r in notes.values()}) == 1


def test_non_workloads_and_node_agents_name_nothing(tmp_path: Path) -> None:
    docs = """
    apiVersion: kueue.x-k8s.io/v1beta1
    kind: ClusterQueue
    metadata: {name: q}
    spec:
      resourceGroups:
      - coveredResources: [nvidia.com/gpu]
        flavors: [{name: a100, resources: [{name: nvidia.com/gpu, nominalQuota: 16}]}]
    ---
    apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: dcgm-exporter}
    spec:
      template:
        spec:
          nodeSelector: {nvidia.com/gpu.present: "true"}
          containers: [{name: dcgm, image: nvcr.io/nvidia/k8s/dcgm-exporter:4.1.1}]
    """
    result = _scan(tmp_path, {"q.yaml": docs})
    assert result.resources == [] and result.module_notes == []


def test_pods_that_select_gpu_nodes_without_requesting_gpus_are_named(tmp_path: Path) -> None:
    """Such a pod is a GPU resource: its model from the selector, its count could not be
    evaluated (it requests none), never dropped."""
    doc = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n"
           "    spec:\n      nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}\n"
           "      containers: [{name: c, image: x}]\n")
    result = _scan(tmp_path, {"d.yaml": doc})
    [res] = result.resources
    assert res.address == "Deployment/d" and res.facts.get("gpu.model") == "L4"
    assert any(fact == "gpu.count" for fact, _ in res.unknowns)


def test_argo_parameters_are_strings_not_helm_templates(tmp_path: Path) -> None:
    doc = """
    apiVersion: argoproj.io/v1alpha1
    kind: WorkflowTemplate
    metadata: {name: w}
    spec:
      templates:
      - name: run
        container:
          image: "{{inputs.parameters.image}}"
          args: ["--out", "/data/{{workflow.name}}"]
          resources: {limits: {nvidia.com/gpu: 4}}
    """
    result = _scan(tmp_path, {"w.yaml": doc})
    assert [(r.address, r.facts["gpu.count"]) for r in result.resources] == [
        ("WorkflowTemplate/w/run", 4)]


def test_values_with_tpl_strings_are_read_and_a_real_template_is_named(tmp_path: Path) -> None:
    values = """
    nameOverride: "{{ .Release.Name }}-x"
    job:
      replicas: 3
      logDir: "/logs/{{ .Release.Namespace }}"
      resources: {limits: {amd.com/gpu: 2}}
    """
    template = "gpus: {{ .Values.gpus }}\n{{- if .Values.on }}\nlimits:\n  nvidia.com/gpu: 1\n"
    result = _scan(tmp_path, {"values-train.yaml": values, "gpu.yaml": template})
    assert [(r.facts["gpu.count"], r.facts["replicas.desired"]) for r in result.resources] == [
        (2, 3)]
    [note] = result.module_notes
    assert note.path.endswith("gpu.yaml") and note.line == 4
    assert "template gpulint cannot read" in note.reason


def test_helm_unittest_specs_and_disabled_values_are_not_workloads(tmp_path: Path) -> None:
    spec = """
    suite: gpu
    templates: [deployment.yaml]
    tests:
    - it: requests a GPU
      set: {server: {resources: {limits: {nvidia.com/gpu: 1}}}}
    """
    values = """
    server:
      enabled: false
      resources: {limits: {nvidia.com/gpu: 1}}
    catalogProfiles:
      big: {limits: {nvidia.com/gpu: 8}}
    """
    result = _scan(tmp_path, {"tests/gpu_test.yaml": spec, "values-off.yaml": values})
    assert result.resources == [] and result.module_notes == []


def test_unit_of_a_generic_multi_role_object(tmp_path: Path) -> None:
    doc = ("apiVersion: kueue.x-k8s.io/v1beta1\nkind: Workload\nmetadata: {name: w}\nspec:\n"
           "  podSets:\n  - name: workers\n    count: 3\n    template:\n      spec:\n"
           + _indent(POD, 8))
    result = _scan(tmp_path, {"w.yaml": doc})
    [res] = result.resources
    assert res.facts["replicas.desired"] == 3
    assert res.facts.get("group.gpu_count") == 3 and res.facts.get("group.hosts") == 3


def _unknown(value: Any) -> bool:
    return isinstance(value, Unknown)


def test_a_per_node_object_has_an_unknown_pod_count(tmp_path: Path) -> None:
    doc = ("apiVersion: slinky.slurm.net/v1beta1\nkind: NodeSet\nmetadata: {name: n}\nspec:\n"
           "  scalingMode: DaemonSet\n  slurmd:\n    image: slurmd:25\n"
           "    resources: {limits: {nvidia.com/gpu: 4}}\n")
    [res] = _scan(tmp_path, {"n.yaml": doc}).resources
    assert res.facts["gpu.count"] == 4 and _unknown(res.facts["replicas.desired"])


def test_a_named_profile_is_read_from_chart_values_or_named(tmp_path: Path) -> None:
    model = """
    apiVersion: kubeai.org/v1
    kind: Model
    metadata: {name: m}
    spec: {url: "hf://Qwen/Qwen2.5-7B-Instruct", engine: VLLM, resourceProfile: "acme-gpu-x:4",
           minReplicas: 1, maxReplicas: 2}
    """
    alone = _scan(tmp_path / "a", {"m.yaml": model})
    [note] = alone.module_notes
    assert "acme-gpu-x:4" in note.reason and "not in the scan" in note.reason
    values = """
    resourceProfiles:
      acme-gpu-x:
        limits: {amd.com/gpu: "2"}
        nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}
      cpu: {requests: {cpu: 1}}
    """
    both = _scan(tmp_path / "b", {"m.yaml": model, "values-kubeai.yaml": values})
    [res] = both.resources
    assert res.facts["gpu.count"] == 8 and res.facts["k8s.resource"] == "amd.com/gpu"
    assert (res.facts["replicas.min"], res.facts["replicas.max"]) == (1, 2)
    decl = declared_model(res)
    assert decl is not None and decl.id == "Qwen/Qwen2.5-7B-Instruct"
    assert both.module_notes == []


def test_argo_parameters_fill_the_model_or_leave_it_unknown(tmp_path: Path) -> None:
    doc = """
    apiVersion: argoproj.io/v1alpha1
    kind: Workflow
    metadata: {generateName: ft-}
    spec:
      arguments: {parameters: [{name: base, value: Qwen/Qwen2.5-7B-Instruct}]}
      templates:
      - name: train
        container:
          image: pytorch
          args: [--model, "{{workflow.parameters.base}}"]
          resources: {limits: {nvidia.com/gpu: 1}}
      - name: serve
        container:
          image: vllm/vllm-openai
          args: [--model, "{{inputs.parameters.unknown}}"]
          resources: {limits: {nvidia.com/gpu: 1}}
    """
    result = _scan(tmp_path, {"w.yaml": doc})
    by_part = {r.address.rsplit("/", 1)[1]: r for r in result.resources}
    decl = declared_model(by_part["train"])
    assert decl is not None and decl.id == "Qwen/Qwen2.5-7B-Instruct"
    unknown = by_part["serve"].facts["model.id"]
    assert isinstance(unknown, Unknown) and "template parameter" in unknown.reason


def test_alternative_values_beside_a_chart_are_read(tmp_path: Path) -> None:
    files = {
        "chart/Chart.yaml": "apiVersion: v2\nname: srv\nversion: 0.1.0\n",
        "chart/values.yaml": "server:\n  image: vllm/vllm-openai\n  resources: {}\n",
        "chart/values-gpu.yaml": ("server:\n  image: vllm/vllm-openai\n  replicas: 2\n"
                                  "  resources: {limits: {nvidia.com/gpu: 1}}\n"),
        "chart/templates/deploy.yaml": "kind: Deployment\nreplicas: {{ .Values.x }}\n",
    }
    result = _scan(tmp_path, files)
    gpu = [r for r in result.resources if r.path.endswith("values-gpu.yaml")]
    assert [(r.facts["gpu.count"], r.facts["replicas.desired"]) for r in gpu] == [(1, 2)]


def test_values_files_in_a_directory_per_deployment_inside_a_chart_are_read(
        tmp_path: Path) -> None:
    # The shape of kubernetes-engine-samples' nemoRL chart: the chart's values.yaml, and a
    # directory per model holding its own values.yaml (helm install -f gemma3-27b-it/values.yaml).
    worker = ("additionalWorkerGroups:\n  worker-grp-0:\n    replicas: 4\n"
              "    image: {repository: nvcr.io/nvidia/nemo-rl, tag: v0.3.1}\n"
              "    resources: {limits: {nvidia.com/gpu: 8}}\n"
              "    nodeSelector: {cloud.google.com/gke-accelerator: nvidia-b200}\n")
    files = {
        "nemoRL/Chart.yaml": "apiVersion: v2\nname: nemo\nversion: 0.1.0\n",
        "nemoRL/values.yaml": "image: {repository: rayproject/ray}\n",
        "nemoRL/gemma3-27b-it/values.yaml": worker,
        # made-up: a values file two levels down, named differently
        "nemoRL/models/llama/values-h100.yaml": worker.replace("b200", "h100-80gb"),
        "nemoRL/ci/values-smoke.yaml": worker,  # chart test values: not a deployment
    }
    result = _scan(tmp_path, files)
    found = sorted((os.path.relpath(r.path, tmp_path), r.facts["gpu.count"], r.facts["gpu.model"])
                   for r in result.resources)
    assert found == [("nemoRL/gemma3-27b-it/values.yaml", 8, "B200"),
                     ("nemoRL/models/llama/values-h100.yaml", 8, "H100")]


def test_a_sample_under_a_kustomization_that_does_not_list_it_is_scanned(
        tmp_path: Path) -> None:
    import shutil

    import pytest

    if not (shutil.which("kustomize") or shutil.which("kubectl")):
        pytest.skip("needs kustomize or kubectl to build the kustomization")
    sample = ("apiVersion: serve.example.dev/v1\nkind: Runtime\nmetadata: {name: sample}\n"
              "spec:\n  deployment:\n    image: vllm/vllm-openai\n"
              "    resources: {limits: {nvidia.com/gpu: 1}}\n")
    listed = sample.replace("name: sample", "name: listed")
    kustomization = ("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                     "resources:\n  - listed.yaml\n")
    result = _scan(tmp_path, {"config/samples/kustomization.yaml": kustomization,
                              "config/samples/listed.yaml": listed,
                              "config/samples/sample-gpu.yaml": sample})
    assert sorted(r.address for r in result.resources) == ["Runtime/listed", "Runtime/sample"]
