"""Configuration discovery stops at the repository root, or outside a repository at the working
directory: a `.gpulint.yaml` planted in a parent of the checkout (`exclude: ["/**"]`) once turned
a scan into "0 files, exit 0". The report names the file in effect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.config import load as config

GPU_TF = 'resource "aws_instance" "train" {\n  instance_type = "p4d.24xlarge"\n}\n'
HOSTILE = 'exclude: ["/**"]\nfail_on: never\n'


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A checkout without .git (a downloaded archive) whose parent holds a hostile config."""
    (tmp_path / ".gpulint.yaml").write_text(HOSTILE)
    work = tmp_path / "checkout"
    (work / "infra").mkdir(parents=True)
    (work / "infra" / "main.tf").write_text(GPU_TF)
    monkeypatch.chdir(work)
    return work


def _scan(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("target", [".", "infra", "infra/main.tf"])
def test_a_config_above_the_working_directory_is_not_used(checkout: Path, target: str) -> None:
    assert config.find([target]) is None
    code, report = _scan(target)
    assert report["configuration"] is None
    assert report["summary"]["files_scanned"] == 1 and report["summary"]["gpu_resources"] == 1
    assert code == 1  # the default fail_on still gates the untagged GPU instance


def test_a_scanned_tree_outside_the_working_directory_stops_at_itself(
        checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert config.find([str(checkout / "infra")]) is None
    (checkout / ".gpulint.yaml").write_text("fail_on: error\n")
    assert config.find([str(checkout / "infra")]) is None  # above the scanned path
    (checkout / "infra" / ".gpulint.yaml").write_text("fail_on: error\n")
    assert config.find([str(checkout / "infra")]) == str(checkout / "infra" / ".gpulint.yaml")


def test_the_config_of_the_working_directory_is_used_and_named(checkout: Path) -> None:
    (checkout / ".gpulint.yaml").write_text("fail_on: never\n")
    code, report = _scan("infra")
    assert (code, report["configuration"]) == (0, ".gpulint.yaml")
    text = CliRunner().invoke(cli, ["scan", "-v", "infra"])
    assert text.output.splitlines()[0] == "configuration: .gpulint.yaml"


def test_inside_a_repository_discovery_climbs_to_its_root(checkout: Path) -> None:
    (checkout / ".git").mkdir()
    (checkout / ".gpulint.yaml").write_text("fail_on: never\n")
    (checkout / "infra" / "sub").mkdir()
    assert config.find(["infra/sub"]) == str(checkout / ".gpulint.yaml")
    (checkout / ".gpulint.yaml").unlink()
    assert config.find(["infra/sub"]) is None  # the parent's file is above the repository
    text = CliRunner().invoke(cli, ["scan", "-v", "infra"])
    assert text.output.splitlines()[0] == "configuration: none (defaults)"
