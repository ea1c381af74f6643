"""The command line as users run it: exit codes, formats, rules listing, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gpulint import __version__
from gpulint.cli import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and __version__ in out


def test_python_dash_m_works() -> None:
    proc = subprocess.run([sys.executable, "-m", "gpulint", "--version"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0 and __version__ in proc.stdout


def test_examples_text_report_has_findings_with_dollars() -> None:
    code, out, _ = run("scan", EXAMPLES, "--no-color")
    assert code == 1  # warnings at the default --fail-on
    assert "gpu-oversized-for-model" in out and "gpu-training-on-demand" in out
    assert "gpu-notebook-without-shutdown" in out and "gpu-missing-cost-tags" in out
    assert "$" in out and "/month" in out
    assert "\033[" not in out  # no colour when not a terminal


def test_examples_json_report() -> None:
    code, out, _ = run("scan", EXAMPLES, "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["schema_version"] == 2
    assert report["summary"]["gpu_resources"] == len(report["resources"]) >= 7
    assert report["summary"]["monthly_cost_usd"] > 0
    llm = next(r for r in report["resources"] if r["address"] == "aws_instance.llm_server")
    # The instance type comes from terraform.tfvars, the region from the variable default.
    assert llm["instance_type"] == "p4d.24xlarge" and llm["region"] == "us-east-1"
    assert llm["gpu_model"] == "A100" and llm["gpu_count"] == 8


@pytest.mark.parametrize("fail_on,expected", [("error", 0), ("warning", 1), ("info", 1),
                                              ("never", 0)])
def test_fail_on_thresholds(fail_on: str, expected: int) -> None:
    code, _, _ = run("scan", EXAMPLES, "--fail-on", fail_on)
    assert code == expected


def test_error_finding_fails_at_error_threshold() -> None:
    path = os.path.join(ROOT, "tests", "rules", "gpu-model-does-not-fit", "fit.tf")
    code, out, _ = run("scan", path, "--fail-on", "error")
    assert code == 1 and "gpu-model-does-not-fit" in out


def test_clean_input_exits_zero(tmp_path: os.PathLike[str]) -> None:
    p = os.path.join(tmp_path, "web.tf")
    with open(p, "w") as fh:
        fh.write('resource "aws_instance" "web" {\n  instance_type = "m5.large"\n}\n')
    code, out, _ = run("scan", str(tmp_path))
    assert code == 0
    assert "0 GPU resources in 1 file:" in out


def test_malformed_file_is_a_diagnostic_and_others_still_scan(tmp_path: os.PathLike[str]) -> None:
    with open(os.path.join(tmp_path, "bad.tf"), "w") as fh:
        fh.write('resource "aws_instance" "x" {\n  instance_type = \n}\n')
    with open(os.path.join(tmp_path, "bad.yaml"), "w") as fh:
        fh.write("apiVersion: v1\nkind: Pod\nmetadata: {name: x\n")
    with open(os.path.join(tmp_path, "good.tf"), "w") as fh:
        fh.write('resource "aws_instance" "t" {\n  instance_type = "p4d.24xlarge"\n'
                 '  tags = { workload = "training" }\n}\n')
    _code, out, err = run("scan", str(tmp_path), "--format", "json")
    report = json.loads(out)
    paths = {os.path.basename(d["path"]): d for d in report["diagnostics"]}
    assert paths["bad.tf"]["line"] == 2 and "parse error" in paths["bad.tf"]["message"]
    assert paths["bad.yaml"]["line"] is not None
    assert any(f["rule"] == "gpu-training-on-demand" for f in report["findings"])
    assert "Traceback" not in out + err


def test_missing_path_is_a_usage_error() -> None:
    code, out, err = run("scan", "does/not/exist", "--format", "json")
    assert code == 2 and out == ""
    assert "no such file or directory: does/not/exist" in err


def test_a_file_that_does_not_parse_fails_the_run(tmp_path: os.PathLike[str]) -> None:
    with open(os.path.join(tmp_path, "bad.tf"), "w") as fh:
        fh.write('resource "aws_instance" "x" {\n  instance_type = \n}\n')
    assert run("scan", str(tmp_path))[0] == 1
    assert run("scan", str(tmp_path), "--fail-on", "never")[0] == 0


def test_bad_flag_is_usage_error() -> None:
    code, _, _ = run("scan", "--format", "yaml")
    assert code == 2


def test_bad_var_is_usage_error() -> None:
    code, _, err = run("scan", EXAMPLES, "--var", "novalue")
    assert code == 2 and "name=value" in err


def test_var_overrides_tfvars() -> None:
    _code, out, _ = run("scan", os.path.join(EXAMPLES, "terraform"), "--format", "json",
                       "--var", "inference_instance_type=g6e.xlarge")
    report = json.loads(out)
    llm = next(r for r in report["resources"] if r["address"] == "aws_instance.llm_server")
    assert llm["instance_type"] == "g6e.xlarge"


def test_unset_variable_is_reported_as_unknown(tmp_path: os.PathLike[str]) -> None:
    with open(os.path.join(tmp_path, "main.tf"), "w") as fh:
        fh.write('variable "gpu_type" {}\nresource "aws_instance" "t" {\n'
                 '  instance_type = var.gpu_type\n  tags = { workload = "training" }\n}\n')
    _, out, _ = run("scan", str(tmp_path), "--format", "json")
    report = json.loads(out)
    res = report["resources"][0]
    assert res["monthly_cost_usd"] is None
    assert any("variable gpu_type has no default and no value was given" in u["reason"]
               for u in res["unknowns"])
    assert report["summary"]["not_evaluated"] >= 1


def test_rules_list_and_show() -> None:
    code, out, _ = run("rules")
    assert code == 0 and "gpu-training-on-demand" in out
    code, out, _ = run("rules", "show", "gpu-training-on-demand")
    assert code == 0 and "instance_market_options" in out and "How to fix" in out
    code, _, err = run("rules", "show", "gpu-training-on-demnd")
    assert code == 2 and "did you mean 'gpu-training-on-demand'" in err


def test_invalid_custom_rule_dir_is_usage_error(tmp_path: os.PathLike[str]) -> None:
    with open(os.path.join(tmp_path, "my-rule.yaml"), "w") as fh:
        fh.write("id: my-rule\nsummary: a rule\nseverity: warn\n"
                 "match: {fact: capacty, equals: 1}\n")
    code, _, err = run("scan", EXAMPLES, "--rules-dir", str(tmp_path))
    assert code == 2
    assert "'warn' is not one of" in err and "did you mean 'capacity'" in err


def test_internal_error_is_one_line_exit_3(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from gpulint import cli as cli_mod
    from gpulint import pipeline as scan_mod

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(scan_mod, "run", boom)
    with pytest.raises(SystemExit) as exc:
        cli_mod.main(["scan", EXAMPLES])
    assert exc.value.code == 3
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: simulated bug" in err and "Traceback" not in err


def test_output_file(tmp_path: os.PathLike[str]) -> None:
    target = os.path.join(tmp_path, "report.json")
    _code, out, _ = run("scan", EXAMPLES, "--format", "json", "-o", target)
    assert out == ""
    with open(target) as fh:
        assert json.load(fh)["schema_version"] == 2
