"""The pre-commit hook's definition, its documented `rev`, and its output (`scan --concise`)
on the files pre-commit would pass, without installing anything (tests/test_pre_commit.py runs
the real pre-commit)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import ROOT, WORKFLOW_MODULE
from gpulint.cli import cli

VERDICT = re.compile(r"^\d+ errors?, \d+ warnings?, \d+ info\b.*: (pass|fail) \(--fail-on \w+\)$")


def _hooks() -> dict[str, dict]:
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as fh:
        return {h["id"]: h for h in yaml.safe_load(fh)}


def test_manifest_is_valid_for_pre_commit() -> None:
    clientlib = pytest.importorskip("pre_commit.clientlib")
    hooks = clientlib.load_manifest(os.path.join(ROOT, ".pre-commit-hooks.yaml"))
    assert {h["id"] for h in hooks} == {"gpulint", "gpulint-validate-rules"}


def test_scan_hook_is_terse_and_serial() -> None:
    hook = _hooks()["gpulint"]
    assert hook["entry"] == "gpulint scan --concise"
    # One process for the run: one summary line, module directories loaded once.
    assert hook["require_serial"] is True


def test_documented_rev_exists() -> None:
    """docs/pre-commit.md pins a tag that exists, or says to pin a commit until there is one."""
    text = Path(ROOT, "docs", "pre-commit.md").read_text(encoding="utf-8")
    config = yaml.safe_load(re.search(r"```yaml\n(.*?)```", text, re.S).group(1))
    rev = config["repos"][0]["rev"]
    tags = subprocess.run(["git", "-C", ROOT, "tag"], capture_output=True, text=True).stdout.split()
    if rev in tags:
        return
    assert rev == "<full commit sha>", f"rev {rev!r} is neither a tag nor the commit placeholder"
    assert "no release tag yet" in text and "pin a commit" in text


def _concise(repo: Path, *files: str, extra: tuple[str, ...] = ()) -> tuple[int, list[str]]:
    old = os.getcwd()
    os.chdir(repo)
    try:
        result = CliRunner().invoke(cli, ["scan", "--concise", *extra, "--no-cache", *files])
    finally:
        os.chdir(old)
    return result.exit_code, result.output.splitlines()


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    shutil.copytree(WORKFLOW_MODULE, tmp_path / "infra")
    (tmp_path / "infra" / "extra.tf").write_text(
        'resource "aws_instance" "extra" {\n  instance_type = "g5.xlarge"\n}\n')
    (tmp_path / "infra" / "unused.tf").write_text(
        '# gpulint:ignore gpu-training-on-demand -- nothing here trains\n'
        'resource "aws_instance" "web" {\n  instance_type = "t3.micro"\n}\n')
    return tmp_path


def test_concise_output_is_findings_and_one_summary(repo: Path) -> None:
    code, lines = _concise(repo, "infra/extra.tf", "infra/unused.tf", "infra/main.tf")
    assert code == 1
    assert VERDICT.match(lines[-1]), lines
    assert [line for line in lines if VERDICT.match(line)] == [lines[-1]]
    findings = [line for line in lines[:-1] if not line.startswith("    ")]
    assert findings and all(re.match(r"infra/[\w.]+:\d+: (error|warning|info) ", f)
                            for f in findings), lines
    assert not any(line.startswith(("Prices:", "Could not evaluate")) or "GPU resource" in line
                   for line in lines)


def test_concise_shows_notices_only_when_they_gate(repo: Path) -> None:
    """The unused suppression is a tool notice: counted but not shown by default, shown under
    --strict, where it blocks the commit."""
    code, lines = _concise(repo, "infra/unused.tf")
    assert code == 0 and lines == [
        "0 errors, 0 warnings, 0 info; 1 tool warning (not gating): pass (--fail-on warning)"]
    result = CliRunner().invoke(
        cli, ["scan", "--concise", "--strict", "--no-cache", str(repo / "infra" / "unused.tf")])
    assert result.exit_code == 1
    assert "unused" in result.stderr
    assert "tool warning (strict): fail" in result.stdout.splitlines()[-1]
