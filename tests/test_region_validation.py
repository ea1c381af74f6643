"""Mistyped regions through the real CLI: --default-region and the configuration's regions are
usage errors with a did-you-mean, a --var whose value becomes an unknown region is too, and a
region written in the code is a warning on the resource's line (its resources are unpriced)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def stack(tmp_path: Path) -> Path:
    """examples/terraform: the provider's region is var.region (default us-east-1)."""
    shutil.copytree(ROOT / "examples" / "terraform", tmp_path / "terraform")
    return tmp_path / "terraform"


def _scan(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "--no-color", *args])
    return result.exit_code, result.stdout, result.stderr


def test_default_region_typos_are_usage_errors_all_at_once(stack: Path) -> None:
    code, out, err = _scan(str(stack), "--default-region", "aws=us-est-1",
                           "--default-region", "azure=westeurop")
    assert code == 2 and not out
    assert "--default-region aws=us-est-1: unknown aws region 'us-est-1' (did you mean " \
           "'us-east-1' or 'us-west-1'?)" in err
    assert "--default-region azure=westeurop: unknown azure region 'westeurop' (did you mean " \
           "'westeurope'?)" in err
    # Azure display names are regions too.
    assert _scan(str(stack), "--default-region", "azure=West Europe")[0] != 2


def test_configuration_region_typo_names_the_file_and_line(stack: Path) -> None:
    config = stack / ".gpulint.yaml"
    config.write_text("fail_on: never\nregions:\n  aws: eu-wst-1\n", encoding="utf-8")
    code, _, err = _scan(str(stack), "--config", str(config))
    assert code == 2
    assert ".gpulint.yaml:3: regions.aws: unknown aws region 'eu-wst-1' (did you mean " \
           "'eu-west-1' or 'us-west-1'?)" in err


def test_a_var_used_as_a_region_is_checked(stack: Path) -> None:
    code, _, err = _scan(str(stack), "--var", "region=eu-wst-1")
    assert code == 2 and "--var region=eu-wst-1: unknown aws region 'eu-wst-1'" in err
    code, out, _ = _scan(str(stack), "--var", "region=eu-west-1", "--fail-on", "never")
    assert code == 0 and "not priced" not in out


def test_a_region_in_the_code_is_a_warning_on_its_line(stack: Path) -> None:
    main = stack / "main.tf"
    main.write_text(main.read_text().replace("var.region", '"eu-wst-1"'))
    code, _, err = _scan(str(stack), "--fail-on", "error")
    assert code == 0
    assert "main.tf:19: warning aws_instance.llm_server: unknown aws region 'eu-wst-1' " \
           "(did you mean 'eu-west-1' or 'us-west-1'?); not priced" in err
    assert _scan(str(stack), "--fail-on", "error", "--strict")[0] == 1
