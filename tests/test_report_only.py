"""Given only some files (as pre-commit does), gpulint loads their module directories for
context and reports only on those files."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gpulint.cli import cli


def _scan(*paths: str) -> dict:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", *paths])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_one_changed_file_uses_its_siblings_for_context(repo: Path) -> None:
    doc = _scan("infra/main.tf")
    assert [r["address"] for r in doc["resources"]] == ["aws_instance.train"]
    train = doc["resources"][0]
    # var.gpu_type and local.tags live in variables.tf, which was not given.
    assert train["instance_type"] == "p4d.24xlarge" and train["unknowns"] == []
    assert train["tags"]["team"] == "ml"
    assert {f["path"] for f in doc["findings"]} == {"infra/main.tf"}


def test_a_file_with_nothing_wrong_passes_even_if_a_sibling_has_findings(repo: Path) -> None:
    (repo / "infra" / "main.tf").write_text(
        'resource "aws_instance" "train" {\n  instance_type = var.gpu_type\n'
        '  tags          = local.tags\n  instance_market_options {\n'
        '    market_type = "spot"\n  }\n}\n')
    result = CliRunner().invoke(cli, ["scan", "infra/main.tf"])
    assert result.exit_code == 0, result.output
    assert "untagged" not in result.stdout


def test_a_changed_tfvars_file_rescans_its_module(repo: Path) -> None:
    doc = _scan("infra/terraform.tfvars")
    assert {r["address"] for r in doc["resources"]} == {"aws_instance.train",
                                                        "aws_instance.untagged"}


def test_a_directory_reports_everything(repo: Path) -> None:
    doc = _scan("infra")
    assert {f["path"] for f in doc["findings"]} == {"infra/main.tf", "infra/other.tf"}
