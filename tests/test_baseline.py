"""Baselines survive line moves; `scan --baseline` reports only new findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gpulint.cli import cli


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_round_trip_across_a_line_move(repo: Path) -> None:
    result = _invoke("baseline", "infra", "-o", "base.json")
    assert result.exit_code == 0, result.output
    recorded = json.loads((repo / "base.json").read_text())
    assert recorded["version"] == 1
    rules = {(e["rule"], e["address"]) for e in recorded["findings"]}
    assert ("gpu-missing-cost-tags", "aws_instance.untagged") in rules
    assert "2 findings recorded in base.json" in result.stdout

    # Move every resource down: fingerprints do not depend on lines.
    other = repo / "infra" / "other.tf"
    other.write_text("\n\n\n# moved\n" + other.read_text())
    result = _invoke("scan", "infra", "--baseline", "base.json", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["findings"] == [] and doc["summary"]["baselined"] == 2

    # A new problem is reported; the old ones stay baselined.
    other.write_text(other.read_text() + 'resource "aws_instance" "new" {\n'
                                          '  instance_type = "g5.xlarge"\n}\n')
    result = _invoke("scan", "infra", "--baseline", "base.json")
    assert result.exit_code == 1
    assert "aws_instance.new" in result.stdout and "aws_instance.untagged" not in \
        result.stdout.split("GPU resources")[0]
    assert "2 baselined" in result.stdout


def test_default_output_file_and_text_summary(repo: Path) -> None:
    assert _invoke("baseline", "infra").exit_code == 0
    assert (repo / ".gpulint-baseline.json").is_file()


@pytest.mark.parametrize("content,message", [
    ("{", "invalid baseline JSON"),
    ('{"findings": []}', "not a gpulint baseline"),
])
def test_bad_baseline_is_a_usage_error(repo: Path, content: str, message: str) -> None:
    (repo / "base.json").write_text(content)
    result = _invoke("scan", "infra", "--baseline", "base.json")
    assert result.exit_code == 2 and message in result.stderr


def test_missing_baseline_is_a_usage_error(repo: Path) -> None:
    result = _invoke("scan", "infra", "--baseline", "nope.json")
    assert result.exit_code == 2 and "cannot read baseline" in result.stderr
