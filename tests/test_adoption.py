"""Adopting gpulint on a repository with 50 old findings: one baseline file, named once in
.gpulint.yaml, makes local runs (from the top or a subdirectory), the pre-commit hook's run and
the Action's steps green, while a finding the pull request adds still fails every one of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from github_fake import FakeGitHub
from test_action_steps import DEPLOYMENT, HEAD_SHA, PR, REPO, TOKEN, _git, _job

pytestmark = pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True)
                                .returncode != 0, reason="needs git")

OLD = 50


def _gpulint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gpulint", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=300,
                          env={**os.environ,
                               "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")})


def _service(i: int, replicas: int = 1) -> str:
    # Each Deployment lacks the `env` cost label: one gpu-missing-cost-tags warning each.
    return DEPLOYMENT.format(replicas=replicas).replace("reranker", f"svc-{i:02d}")


@pytest.fixture
def adopted(tmp_path: Path) -> Path:
    """main: 50 services with a finding each, then the adoption commit (configuration and
    baseline); the pull request branch touches one service and adds one."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    _git(tmp_path, "init", "--bare", str(origin))
    (work / "deploy").mkdir(parents=True)
    _git(work, "init")
    for i in range(OLD):
        (work / "deploy" / f"svc-{i:02d}.yaml").write_text(_service(i))
    _git(work, "add", ".")
    _git(work, "commit", "-m", "services")

    # Before adoption every old finding fails the run.
    before = _gpulint(work, "scan", "--format", "json")
    assert before.returncode == 1
    assert json.loads(before.stdout)["summary"]["findings"]["warning"] == OLD

    (work / ".gpulint.yaml").write_text("baseline: .gpulint-baseline.json\n")
    made = _gpulint(work, "baseline")
    assert made.returncode == 0 and f"{OLD} findings recorded" in made.stdout, made.stderr
    _git(work, "add", ".")
    _git(work, "commit", "-m", "adopt gpulint with a baseline")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "origin", "main")
    _git(work, "checkout", "-b", "change")
    return work


def test_fifty_old_findings_to_green_with_one_baseline(adopted: Path) -> None:
    work = adopted
    # Local runs, from the top and from a subdirectory.
    top = _gpulint(work, "scan", "--format", "json")
    assert top.returncode == 0, top.stderr
    assert json.loads(top.stdout)["summary"]["baselined"] == OLD
    sub = _gpulint(work / "deploy", "scan", "--format", "json")
    assert sub.returncode == 0 and json.loads(sub.stdout)["summary"]["baselined"] == OLD

    # The pull request edits an old service: the pre-commit hook (its entry, on the changed
    # file) passes, as does the Action.
    (work / "deploy" / "svc-07.yaml").write_text(_service(7, replicas=2))
    _git(work, "commit", "-am", "scale svc-07")
    hook = _gpulint(work, "scan", "--concise", "deploy/svc-07.yaml")
    assert hook.returncode == 0, hook.stdout + hook.stderr
    with FakeGitHub() as gh:
        gh.add_token(TOKEN, "github-actions[bot]", user_endpoint=False)
        gh.set_commits(REPO, PR, [HEAD_SHA])
        code, log, out = _job(work, gh, {})
        assert out["status"] == "0" and code == 0, log
        report = json.loads(Path(out["report"]).read_text())
        assert report["findings"] == [] and report["summary"]["baselined"] == OLD

    # A new service with the same problem is reported everywhere.
    (work / "deploy" / "svc-new.yaml").write_text(_service(99).replace("svc-99", "svc-new"))
    _git(work, "add", ".")
    _git(work, "commit", "-m", "new service")
    assert _gpulint(work, "scan").returncode == 1
    hook = _gpulint(work, "scan", "--concise", "deploy/svc-new.yaml")
    assert hook.returncode == 1 and "svc-new" in hook.stdout
    with FakeGitHub() as gh:
        gh.add_token(TOKEN, "github-actions[bot]", user_endpoint=False)
        gh.set_commits(REPO, PR, [HEAD_SHA])
        code, log, out = _job(work, gh, {})
        assert out["status"] == "1" and code == 1
        assert "svc-new" in gh.comments(REPO, PR)[0]["body"]


def test_the_action_input_names_the_baseline(adopted: Path) -> None:
    work = adopted
    # No configuration, on the base branch too (gating settings, the baseline among them, come
    # from the base): only the input names the baseline.
    _git(work, "rm", "-q", ".gpulint.yaml")
    _git(work, "commit", "-qm", "drop the configuration")
    _git(work, "push", "-q", "origin", "HEAD:main")
    with FakeGitHub() as gh:
        gh.add_token(TOKEN, "github-actions[bot]", user_endpoint=False)
        gh.set_commits(REPO, PR, [HEAD_SHA])
        code, log, out = _job(work, gh, {"baseline": ".gpulint-baseline.json"})
        assert out["status"] == "0" and code == 0, log
        code, log, out = _job(work, gh, {})
        assert out["status"] == "1" and code == 1
