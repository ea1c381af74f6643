"""The real pre-commit runs the hooks of this repository (`pre-commit try-repo`) on commits in a
throwaway git repository.

try-repo installs this checkout into pre-commit's own virtualenv with pip, which fetches the
dependencies from the package registry: the one network use of the suite. The test is skipped,
saying why, only when pip cannot reach the registry. try-repo takes the checkout at HEAD plus its
uncommitted changes to tracked files.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, WORKFLOW_MODULE

pytestmark = pytest.mark.slow

GIT_ENV = {"GIT_AUTHOR_NAME": "gpulint test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
           "GIT_COMMITTER_NAME": "gpulint test", "GIT_COMMITTER_EMAIL": "test@example.invalid"}

UNTAGGED = 'resource "aws_instance" "extra" {\n  instance_type = "g5.xlarge"\n}\n'
SUPPRESSED = ("# gpulint:ignore gpu-missing-cost-tags -- shared sandbox, billed to the platform\n"
              + UNTAGGED)
BAD_RULE = "id: no-p4d\nsummary: forbid p4d\nseverity: fatal\n"


def _pre_commit() -> str:
    exe = shutil.which("pre-commit", path=os.path.dirname(sys.executable)) \
        or shutil.which("pre-commit")
    if exe is None:
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    return exe


def _registry_problem(tmp: Path) -> str | None:
    """Why pip cannot fetch what try-repo installs, or None when it can."""
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(tmp),
         "hatchling", "click", "PyYAML", "jsonschema", "python-hcl2"],
        capture_output=True, text=True, timeout=300)
    if proc.returncode == 0:
        return None
    return (proc.stderr.strip().splitlines() or ["pip download failed"])[-1]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    _pre_commit()
    top = subprocess.run(["git", "-C", ROOT, "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(ROOT):
        pytest.skip("not running from a git checkout of gpulint (try-repo needs one)")
    problem = _registry_problem(tmp_path_factory.mktemp("pip"))
    if problem:
        pytest.skip(f"pip cannot reach the package registry: {problem}")
    home = tmp_path_factory.mktemp("pre-commit-home")
    return {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}


def _git(repo: Path, *args: str, env: dict[str, str]) -> None:
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _try_repo(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # Without --files, try-repo runs this repository's hooks on the staged files, as
    # `git commit` would. Each call installs the hook environment afresh (~10 s), so the test
    # makes three calls, each running both hooks.
    return subprocess.run([_pre_commit(), "try-repo", ROOT, "--color", "never"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def _valid_rule(rule_id: str) -> str:
    with open(os.path.join(ROOT, "rules", "gpu-training-on-demand.yaml"), encoding="utf-8") as fh:
        return fh.read().replace("id: gpu-training-on-demand", f"id: {rule_id}")


def test_hooks_on_commits(tmp_path: Path, env: dict[str, str]) -> None:
    repo = tmp_path / "infra-repo"
    repo.mkdir()
    _git(repo, "init", "-q", env=env)
    shutil.copytree(WORKFLOW_MODULE, repo / "infra")
    (repo / "infra" / "other.tf").write_text(
        'resource "aws_instance" "tagged" {\n  instance_type = "g5.xlarge"\n'
        '  tags = { team = "ml", project = "search", env = "prod" }\n}\n')
    (repo / "README.md").write_text("not scanned\n")

    # 1. A clean commit passes (main.tf runs on spot capacity, everything is tagged).
    (repo / "infra" / "main.tf").write_text(
        'resource "aws_instance" "train" {\n  instance_type = var.gpu_type\n'
        '  tags          = local.tags\n  instance_market_options {\n'
        '    market_type = "spot"\n  }\n}\n')
    _git(repo, "add", "-A", env=env)
    run = _try_repo(repo, env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^gpulint\.+Passed$", run.stdout, re.M), run.stdout
    assert re.search(r"^gpulint validate-rules\.+\(no files to check\)Skipped$", run.stdout, re.M)
    _git(repo, "commit", "-qm", "clean", env=env)

    # 2. A change with an untagged GPU instance and a broken custom rule fails both hooks. Only
    #    the staged file is reported, though its module directory is loaded for context.
    (repo / "infra" / "extra.tf").write_text(UNTAGGED)
    (repo / "gpulint-rules").mkdir()
    (repo / "gpulint-rules" / "no-p4d.yaml").write_text(BAD_RULE)
    (repo / "values.yaml").write_text(BAD_RULE)  # not in a rule directory: not validated
    _git(repo, "add", "-A", env=env)
    run = _try_repo(repo, env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert re.search(r"^gpulint\.+Failed$", run.stdout, re.M), run.stdout
    assert "infra/extra.tf:1: warning gpu-missing-cost-tags aws_instance.extra" in run.stdout
    # Terse: the findings and one summary line for the run; no totals or price basis.
    hook = run.stdout.split("- hook id: gpulint\n", 1)[1].split("gpulint validate-rules", 1)[0]
    assert re.findall(r"^\d+ errors?, \d+ warnings?, \d+ info.*$", hook, re.M) == [
        "0 errors, 1 warning, 0 info: fail (--fail-on warning)"]
    assert "Prices:" not in hook and "GPU resource" not in hook
    assert "aws_instance.train" not in run.stdout and "aws_instance.tagged" not in run.stdout
    assert re.search(r"^gpulint validate-rules\.+Failed$", run.stdout, re.M)
    assert "exit code: 2" in run.stdout  # gpulint's usage-error code, passed through
    assert "gpulint-rules/no-p4d.yaml: invalid rule" in run.stdout
    assert "at severity: 'fatal' is not one of" in run.stdout
    assert "values.yaml" not in run.stdout

    # 3. With a suppression that gives a reason and a fixed rule, the change commits.
    (repo / "infra" / "extra.tf").write_text(SUPPRESSED)
    (repo / "gpulint-rules" / "no-p4d.yaml").unlink()
    (repo / "gpulint-rules" / "team-training-on-demand.yaml").write_text(
        _valid_rule("team-training-on-demand"))
    _git(repo, "add", "-A", env=env)
    run = _try_repo(repo, env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^gpulint validate-rules\.+Passed$", run.stdout, re.M), run.stdout
    _git(repo, "commit", "-qm", "sandbox instance", env=env)
