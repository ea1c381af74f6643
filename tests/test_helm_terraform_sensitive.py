"""Terraform `set_sensitive` on a helm_release: read like `set` where it sizes or places a pod
(a GPU count, a node selector), never quoted in a message, and not applied elsewhere (an API
key). The release is shaped like NVIDIA's NIM chart installed by Terraform. Prices are
recomputed from the catalog row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.model import Unknown

CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730
SECRET = "nvapi-0123456789abcdef"

NIM = '''variable "ngc_api_key" {
  type      = string
  sensitive = true
  default   = "%s"
}

variable "gpus" {
  type      = string
  sensitive = true
  default   = "%s"
}

resource "helm_release" "nim" {
  name       = "llama3-8b"
  repository = "https://helm.ngc.nvidia.com/nim"
  chart      = "nim-llm"
  namespace  = "nim"

  values = [<<-EOT
    image:
      repository: nvcr.io/nim/meta/llama3-8b-instruct
      tag: 1.0.3
    EOT
  ]

  set_sensitive {
    name  = "model.ngcAPIKey"
    value = var.ngc_api_key
  }

  set_sensitive {
    name  = "resources.limits.nvidia\\\\.com/gpu"
    value = var.gpus
  }

  set_sensitive {
    name  = "nodeSelector.node\\\\.kubernetes\\\\.io/instance-type"
    value = "g6e.xlarge"
  }
}
'''


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    prices = json.loads(CATALOG.read_text())["providers"]["aws"]["prices"]
    return float(prices[instance][region][0])


def _line(text: str, needle: str) -> int:
    return next(i + 1 for i, ln in enumerate(text.split("\n")) if needle in ln)


def test_set_sensitive_gpu_count_and_selector_are_read(tmp_path: Path) -> None:
    tf = NIM % (SECRET, "1")
    (tmp_path / "nim.tf").write_text(tf)
    result = scan.run([str(tmp_path)], [])
    (nim,) = result.resources
    assert nim.address == "HelmValues/llama3-8b" and nim.facts["k8s.namespace"] == "nim"
    assert nim.facts["gpu.count"] == 1 and nim.facts["instance.type"] == "g6e.xlarge"
    assert nim.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.xlarge") * HOURS,
                                                      abs=0.01)
    # The pod's values start in the heredoc: reported there.
    assert nim.line == _line(tf, "image:")
    for fmt in ("json", "text", "markdown"):  # the API key is not applied, so never shown
        out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--format", fmt, "-v"]).output
        assert "llama3-8b" in out and SECRET not in out


def test_a_sensitive_gpu_count_that_is_not_a_number_is_not_quoted(tmp_path: Path) -> None:
    (tmp_path / "nim.tf").write_text(NIM % (SECRET, "s3cr3t-count"))
    result = scan.run([str(tmp_path)], [])
    (nim,) = result.resources
    count = nim.facts["gpu.count"]
    assert isinstance(count, Unknown) and "s3cr3t-count" not in count.reason
    assert "<sensitive value>" in count.reason
