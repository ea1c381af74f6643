"""The worked example in docs/custom-rules.md is real: it validates, fires and stays silent as
the page says, and the error example prints what the page shows."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from gpulint.cli import cli

DOC = os.path.join(ROOT, "docs", "custom-rules.md")


def _blocks(lang: str) -> list[str]:
    with open(DOC, encoding="utf-8") as fh:
        return re.findall(rf"```{lang}\n(.*?)```", fh.read(), re.S)


def test_worked_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    rules = tmp_path / "policies" / "gpulint"
    rules.mkdir(parents=True)
    (rules / "org-large-gpu-needs-approval.yaml").write_text(_blocks("yaml")[0])
    (tmp_path / "infra").mkdir()
    (tmp_path / "infra" / "main.tf").write_text(_blocks("hcl")[0])
    rule = rules / "org-large-gpu-needs-approval.yaml"
    run = CliRunner().invoke(cli, ["validate-rules", str(rule)])
    assert run.exit_code == 0 and "1 rule file valid" in run.stdout
    run = CliRunner().invoke(cli, ["scan", "infra", "--rules-dir", "policies/gpulint"])
    console = _blocks("console")[0]
    shown = console.split("$ gpulint scan infra --rules-dir policies/gpulint\n")[1]
    assert run.stdout.startswith(shown)  # the finding, wrapped at 80 columns, comes first
    run = CliRunner().invoke(cli, ["scan", "-v", "infra", "--rules-dir", "policies/gpulint"])
    assert "asks for 8× A100 ($16,029/month) without a gpu-approval tag" in " ".join(
        run.stdout.split())
    assert "aws_instance.approved asks" not in run.stdout
    # The configuration snippet loads the directory and tunes the rule.
    (tmp_path / ".gpulint.yaml").write_text(_blocks("yaml")[1])
    run = CliRunner().invoke(cli, ["scan", "infra", "--format", "json"])
    assert '"rule": "org-large-gpu-needs-approval"' in run.stdout
    assert '"severity": "warning"' in run.stdout
    run = CliRunner().invoke(cli, ["rules", "show", "org-large-gpu-needs-approval"])
    # As configured: the file's severity and option, not the rule file's.
    assert run.exit_code == 0 and "min_gpus = 4" in run.stdout
    assert run.stdout.startswith("org-large-gpu-needs-approval (warning, governance)")


def test_error_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    console = _blocks("console")[1].splitlines()
    path = "policies/gpulint/org-large-gpu-needs-approval.yaml"
    (tmp_path / "policies" / "gpulint").mkdir(parents=True)
    broken = (_blocks("yaml")[0].replace("fact: gpu.count", "fact: gpu.cuont")
              .replace("{gpu_model}", "{gpu_modle}").replace("severity: error", "severity: fatal"))
    (tmp_path / path).write_text(broken)
    run = CliRunner().invoke(cli, ["validate-rules", path])
    assert run.exit_code == 2
    assert run.stderr.splitlines() == console[1:]
