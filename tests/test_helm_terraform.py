"""Helm values written in Terraform: helm_release values (heredoc, yamlencode, set, set lists),
chart values in the inputs of a module call that is not downloaded (the data add-ons module's
Karpenter NodePools and JupyterHub values through templatefile), and values that cannot be
evaluated. Prices are recomputed from the catalog rows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource, Unknown

FIXTURE = Path(__file__).parent / "fixtures" / "terraform-helm"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    prices = json.loads(CATALOG.read_text())["providers"]["aws"]["prices"]
    return float(prices[instance][region][0])


@pytest.fixture(scope="module")
def scanned() -> tuple[scan.ScanResult, dict[str, Resource]]:
    result = scan.run([str(FIXTURE)], [])
    # The JupyterHub profile is an option, reported apart from the resources (looked up alike).
    return result, {r.address: r for r in [*result.resources, *result.options]}


def _line(text: str) -> int:
    lines = (FIXTURE / "addons.tf").read_text().split("\n")
    return next(i + 1 for i, ln in enumerate(lines) if text in ln)


def test_every_release_found_once(scanned) -> None:
    _, res = scanned
    assert sorted(res) == [
        "HelmValues/embeddings",
        "HelmValues/jupyterhub/singleuser.profileList[1]", "HelmValues/triton",
        "NodePool/g5-gpu-karpenter", "helm_release.workers"]


def test_karpenter_nodepool_in_module_input_heredoc_is_a_node_pool(scanned) -> None:
    _, res = scanned
    pool = res["NodePool/g5-gpu-karpenter"]
    assert pool.path.endswith("addons.tf") and pool.line == _line("      nodePool:")
    assert pool.facts["gpu.model"] == "A10G" and pool.facts["gpu.count"] == 8  # its GPU limit
    assert pool.facts["cost.monthly"] == 0  # nodes exist while pods need them
    # The CPU pool of the same module call launches no accelerator: not a resource.
    assert not [a for a in res if "x86-cpu" in a]


def test_jupyterhub_values_through_templatefile(scanned) -> None:
    result, res = scanned
    nb = res["HelmValues/jupyterhub/singleuser.profileList[1]"]
    # Reported at the Terraform line that passes the values, under the input's name.
    assert nb.path.endswith("addons.tf") and nb.line == _line("jupyterhub_helm_config = {")
    assert nb.facts["k8s.namespace"] == "jupyterhub" and nb.facts["workload"] == "notebook"
    assert nb in result.options and nb not in result.resources
    assert nb.facts["node_pool"] == "NodePool/g5-gpu-karpenter"  # linked by its selector
    assert nb.facts["gpu.model"] == "A10G" and nb.facts["shutdown"] == "schedule"  # culler
    # The pool allows sizes 2xlarge, 4xlarge and 8xlarge only: the cheapest is g5.2xlarge.
    assert nb.facts["instance.allowed"] == ["g5.2xlarge", "g5.4xlarge", "g5.8xlarge"]
    assert nb.facts["cost.monthly"] == pytest.approx(_on_demand("g5.2xlarge") * HOURS, abs=0.01)
    # The values file is read with its release, not again on its own.
    assert not [r for r in result.resources if r.path.endswith("jupyterhub-values.yaml")]
    assert not [d for d in result.diagnostics if d.path.endswith("jupyterhub-values.yaml")]


def test_yamlencode_values_and_set_block(scanned) -> None:
    result, res = scanned
    triton = res["HelmValues/triton"]
    assert triton.line == _line("values = [yamlencode({")
    assert triton.facts["gpu.count"] == 1 and triton.facts["replicas.desired"] == 2  # set block
    assert triton.facts["k8s.namespace"] == "triton"
    assert any(d.message == "read 1 GPU request from the Helm values of helm_release.triton "
               "(not rendered)" and d.line == _line('resource "helm_release" "triton"')
               for d in result.diagnostics)


def test_set_list_with_escaped_dots(scanned) -> None:
    _, res = scanned
    emb = res["HelmValues/embeddings"]
    assert emb.facts["instance.type"] == "g5.xlarge" and emb.facts["gpu.count"] == 1
    assert emb.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * HOURS, abs=0.01)


def test_values_that_cannot_be_evaluated_but_ask_for_gpus(scanned) -> None:
    _, res = scanned
    workers = res["helm_release.workers"]
    assert workers.line == _line('resource "helm_release" "workers"')
    count = workers.facts["gpu.count"]
    assert isinstance(count, Unknown)
    assert count.reason.startswith("GPU settings in Helm values: variable extra_values has no "
                                   "default")


def test_unknown_interpolation_inside_heredoc_keeps_the_rest(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('''resource "helm_release" "llm" {
  name  = "llm"
  chart = "vllm"
  values = [<<-EOT
    image: ${var.image}
    resources:
      limits:
        nvidia.com/gpu: ${var.gpus}
    EOT
  ]
}
''')
    result = scan.run([str(tmp_path)], [])
    (llm,) = result.resources
    assert llm.address == "HelmValues/llm" and llm.line == 5
    assert isinstance(llm.facts["gpu.count"], Unknown)
    assert "'<var.gpus>' is not a whole number" in llm.facts["gpu.count"].reason


def test_values_file_outside_the_tree_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "secret.yaml"
    outside.write_text("worker:\n  resources:\n    limits:\n      nvidia.com/gpu: 1\n")
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / ".git").mkdir()
    (tmp_path / "repo" / "main.tf").write_text(
        'resource "helm_release" "w" {\n  name = "w"\n  chart = "x"\n'
        '  values = [file("../secret.yaml"), "# nvidia.com/gpu"]\n}\n')
    result = scan.run([str(tmp_path / "repo")], [])
    (res,) = result.resources
    assert "outside the scanned tree" in res.facts["gpu.count"].reason
    assert os.path.basename(res.path) == "main.tf"


OLLAMA = '''variable "enable_gpu" {
  type = bool
}

resource "helm_release" "ollama" {
  name       = "ollama"
  repository = "https://otwld.github.io/ollama-helm/"
  chart      = "ollama"
  namespace  = "ollama"
  values = [<<-EOT
    ollama:
      models:
        pull:
          - llama3.1:8b
    %{ if var.enable_gpu ~}
    resources:
      limits:
        nvidia.com/gpu: 1
    nodeSelector:
      node.kubernetes.io/instance-type: g5.xlarge
    %{ endif ~}
    persistentVolume:
      enabled: true
  EOT
  ]
}
'''


def test_values_behind_an_unknown_directive_are_not_evaluated_never_dropped(
        tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(OLLAMA)
    (res,) = scan.run([str(tmp_path)], []).resources
    assert res.address.startswith("helm_release.ollama")
    assert any("variable enable_gpu has no default" in why for _, why in res.unknowns)
    (tmp_path / "terraform.tfvars").write_text("enable_gpu = true\n")
    (res,) = scan.run([str(tmp_path)], []).resources
    assert res.facts["instance.type"] == "g5.xlarge"
    assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * 730, abs=0.01)
    (tmp_path / "terraform.tfvars").write_text("enable_gpu = false\n")
    assert scan.run([str(tmp_path)], []).resources == []
