"""--exclude and `exclude:` through the real command line: a bare name matches at any depth
(as ruff's exclude does), and findings located in an excluded module file are not reported
even though a scanned root module calls it (its resources still count in the cost)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

# A root module calling a vendored copy of a module, as teams do when they pin third-party
# modules in their repository.
ROOT_TF = """module "trainers" {
  source        = "./vendor/gpu-trainer"
  instance_type = "p4d.24xlarge"
}

resource "aws_instance" "notebook" {
  instance_type = "g5.2xlarge"
  tags = { workload = "notebook", team = "ml", project = "chat", env = "dev" }
}
"""
VENDORED_TF = """variable "instance_type" {
  type = string
}

resource "aws_instance" "trainer" {
  instance_type = var.instance_type
  tags = { workload = "training", team = "ml", project = "chat", env = "prod" }
}
"""


@pytest.fixture
def infra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    live = tmp_path / "live" / "prod"
    (live / "vendor" / "gpu-trainer").mkdir(parents=True)
    (live / "main.tf").write_text(ROOT_TF)
    (live / "vendor" / "gpu-trainer" / "main.tf").write_text(VENDORED_TF)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _report(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "--format", "json", "--fail-on",
                                      "never", "live", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _places(report: dict) -> set[str]:  # type: ignore[type-arg]
    return {f"{f['path']}:{f['rule']}" for f in report["findings"]}


def test_bare_name_excludes_the_module_files_it_names(infra: Path) -> None:
    vendored = "live/prod/vendor/gpu-trainer/main.tf:gpu-training-on-demand"
    everything = _report()
    assert vendored in _places(everything)
    for pattern in ("vendor", "gpu-trainer", "live/prod/vendor"):
        report = _report("--exclude", pattern)
        assert vendored not in _places(report), pattern
        assert "live/prod/main.tf:gpu-notebook-without-shutdown" in _places(report)
        # The vendored trainer is still deployed by the root module: its cost counts.
        assert report["summary"]["monthly_cost_usd"] == everything["summary"]["monthly_cost_usd"]
    # A pattern with a slash is relative to the working directory: this one matches nothing.
    assert vendored in _places(_report("--exclude", "prod/vendor"))


def test_configuration_exclude_takes_bare_names(infra: Path) -> None:
    (infra / ".gpulint.yaml").write_text("exclude: [vendor]\n")
    assert "live/prod/vendor/gpu-trainer/main.tf:gpu-training-on-demand" not in _places(_report())
