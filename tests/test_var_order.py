"""--var and --var-file apply in command-line order, as in Terraform (later wins)."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.cli.var_order import cli_order

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "terraform", "var_order")
A, B = os.path.join(HERE, "a.tfvars"), os.path.join(HERE, "b.tfvars")  # g5.xlarge, g6.xlarge


def _instance_type(*args: str) -> str:
    result = CliRunner().invoke(cli, ["scan", HERE, "--format", "json", "--fail-on", "never",
                                      *args])
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    return next(r["instance_type"] for r in report["resources"]
                if r["address"] == "aws_instance.server")


@pytest.mark.parametrize(("args", "expected"), [
    (("--var", "gpu_type=p4d.24xlarge", "--var-file", A), "g5.xlarge"),  # the file comes later
    (("--var-file", A, "--var", "gpu_type=p4d.24xlarge"), "p4d.24xlarge"),
    (("--var-file", A, "--var-file", B), "g6.xlarge"),
    (("--var-file", B, "--var-file", A), "g5.xlarge"),
    (("--var=gpu_type=p4d.24xlarge", f"--var-file={B}"), "g6.xlarge"),  # the = spellings
    (("--var", "gpu_type=p5.48xlarge", "--var-file", A, "--var", "gpu_type=p4d.24xlarge",
      "--var-file", B), "g6.xlarge"),
    (("--var-file", B, "--var", "gpu_type=p5.48xlarge", "--var-file", A, "--var",
      "gpu_type=p4d.24xlarge"), "p4d.24xlarge"),
])
def test_command_line_order_decides(args: tuple[str, ...], expected: str) -> None:
    assert _instance_type(*args) == expected


def test_other_commands_share_the_order() -> None:
    result = CliRunner().invoke(cli, ["cost", HERE, "--format", "json", "--var",
                                      "gpu_type=p4d.24xlarge", "--var-file", A])
    assert result.exit_code == 0, result.stderr
    assert "g5.xlarge" in result.stdout and "p4d.24xlarge" not in result.stdout


def test_order_is_unknown_when_the_arguments_disagree_with_the_parse() -> None:
    # Not recorded (the command invoked on its own), or an option value spelled like --var:
    # the caller falls back to every file, then every var.
    assert cli_order(None, ("a=1",), ("f.tfvars",)) == []
    assert cli_order(["--var", "a=1", "--var-file", "f.tfvars"], ("a=1",),
                     ("f.tfvars",)) == [("var", ("a", "1")), ("var-file", 0)]
    assert cli_order(["--output", "--var", "--var", "a=1", "--var-file", "f.tfvars"], ("a=1",),
                     ("f.tfvars",)) == []
    assert cli_order(["--var-file", "f.tfvars", "--", "--var", "a=1"], ("a=1",),
                     ("f.tfvars",)) == []
    # One kind only: the order between kinds does not matter.
    assert cli_order(["--var", "a=1", "--var", "a=2"], ("a=1", "a=2"), ()) == []
