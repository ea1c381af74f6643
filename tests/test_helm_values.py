"""Helm values read when a chart cannot be rendered: helmfile releases of remote charts,
JupyterHub profiles, vLLM production-stack model specs, NIM and KubeRay values, and charts whose
dependencies are not vendored. Prices are recomputed from the catalog rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.facts.model_decl import declared_model
from gpulint.model import Resource
from gpulint.render import helm

FIXTURE = Path(__file__).parent / "fixtures" / "helm"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    prices = json.loads(CATALOG.read_text())["providers"]["aws"]["prices"]
    return float(prices[instance][region][0])


def _scan(monkeypatch: pytest.MonkeyPatch, sdk: bool = True) -> tuple[scan.ScanResult,
                                                                       dict[str, Resource]]:
    monkeypatch.setenv("PATH", str(FIXTURE / "no-such-bin"))  # no helm binary
    if not sdk:
        monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    result = scan.run([str(FIXTURE)], [])
    # JupyterHub profiles are options, reported apart from the resources (looked up alike).
    return result, {r.address: r for r in [*result.resources, *result.options]}


@pytest.fixture(scope="module")
def scanned() -> tuple[scan.ScanResult, dict[str, Resource]]:
    with pytest.MonkeyPatch.context() as mp:
        return _scan(mp, sdk=False)


def test_every_gpu_request_once_and_no_failing_diagnostic(scanned) -> None:
    result, by_address = scanned
    assert sorted(by_address) == [
        "HelmValues/chat", "HelmValues/deepseek-distill", "HelmValues/embedder",
        "HelmValues/hub/singleuser.profileList[1]",
        "HelmValues/hub/singleuser.profileList[2]", "HelmValues/nim-umbrella/nim-llm",
        "HelmValues/ray/additionalWorkerGroups.big", "HelmValues/ray/worker",
        "HelmValues/vllm-stack/servingEngineSpec.modelSpec[0]",
        "HelmValues/vllm-stack/servingEngineSpec.modelSpec[1]"]
    assert {d.severity for d in result.diagnostics} == {"info"}
    assert all(r.type == "HelmValues" for r in result.resources)
    assert sorted(r.address for r in result.options) == [
        "HelmValues/hub/singleuser.profileList[1]", "HelmValues/hub/singleuser.profileList[2]"]


def test_vllm_production_stack_model_specs(scanned) -> None:
    _, res = scanned
    small = res["HelmValues/vllm-stack/servingEngineSpec.modelSpec[0]"]
    assert small.path.endswith(os.path.join("values", "vllm-stack.yaml")) and small.line == 5
    assert small.facts["gpu.count"] == 1 and small.facts["instance.type"] == "g6e.xlarge"
    assert small.facts["k8s.namespace"] == "inference" and small.facts["workload"] == "inference"
    assert declared_model(small).id == "meta-llama/Llama-3.1-8B-Instruct"
    assert small.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.xlarge") * HOURS * 2,
                                                        abs=0.01)
    big = res["HelmValues/vllm-stack/servingEngineSpec.modelSpec[1]"]
    assert big.line == 24 and big.facts["gpu.count"] == 4
    assert declared_model(big).tensor_parallel == 4
    assert big.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.12xlarge") * HOURS, abs=0.01)


def test_jupyterhub_gpu_profiles_are_notebooks_with_the_culler(scanned) -> None:
    _, res = scanned
    l4 = res["HelmValues/hub/singleuser.profileList[1]"]
    assert l4.line == 24 and l4.facts["workload"] == "notebook"
    assert l4.facts["option"] == "JupyterHub profile One L4 GPU"  # a choice, not a server
    assert l4.facts["gpu.model"] == "L4" and l4.facts["capacity"] == "on-demand"
    assert l4.facts["shutdown"] == "schedule"  # cull.enabled, timeout 1800 s
    a100 = res["HelmValues/hub/singleuser.profileList[2]"]
    assert a100.facts["gpu.count"] == 2 and a100.facts["capacity"] == "spot"


def test_nim_inline_values_of_a_helmfile_release(scanned) -> None:
    _, res = scanned
    nim = res["HelmValues/embedder"]
    assert nim.path.endswith("helmfile.yaml") and nim.line == 37
    assert nim.facts["replicas.desired"] == 2 and nim.facts["instance.type"] == "g6.xlarge"
    assert nim.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * HOURS * 2, abs=0.01)


def test_kuberay_worker_groups_scale_with_the_autoscaler(scanned) -> None:
    _, res = scanned
    worker = res["HelmValues/ray/worker"]
    assert (worker.facts["replicas.min"], worker.facts["replicas.max"]) == (1, 4)
    assert worker.facts["gpu.model"] == "A10G"
    big = res["HelmValues/ray/additionalWorkerGroups.big"]
    assert big.facts["gpu.count"] == 8 and big.facts["cost.monthly"] == 0.0


def test_unvendored_dependency_values_are_read_under_its_key(scanned) -> None:
    _, res = scanned
    nim = res["HelmValues/nim-umbrella/nim-llm"]
    assert nim.path.endswith(os.path.join("nim-umbrella", "values.yaml")) and nim.line == 1
    assert declared_model(nim).id == "meta/llama-3.1-8b-instruct"


def test_local_chart_release_without_renderer_reads_release_values(scanned) -> None:
    _, res = scanned
    chat = res["HelmValues/chat"]  # chart values.yaml merged with values/serving-prod.yaml
    assert chat.facts["replicas.desired"] == 3 and chat.facts["instance.type"] == "g5.xlarge"
    assert chat.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * HOURS * 3,
                                                       abs=0.01)


def test_local_chart_release_rendered_by_the_helm_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("helm_python")
    result, res = _scan(monkeypatch)
    # The release name and namespace from helmfile.yaml.
    chat = res["Deployment/inference/chat-llm-serving"]
    assert chat.path.endswith(os.path.join("templates", "deployment.yaml")) and chat.line == 2
    assert chat.facts["replicas.desired"] == 3 and chat.facts["instance.type"] == "g5.xlarge"
    assert declared_model(chat).id == "Qwen/Qwen2.5-7B-Instruct"
    assert "HelmValues/chat" not in res
    notes = [d.message for d in result.diagnostics if d.path.endswith(
        os.path.join("llm-serving", "Chart.yaml"))]
    version = pytest.importorskip("helm_python").helm_sdk_version()
    assert notes == [f"chart rendered with Helm SDK {version} (release chat)"]


def test_values_file_that_cannot_be_read_is_a_note(tmp_path: Path) -> None:
    (tmp_path / "values.yaml").write_text("worker:\n  resources:\n    limits:\n"
                                          "      nvidia.com/gpu: [1\n")
    result = scan.run([str(tmp_path)], [])
    (diag,) = result.diagnostics
    assert diag.severity == "info" and diag.message.startswith("values not read: YAML parse error")
    assert result.resources == []


def test_helm_release_heredoc_values_in_terraform(scanned) -> None:
    result, res = scanned
    vllm = res["HelmValues/deepseek-distill"]  # the release's literal name, not the resource's
    assert vllm.path.endswith(os.path.join("terraform", "serving.tf")) and vllm.line == 11
    assert vllm.facts["k8s.namespace"] == "deepseek" and vllm.facts["replicas.desired"] == 2
    assert vllm.facts["gpu.model"] == "L4" and vllm.facts["workload"] == "inference"
    assert declared_model(vllm).id == "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"
    # The device plugin's values only tolerate GPU taints: no GPU request, no resource.
    assert not [a for a in res if "device-plugin" in a]
    assert any(d.message == "read 1 GPU request from the Helm values of "
               "helm_release.deepseek_distill (not rendered)" and d.line == 2
               for d in result.diagnostics)
