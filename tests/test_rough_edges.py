"""The last rough edges a first-time user hits, each through the real CLI: a misspelt instance
type, `init --path` into a missing directory, a wrongly typed deprecated rule option, stdout
without a finding, gpulint's own files in the file count, the help text, shell completion and
did-you-mean on flags that take a name."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gpulint.cli import cli

ROOT = Path(__file__).resolve().parents[1]
TAGS = '{ team = "ml", project = "llm", env = "prod" }'


def _run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tf(work: Path, instance_type: str) -> None:
    (work / "main.tf").write_text(f'resource "aws_instance" "a" {{\n  instance_type = '
                                  f'"{instance_type}"\n  tags = {TAGS}\n}}\n')


def test_misspelt_instance_type_is_one_cause_with_the_right_fix(work: Path) -> None:
    _tf(work, "p4d.24xlrge")
    out = " ".join(_run("scan", ".").stdout.split())
    assert "1× instance type 'p4d.24xlrge' is not in the aws catalog (did you mean " \
           "'p4d.24xlarge'" in out
    assert "fix: correct the instance type as suggested" in out
    assert "no aws price" not in out and "pricing-overrides" not in out
    assert out.count("1× ") == 1


def test_init_into_a_missing_directory_is_a_usage_error(work: Path) -> None:
    result = _run("init", "--path", "missing/dir/x.yaml")
    assert result.exit_code == 2 and "directory missing/dir does not exist" in result.output
    assert "internal error" not in result.output


def test_a_wrongly_typed_deprecated_option_is_an_error_at_its_line(work: Path) -> None:
    _tf(work, "g5.xlarge")
    (work / ".gpulint.yaml").write_text(
        "rules:\n  gpu-missing-cost-tags:\n    options:\n      required: 5\n")
    result = _run("scan", ".")
    assert result.exit_code == 2
    assert ".gpulint.yaml:4: rules.gpu-missing-cost-tags.options.required: must be what " \
           "tags.required takes" in result.stderr


def test_no_leading_blank_line_and_own_files_are_not_counted(work: Path) -> None:
    _tf(work, "g5.xlarge")
    (work / ".gpulint.yaml").write_text("fail_on: error\nbaseline: base.json\n")
    assert _run("baseline").exit_code == 0
    result = _run("scan", ".")
    assert result.exit_code == 0
    assert result.stdout.startswith("1 GPU resource in 1 file:"), result.stdout


def test_help_lists_whole_descriptions_and_configured_defaults(work: Path) -> None:
    top = " ".join(_run("--help").stdout.split())
    assert "Scan PATHS (default: the current directory; - for a manifest stream on standard " \
           "input, e.g. `helm template … | gpulint scan -`) for GPU cost problems." in top
    assert "..." not in top.split("Commands:")[1]
    plain = " ".join(_run("scan", "--help").stdout.split())
    assert "[default: warning]" in plain
    (work / ".gpulint.yaml").write_text("fail_on: error\nusage_hours:\n  default: 200\n")
    configured = " ".join(_run("scan", "--help").stdout.split())
    assert "[default: error, from .gpulint.yaml]" in configured
    assert "[default: 200, from .gpulint.yaml; 0<x<=744]" in configured


def test_shell_completion_as_documented(work: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    assert 'eval "$(_GPULINT_COMPLETE=bash_source gpulint)"' in readme
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "_GPULINT_COMPLETE": "bash_complete",
           "COMP_WORDS": "gpulint scan --fail-on ", "COMP_CWORD": "3"}
    done = subprocess.run([sys.executable, "-m", "gpulint"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "plain,error" in done.stdout.splitlines()


@pytest.mark.parametrize("args,said", [
    (["scan", ".", "--hours-for", "notbook=100"], "unknown workload 'notbook' (did you mean "
                                                  "'notebook'?)"),
    (["scan", ".", "--default-region", "awz=us-east-1"], "unknown provider 'awz' (did you mean "
                                                         "'aws'?)"),
    (["scan", ".", "--select", "gpu-training-on-demnd"], "(did you mean "
                                                         "'gpu-training-on-demand'?)"),
    (["cost", ".", "--group-by", "tem"], "no GPU resource has the tag 'tem' (did you mean "
                                         "'team'?)"),
])
def test_did_you_mean_on_flags_that_take_a_name(work: Path, args: list[str], said: str) -> None:
    _tf(work, "g5.xlarge")
    result = _run(*args)
    assert said in result.output + result.stderr
