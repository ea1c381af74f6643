"""Configuration-like inputs report every problem at once with file, line and key path, exit 2,
through the real command line: a pricing-overrides file with several bad overrides, a rule
file with several mistakes, and `validate-rules` without arguments checking the configured
rule directories."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

# Negotiated prices as a FinOps team writes them: one good override and two bad ones.
PRICES = """overrides:
  - provider: aws
    family: p4d
    discount_percent: 30
    note: EDP 2026
  - provider: aws
    instance_type: g5.xlarge
  - provider: ibm
    family: BM.GPU4
    capacity: reserved
    hourly_usd: 20
"""

RULE = """id: org-gpu-needs-owner
summary: GPU resources must name an owner
severity: critical
category: governance
applies_to: [terraform]
match:
  all:
    - fact: gpu.cout
      gt: 0
    - fact: tags
      lacks_keys: [owner]
message: "{address} has {gpu_count}× {gpu_modle} and no owner tag"
remediation: Add an owner tag.
docs:
  why: Someone must answer for every GPU bill.
  bad: 'resource "aws_instance" "x" {}'
  good: 'resource "aws_instance" "x" { tags = { owner = "ml" } }'
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "main.tf").write_text('resource "aws_instance" "gpu" {\n'
                                      '  instance_type = "p4d.24xlarge"\n}\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_pricing_overrides_report_every_problem(repo: Path) -> None:
    (repo / "prices.yaml").write_text(PRICES)
    result = CliRunner().invoke(cli, ["scan", "--no-cache", ".", "--pricing-overrides",
                                      "prices.yaml"])
    assert result.exit_code == 2 and result.stdout == ""
    err = result.stderr
    assert "prices.yaml:6: overrides[1]: set exactly one of discount_percent or hourly_usd" in err
    assert ("prices.yaml:8: overrides[2].provider: must be one of aws, gcp, azure, oci, "
            "coreweave, lambda or nebius, got 'ibm'") in err
    assert ("prices.yaml:8: overrides[2].capacity: must be one of on-demand, spot, any, "
            "got 'reserved'") in err


def test_validate_rules_without_arguments_checks_the_configured_directories(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["validate-rules"])
    assert result.exit_code == 2 and "no rule directories configured" in result.stderr
    (repo / "policies").mkdir()
    (repo / "policies" / "org-gpu-needs-owner.yaml").write_text(RULE)
    (repo / ".gpulint.yaml").write_text("rules_dirs: [policies]\n")
    result = CliRunner().invoke(cli, ["validate-rules"])
    assert result.exit_code == 2
    where = "policies/org-gpu-needs-owner.yaml"
    assert result.stderr.splitlines() == [
        f"{where}: invalid rule",
        f"  {where}:8: at match/all/0: 'gpu.cout' is not a known fact (did you mean "
        "'gpu.count'?)",
        f"  {where}:3: at severity: 'critical' is not one of ['error', 'warning', 'info']",
        f"  {where}:12: at message: unknown placeholder {{gpu_modle}} (did you mean "
        "{gpu_model}?)",
    ]
    fixed = (RULE.replace("critical", "error").replace("gpu.cout", "gpu.count")
             .replace("gpu_modle", "gpu_model"))
    (repo / "policies" / "org-gpu-needs-owner.yaml").write_text(fixed)
    result = CliRunner().invoke(cli, ["validate-rules"])
    assert result.exit_code == 0 and result.stdout == "1 rule file valid\n"


# A Python repository's pyproject.toml carrying gpulint's settings next to its other tools'.
PYPROJECT = """[project]
name = "inference-service"
version = "1.4.0"

[tool.ruff]
line-length = 100

[tool.gpulint]
fail_on = "warnin"
exclude = ["vendor"]

[tool.gpulint.sizing]
headroom = "lots"

[[tool.gpulint.models]]
address = "Deployment/ml/*"
model = "meta-llama/Llama-3.1-8B-Instruct"

[[tool.gpulint.models]]
address = "Deployment/ml/embed"
model = 7
"""


def test_pyproject_problems_cite_their_lines(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(PYPROJECT)
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "."])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "gpulint: invalid configuration (3 problems)",
        "  pyproject.toml:9: fail_on: 'warnin' is not one of 'error', 'warning', 'info', "
        "'never' (did you mean 'warning'?)",
        "  pyproject.toml:13: sizing.headroom: 'lots' is not of type 'number'",
        "  pyproject.toml:21: models[1].model: 7 is not of type 'string'",
    ]


def test_rule_option_values_are_checked_with_their_line(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "rules:\n"
        "  gpu-oversized-for-model:\n"
        "    options:\n"
        "      min_saving_fraction: a quarter\n"
        "      min_savng: 0.3\n")
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "."])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "gpulint: invalid configuration (2 problems)",
        "  .gpulint.yaml:4: rules.gpu-oversized-for-model.options.min_saving_fraction: must be "
        "a number like its default 0.25, got 'a quarter'",
        "  .gpulint.yaml:5: rules.gpu-oversized-for-model.options.min_savng: rule "
        "gpu-oversized-for-model has no option 'min_savng' (did you mean 'min_saving_fraction'?)",
    ]
