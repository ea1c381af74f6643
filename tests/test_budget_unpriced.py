"""A budget cannot pass what it cannot price: a GPU resource the change adds without a price
fails a budgeted diff, with "not priced" and the verdict in every format, unless
--allow-unpriced; --strict fails on any unpriced GPU resource after the change.

The reference price is a public list price written here, not read from gpulint's catalog:
g5.xlarge, Linux, us-east-1, $1.006/h (aws.amazon.com/ec2/pricing/on-demand/, as recorded by
instances.vantage.sh data, tsaol/aws-gpu snapshot 2026-01-21)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.reporters import markdown

G5_XLARGE_MONTH = round(1.006 * 730, 2)

PRICED = """apiVersion: apps/v1
kind: Deployment
metadata: {name: small, labels: {team: a, project: b, env: prod}}
spec:
  replicas: 1
  selector: {matchLabels: {app: small}}
  template:
    metadata: {labels: {app: small}}
    spec:
      nodeSelector: {node.kubernetes.io/instance-type: g5.xlarge}
      containers: [{name: s, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]
"""
# 8× H100 named only by the GPU product label: nothing says which cloud, so no price.
UNPRICED = """apiVersion: apps/v1
kind: Deployment
metadata: {name: big, labels: {team: a, project: b, env: prod}}
spec:
  replicas: 1
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec:
      nodeSelector: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
      containers: [{name: s, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                        "-c", "init.defaultBranch=main", *args], cwd=tmp_path, check=True,
                       capture_output=True)
    git("init")
    (tmp_path / "small.yaml").write_text(PRICED)
    git("add", ".")
    git("commit", "-m", "base")
    (tmp_path / "big.yaml").write_text(UNPRICED)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _diff(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, ["diff", "--base", "HEAD", ".", "--no-cache", *args])
    return r.exit_code, r.stdout, r.stderr


def test_an_unpriced_addition_fails_a_budget_in_every_format(repo: Path) -> None:
    code, out, err = _diff("--max-increase", "1000", "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["max_increase_exceeded"]
    assert d["delta_usd"] == 0.0  # the priced total did not move: $0 would have passed
    assert d["head_monthly_usd"] == pytest.approx(G5_XLARGE_MONTH, abs=0.02)
    b = d["budget"]
    assert b["status"] == "unpriced" and b["failed"]
    assert [u["address"] for u in b["unpriced"]] == ["Deployment/big"]
    assert "cloud unknown" in b["unpriced"][0]["reason"] and "not priced" in err
    for fmt in ("text", "markdown", "html"):
        code, out, _ = _diff("--max-increase", "1000", "--format", fmt)
        flat = " ".join(out.split())
        assert code == 1 and "not priced" in flat, fmt
        assert "Budget check fails, not priced: Deployment/big" in flat.replace("\\", ""), fmt
    assert "added, not priced" in _diff("--max-increase", "1000", "--format", "html")[1]


def test_the_pr_comment_says_not_priced_and_the_verdict(repo: Path) -> None:
    scan = CliRunner().invoke(cli, ["scan", ".", "--format", "json", "--no-cache",
                                    "--fail-on", "never"])
    _code, out, _ = _diff("--max-increase", "1000", "--format", "json")
    body = markdown.render(json.loads(scan.stdout), json.loads(out))
    assert "> [!CAUTION]" in body and "not priced" in body.replace("\\", "")
    assert "Budget check fails" in body and "`Deployment/big` added · not priced" in body


def test_allow_unpriced_and_no_budget_pass_strict_fails(repo: Path) -> None:
    code, out, _ = _diff("--max-increase", "1000", "--allow-unpriced")
    assert code == 0 and "allowed by --allow-unpriced" in out
    code, out, _ = _diff()
    assert code == 0 and "1 changed resource not priced" in out
    code, out, err = _diff("--strict")
    assert code == 1 and "--strict: 1 GPU resource(s) after the change are not priced" in err


def test_a_priced_change_within_budget_passes(repo: Path) -> None:
    (repo / "big.yaml").unlink()
    (repo / "small.yaml").write_text(PRICED.replace("replicas: 1", "replicas: 2"))
    code, out, _ = _diff("--max-increase", "1000", "--format", "json")
    d: dict[str, Any] = json.loads(out)
    assert code == 0 and d["budget"]["status"] == "within"
    assert d["delta_usd"] == pytest.approx(G5_XLARGE_MONTH, abs=0.02)
