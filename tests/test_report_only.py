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


def _module_repo(root: Path) -> None:
    """infra/main.tf passes the instance type into a local module whose file is unchanged."""
    (root / "infra" / "modules" / "trainer").mkdir(parents=True)
    (root / "infra" / "modules" / "trainer" / "main.tf").write_text(
        'variable "instance_type" {}\n\n'
        '# gpulint:ignore gpu-missing-cost-tags -- tagged by the account\'s tag policy\n'
        'resource "aws_instance" "node" {\n  instance_type = var.instance_type\n'
        '  tags          = { workload = "training" }\n}\n')
    (root / "infra" / "cluster.tf").write_text(
        'module "trainer" {\n  source        = "./modules/trainer"\n'
        '  instance_type = "p5.48xlarge"\n}\n')


def test_a_changed_module_call_reports_the_module_resources(repo: Path) -> None:
    # pre-commit passes only cluster.tf, whose new input makes the module's instance an
    # on-demand 8× H100 trainer: that is reported, at the module's line, with the module
    # file's own suppressions honoured.
    _module_repo(repo)
    doc = _scan("infra/cluster.tf")
    assert [r["address"] for r in doc["resources"]] == ["module.trainer.aws_instance.node"]
    assert doc["resources"][0]["instance_type"] == "p5.48xlarge"
    assert [(f["rule"], f["path"], f["line"]) for f in doc["findings"]] == [
        ("gpu-training-on-demand", "infra/modules/trainer/main.tf", 4)]
    assert doc["summary"]["suppressed"] == 1 and doc["diagnostics"] == []


def test_an_unrelated_changed_file_does_not_report_module_resources(repo: Path) -> None:
    _module_repo(repo)
    doc = _scan("infra/main.tf")
    assert "module.trainer.aws_instance.node" not in [r["address"] for r in doc["resources"]]
