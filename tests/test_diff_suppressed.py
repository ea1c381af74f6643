"""A suppression added in a change is a decision to accept a cost, not a fix: `gpulint diff`
lists it apart with its reason and does not count it as fixed, in text, Markdown, JSON and the
pull-request comment; an expired suppression is named in the default scan output."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.reporters import markdown

pytestmark = pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True)
                                .returncode != 0, reason="needs git")

# An on-demand training instance (8× A100): gpu-training-on-demand, with a spot saving.
TRAIN = """resource "aws_instance" "train" {
  instance_type = "p4d.24xlarge"
  tags          = { team = "ml", project = "llm", env = "prod", workload = "training" }
}
"""
REASON = "checkpointing is not supported by this trainer yet"


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _git(tmp_path, "init")
    (tmp_path / "main.tf").write_text(TRAIN)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-m", "base")
    (tmp_path / "main.tf").write_text(
        f"# gpulint:ignore gpu-training-on-demand -- {REASON}\n" + TRAIN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _diff(*args: str) -> str:
    result = CliRunner().invoke(cli, ["diff", "--base", "HEAD", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_suppression_added_in_the_change_is_not_a_fix(repo: Path) -> None:
    data = json.loads(_diff("--format", "json"))
    assert data["fixed_findings"] == []
    [accepted] = data["suppressed_findings"]
    assert accepted["rule"] == "gpu-training-on-demand"
    assert accepted["suppression"]["reason"] == REASON
    text = _diff()
    assert "Fixed findings" not in text and "saves" not in text
    assert "Suppressed in this change, not fixed (1)" in text and REASON in text
    md = _diff("--format", "markdown")
    assert "Fixed findings" not in md and REASON in md
    # The pull-request comment: counted as suppressed, not fixed, and no saving claimed.
    report = json.loads(CliRunner().invoke(cli, ["scan", "--format", "json"]).stdout)
    body = markdown.render(report, data)
    assert "0 new, 0 fixed, 1 suppressed in this PR" in body
    assert "Fixed in this PR" not in body and "Suppressed in this PR, not fixed (1)" in body
    assert REASON in body and "could be saved" not in body


def test_a_fix_is_still_a_fix(repo: Path) -> None:
    (repo / "main.tf").write_text(TRAIN.replace("p4d.24xlarge", "g5.xlarge")
                                  .replace('workload = "training"', 'workload = "inference"'))
    data = json.loads(_diff("--format", "json"))
    assert [f["rule"] for f in data["fixed_findings"]] == ["gpu-training-on-demand"]
    assert data["suppressed_findings"] == []


def test_an_expired_suppression_is_named_without_verbose(repo: Path) -> None:
    (repo / "main.tf").write_text(
        f"# gpulint:ignore gpu-training-on-demand until=2020-01-31 -- {REASON}\n" + TRAIN)
    result = CliRunner().invoke(cli, ["scan", "."])
    assert result.exit_code == 1
    assert "suppression expired on 2020-01-31" in " ".join(result.stdout.split())
