"""The action's steps run as the scripts they are (action.yml `run:` blocks, in bash) against a
pull-request checkout with an origin, and the loopback GitHub for the comment: the guardrail
keeps the diff, the comment says over budget, the job fails after commenting, and the
configuration's fail_on and max_increase_usd apply when the inputs are empty."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from github_fake import FakeGitHub

ROOT = Path(__file__).resolve().parents[1]
REPO, PR, TOKEN = "acme/inference", 12, "ghs_actionsTOKENvalue000000000000000001"
HEAD_SHA = "c" * 40

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("bash") is None or shutil.which("git") is None, reason="needs bash and git")]

# A serving Deployment pinned to g5.xlarge (1× A10G) without the `env` cost label (a
# gpu-missing-cost-tags warning); the pull request scales it from 1 to 12 replicas.
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: reranker
  namespace: search
  labels: {{team: search, project: ranking}}
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: reranker}}
  template:
    metadata:
      labels: {{app: reranker, team: search, project: ranking}}
    spec:
      nodeSelector:
        node.kubernetes.io/instance-type: g5.xlarge
      containers:
        - name: server
          image: ghcr.io/acme/reranker:2.3.1
          resources:
            limits:
              nvidia.com/gpu: 1
"""


def _steps() -> dict[str, dict[str, Any]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return {s.get("id") or s["name"]: s for s in action["runs"]["steps"] if "run" in s}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=ci", "-c", "user.email=ci@example.com",
                    "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A pull-request checkout whose origin has the base branch `main`."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    _git(tmp_path, "init", "--bare", str(origin))
    work.mkdir()
    _git(work, "init")
    (work / "deploy").mkdir()
    (work / "deploy" / "reranker.yaml").write_text(DEPLOYMENT.format(replicas=1))
    _git(work, "add", ".")
    _git(work, "commit", "-m", "reranker")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "origin", "main")
    _git(work, "checkout", "-b", "scale-up")
    (work / "deploy" / "reranker.yaml").write_text(DEPLOYMENT.format(replicas=12))
    _git(work, "commit", "-am", "scale up")
    return work


def _run(step: dict[str, Any], work: Path, env: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    """Run one step's script as the runner would: inputs through its env, outputs read back."""
    bin_dir = work.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "gpulint"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gpulint "$@"\n')
    shim.chmod(0o755)
    outputs = work.parent / f"output-{step.get('id') or 'comment'}"
    outputs.write_text("")
    full = {**{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GPULINT_"))},
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT / "src"), "GPULINT_CACHE_DIR": str(work.parent / "cache"),
            "RUNNER_TEMP": str(work.parent / "runner"), "GITHUB_OUTPUT": str(outputs),
            "GITHUB_STEP_SUMMARY": str(work.parent / "summary.md"),
            "GITHUB_BASE_REF": "main", "GITHUB_REPOSITORY": REPO,
            "GITHUB_EVENT_PATH": str(work.parent / "event.json")}
    for key in step.get("env") or {}:
        full[key] = env.get(key, "")
    full.update({k: v for k, v in env.items() if k not in full or k.startswith("GITHUB_")})
    proc = subprocess.run(["bash", "-c", step["run"]], cwd=work, env=full, capture_output=True,
                          text=True, timeout=300)
    found = dict(line.split("=", 1) for line in outputs.read_text().splitlines() if "=" in line)
    return proc.returncode, proc.stdout + proc.stderr, found


def _job(work: Path, gh: FakeGitHub, inputs: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    (work.parent / "event.json").write_text(json.dumps(
        {"pull_request": {"number": PR, "head": {"sha": HEAD_SHA}}}))
    steps = _steps()
    env = {"GPULINT_PATHS": ".", "GPULINT_CONFIG": inputs.get("config", ""),
           "GPULINT_FAIL_ON": inputs.get("fail-on", ""),
           "GPULINT_BASELINE": inputs.get("baseline", ""),
           "GPULINT_MAX_INCREASE": inputs.get("max-increase", ""),
           "GPULINT_ALLOW_UNPRICED": inputs.get("allow-unpriced", "false"),
           "GPULINT_BEHAVIOUR": "update", "GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": gh.api_url}
    code, log, scan = _run(steps["scan"], work, env)
    assert code == 0, log
    code, log, diff = _run(steps["diff"], work, env)
    assert code == 0, log
    env.update({"GPULINT_REPORT": scan["report"], "GPULINT_DIFF": diff.get("diff", ""),
                "GPULINT_SCAN_STATUS": scan["status"],
                "GPULINT_OVER_BUDGET": diff.get("over-budget", "")})
    code, log, _ = _run(steps["Comment on the pull request"], work, env)
    return code, log, {**scan, **diff}


@pytest.fixture
def gh() -> Any:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, "github-actions[bot]", user_endpoint=False)
        fake.set_commits(REPO, PR, [HEAD_SHA])
        yield fake


def test_guardrail_keeps_the_diff_comments_over_budget_then_fails(checkout: Path,
                                                                  gh: FakeGitHub) -> None:
    code, log, out = _job(checkout, gh, {"max-increase": "1000", "fail-on": "never"})
    assert out["over-budget"] == "true" and Path(out["diff"]).exists()
    body = gh.comments(REPO, PR)[0]["body"]
    assert "→" in body and "> [!CAUTION]" in body and "**Over budget**" in body
    assert "$1,000/mo allowed" in body
    assert code == 1 and "adds more GPU cost a month than allowed" in log


def test_within_budget_passes(checkout: Path, gh: FakeGitHub) -> None:
    code, log, out = _job(checkout, gh, {"max-increase": "100000", "fail-on": "never"})
    assert out["over-budget"] == "false" and code == 0, log
    body = gh.comments(REPO, PR)[0]["body"]
    assert "Within budget" in body and "Over budget" not in body


def _base_config(work: Path, text: str) -> None:
    """Commit ``text`` as the base branch's .gpulint.yaml and bring it into the pull request."""
    _git(work, "checkout", "main")
    (work / ".gpulint.yaml").write_text(text)
    _git(work, "add", ".gpulint.yaml")
    _git(work, "commit", "-m", "gate")
    _git(work, "push", "origin", "main")
    _git(work, "checkout", "scale-up")
    _git(work, "merge", "--no-edit", "main")


def test_configuration_fail_on_and_max_increase_apply_when_inputs_are_empty(
        checkout: Path, gh: FakeGitHub) -> None:
    _base_config(checkout, "fail_on: never\nthresholds:\n  max_increase_usd: 500\n")
    config = checkout / ".gpulint.yaml"
    code, _, out = _job(checkout, gh, {"config": str(config)})
    assert out["status"] == "0"  # fail_on: never from the base's file
    assert out["over-budget"] == "true" and code == 1  # max_increase_usd from the base's file
    _base_config(checkout, "fail_on: warning\n")
    code, log, out = _job(checkout, gh, {"config": str(config)})
    assert out["status"] == "1" and out["over-budget"] == "false"
    assert code == 1 and "findings at or above fail-on" in log


# 8× H100 named only by the GPU product label: nothing says which cloud, so it has no price.
UNPRICED = DEPLOYMENT.replace("reranker", "trainer").replace(
    "node.kubernetes.io/instance-type: g5.xlarge", "nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3"
).replace("nvidia.com/gpu: 1", "nvidia.com/gpu: 8")


def test_an_unpriced_gpu_addition_fails_the_budget(checkout: Path, gh: FakeGitHub) -> None:
    (checkout / "deploy" / "trainer.yaml").write_text(UNPRICED.format(replicas=1))
    _git(checkout, "add", ".")
    _git(checkout, "commit", "-m", "trainer")
    code, log, out = _job(checkout, gh, {"max-increase": "1000000", "fail-on": "never"})
    assert out["over-budget"] == "true" and code == 1, log
    diff = json.loads(Path(out["diff"]).read_text())
    assert diff["budget"]["status"] == "unpriced"
    body = gh.comments(REPO, PR)[0]["body"].replace("\\", "")
    assert "> [!CAUTION]" in body and "Budget check fails, not priced" in body
    assert "Deployment/search/trainer` added · not priced" in body
    code, log, out = _job(checkout, gh, {"max-increase": "1000000", "fail-on": "never",
                                         "allow-unpriced": "true"})
    assert out["over-budget"] == "false" and code == 0, log


@pytest.mark.parametrize(("head", "key"), [
    ("fail_on: never\nthresholds:\n  max_increase_usd: 500\n", "fail_on"),
    ("fail_on: warning\nignore: [gpu-missing-cost-tags]\nthresholds:\n  max_increase_usd: 500\n",
     "ignore"),
    ("fail_on: warning\nexclude: ['**']\nthresholds:\n  max_increase_usd: 500\n", "exclude"),
    ("fail_on: warning\nthresholds:\n  max_increase_usd: 1000000000\n", "thresholds")])
def test_the_pull_request_does_not_set_its_own_gate(checkout: Path, gh: FakeGitHub,
                                                     head: str, key: str) -> None:
    """The base gates (fail_on: warning; a $500/month budget); the head's loosening is shown
    in the comment and not applied: the check still fails."""
    _base_config(checkout, "fail_on: warning\nthresholds:\n  max_increase_usd: 500\n")
    (checkout / ".gpulint.yaml").write_text(head)
    _git(checkout, "commit", "-am", "loosen the gate")
    code, log, out = _job(checkout, gh, {})
    assert out["status"] == "1" and out["over-budget"] == "true" and code == 1, log
    body = gh.comments(REPO, PR)[0]["body"]
    assert "This pull request changes gating settings" in body
    assert f"`{key} " in body, body
    block = body[body.index("changes gating settings"):].split("\n\n")[1]
    assert block.startswith(f"- `{key} ") and "\n" not in block, block  # only that key moved
