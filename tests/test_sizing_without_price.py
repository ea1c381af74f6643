"""Sizing does not depend on a price: an oversized box is flagged whether or not it is priced,
a region without a current-generation fit still reports (or explains) the oversize, and the
idle-GPU fix never offers fewer GPUs than the model needs.

Public figures used (not read back from gpulint's catalog):
- AWS EC2 On-Demand, Linux, us-east-1 (aws.amazon.com/ec2/pricing/on-demand/, as recorded by
  instances.vantage.sh data, tsaol/aws-gpu snapshot 2026-01-21): p5.48xlarge (8× H100 80 GB)
  $55.04/h, g6e.xlarge (1× L40S 48 GB) $1.861/h.
- meta-llama/Llama-3.1-8B-Instruct has 8.03B parameters (Hugging Face model card); in bf16 its
  weights alone are 16 GB, far from the 640 GB of eight H100s.
- The A10G of g5 instances: 22,888 MiB (22.35 GiB) as EC2 DescribeInstanceTypes reports it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.pricing import catalog

ROOT = Path(__file__).resolve().parents[1]
P5_MONTH, G6E_XLARGE_MONTH = round(55.04 * 730, 2), round(1.861 * 730, 2)

H100_BOX = """provider "aws" { region = "us-east-1" }
resource "aws_instance" "llm" {
  instance_type = "p5.48xlarge"
  tags = { model = "meta-llama/Llama-3.1-8B-Instruct", workload = "inference",
           team = "ml", project = "chat", env = "prod" }
}
"""


def _scan(*args: str) -> dict[str, Any]:
    r = CliRunner().invoke(cli, ["scan", *args, "--format", "json", "--fail-on", "never",
                                 "--no-cache"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _finding(report: dict[str, Any], rule: str, address: str) -> dict[str, Any]:
    return next(f for f in report["findings"] if f["rule"] == rule and f["address"] == address)


def test_an_8x_h100_box_serving_an_8b_model_is_oversized_with_a_price(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(H100_BOX)
    report = _scan(str(tmp_path))
    (res,) = report["resources"]
    assert res["monthly_cost_usd"] == pytest.approx(P5_MONTH, abs=0.05)
    f = _finding(report, "gpu-oversized-for-model", "aws_instance.llm")
    assert "the cheapest fit is g6e.xlarge (1× L40S" in f["message"]
    assert f["monthly_saving_usd"] == pytest.approx(P5_MONTH - G6E_XLARGE_MONTH, abs=0.05)


def test_and_without_a_price(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The p5.48xlarge row missing from the catalog: the fit is still decided, so the finding
    fires, naming the fit with the saving not known and why."""
    listed = catalog.price

    def without_p5(provider: str, name: str, region: str) -> Any:
        return None if name == "p5.48xlarge" else listed(provider, name, region)

    monkeypatch.setattr(catalog, "price", without_p5)
    (tmp_path / "main.tf").write_text(H100_BOX)
    report = _scan(str(tmp_path))
    (res,) = report["resources"]
    assert res["monthly_cost_usd"] is None
    f = _finding(report, "gpu-oversized-for-model", "aws_instance.llm")
    assert f["monthly_saving_usd"] is None
    assert "g6e.xlarge (1× L40S" in f["message"] and "the saving is not known" in f["message"]
    assert f["saving_basis"].startswith("not known: the resource is not priced")


def test_examples_in_eu_west_1_report_the_oversize() -> None:
    """No current-generation fit is priced in eu-west-1 in the bundled tables: the oversize of
    the 8× A100 example still shows, on an older GPU that holds the model, and says so."""
    report = _scan(str(ROOT / "examples"), "--var", "region=eu-west-1")
    f = _finding(report, "gpu-oversized-for-model", "aws_instance.llm_server")
    assert "in eu-west-1" in f["message"] and f["monthly_saving_usd"] > 10_000
    assert "previous generation, as no current-generation GPU that holds it is priced here" \
        in f["message"]


def test_no_fit_in_the_region_is_could_not_evaluate(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing that holds the model priced where the box runs: said, never dropped."""
    from gpulint.pricing import offers

    monkeypatch.setattr(offers, "cheapest_offer", lambda *a, **k: None)
    (tmp_path / "main.tf").write_text(H100_BOX)
    report = _scan(str(tmp_path))
    assert not [f for f in report["findings"] if f["rule"] == "gpu-oversized-for-model"]
    (note,) = [n for n in report["not_evaluated"] if n["rule"] == "gpu-oversized-for-model"]
    assert "is priced in aws us-east-1, so no smaller fit can be named" in note["reason"]


IDLE = """apiVersion: apps/v1
kind: Deployment
metadata: {name: llama, namespace: ml, labels: {team: ml, project: chat, env: prod}}
spec:
  replicas: 1
  selector: {matchLabels: {app: llama}}
  template:
    metadata: {labels: {app: llama}}
    spec:
      nodeSelector: {node.kubernetes.io/instance-type: g5.12xlarge}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3
          command: ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]
          resources: {limits: {nvidia.com/gpu: 4}}
"""


def test_the_idle_gpu_fix_never_offers_fewer_gpus_than_the_model_needs(tmp_path: Path) -> None:
    (tmp_path / "llama.yaml").write_text(IDLE)
    report = _scan(str(tmp_path))
    (res,) = report["resources"]
    need = res["model"]["estimate"]
    assert need.endswith("25.0 GiB") and res["gpu_memory_gib"] == pytest.approx(22.35)
    f = _finding(report, "gpu-unused-by-parallelism", "Deployment/ml/llama")
    assert "request 1 GPU" not in f["message"]
    assert "request 2 GPUs per pod and raise the tensor parallelism to 2" in f["message"]
    # Half the GPUs: half the pod's cost saved, no more.
    assert f["monthly_saving_usd"] == pytest.approx(res["monthly_cost_usd"] / 2, abs=0.02)
