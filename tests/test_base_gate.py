"""The gate belongs to the base branch, through the real CLI and a git repository built here:
the base commit says fail_on: warning; a head that loosens fail_on, ignore or exclude gets the
change named and not applied, by `gpulint diff --base` and `gpulint scan --gate-base`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

# A GPU Deployment (1× A10G on g5.xlarge) without the cost labels: a gpu-missing-cost-tags
# warning, so fail_on: warning fails it.
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: reranker}
spec:
  replicas: 1
  template:
    spec:
      nodeSelector: {node.kubernetes.io/instance-type: g5.xlarge}
      containers:
        - name: server
          image: ghcr.io/acme/reranker:2.3.1
          resources: {limits: {nvidia.com/gpu: 1}}
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@example.com",
                    "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                   capture_output=True)


def _gpulint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
           "GPULINT_CACHE_DIR": str(cwd.parent / "cache")}
    return subprocess.run([sys.executable, "-m", "gpulint", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _repo(tmp_path: Path, base: str | None, head: str) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    _git(work, "init")
    (work / "deploy.yaml").write_text(DEPLOYMENT)
    if base is not None:
        (work / ".gpulint.yaml").write_text(base)
    _git(work, "add", ".")
    _git(work, "commit", "-m", "base")
    (work / ".gpulint.yaml").write_text(head)
    _git(work, "add", ".")
    _git(work, "commit", "-m", "head")
    return work


LOOSER = [("fail_on: never\n", "fail_on warning → never"),
          ("fail_on: warning\nignore: [gpu-missing-cost-tags]\n",
           "ignore (unset) → ['gpu-missing-cost-tags']"),
          ("fail_on: warning\nexclude: ['**']\n", "exclude (unset) → ['**']")]


@pytest.mark.parametrize(("head", "change"), LOOSER)
def test_scan_gated_by_the_base_fails_whatever_the_head_says(tmp_path: Path, head: str,
                                                              change: str) -> None:
    work = _repo(tmp_path, "fail_on: warning\n", head)
    assert _gpulint(work, "scan", ".").returncode in (0, 1)  # the head alone may pass
    done = _gpulint(work, "scan", "--gate-base", "HEAD~1", "--format", "json", ".")
    assert done.returncode == 1, done.stderr
    assert change in done.stderr and "not applied to its own run" in done.stderr
    rules = {f["rule"] for f in json.loads(done.stdout)["findings"]}
    assert "gpu-missing-cost-tags" in rules


@pytest.mark.parametrize(("head", "change"), LOOSER)
def test_diff_shows_the_gate_change_and_keeps_the_base_gate(tmp_path: Path, head: str,
                                                            change: str) -> None:
    work = _repo(tmp_path, "fail_on: warning\n", head)
    done = _gpulint(work, "diff", "--base", "HEAD~1", "--format", "json", ".")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["gate_changes"] == [change]
    md = _gpulint(work, "diff", "--base", "HEAD~1", "--format", "markdown", ".").stdout
    assert f"not applied to its own run: `{change}`" in md


def test_a_base_without_configuration_gates_with_the_defaults(tmp_path: Path) -> None:
    """Adding a configuration that says fail_on: never does not pass its own pull request."""
    work = _repo(tmp_path, None, "fail_on: never\n")
    done = _gpulint(work, "scan", "--gate-base", "HEAD~1", ".")
    assert done.returncode == 1 and "fail_on (unset) → never" in done.stderr


def test_non_gating_settings_stay_the_heads(tmp_path: Path) -> None:
    """usage_hours is pricing, not gating: the head's value prices the head, silently."""
    work = _repo(tmp_path, "fail_on: warning\n",
                 "fail_on: warning\nusage_hours:\n  default: 100\n")
    done = _gpulint(work, "scan", "--gate-base", "HEAD~1", "--format", "json", ".")
    assert "gating settings" not in done.stderr
    assert json.loads(done.stdout)["hours_per_month"] == 100


def test_an_invalid_base_configuration_is_a_diagnostic(tmp_path: Path) -> None:
    work = _repo(tmp_path, "fail_on: sometimes\n", "fail_on: warning\n")
    done = _gpulint(work, "scan", "--gate-base", "HEAD~1", ".")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert ":.gpulint.yaml:1: fail_on" in done.stderr, done.stderr


def test_an_unknown_base_is_a_usage_error(tmp_path: Path) -> None:
    work = _repo(tmp_path, "fail_on: warning\n", "fail_on: never\n")
    done = _gpulint(work, "scan", "--gate-base", "no-such-branch", ".")
    assert done.returncode == 2 and "unknown git revision 'no-such-branch'" in done.stderr
