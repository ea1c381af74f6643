"""Configuration: discovery, precedence over flags, precise errors, gpulint init."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gpulint.cli import cli
from gpulint.cli.init import starter
from gpulint.config import load as config


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def _json_scan(*args: str) -> tuple[int, dict]:
    result = _invoke("scan", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


# --- discovery -------------------------------------------------------------------------------

def test_found_by_walking_up_from_the_scanned_path(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("fail_on: never\n")
    assert config.find(["infra/other.tf"]) == str(repo / ".gpulint.yaml")
    assert config.find([]) == str(repo / ".gpulint.yaml")  # from the working directory


def test_nearest_file_wins_and_search_stops_at_repository_root(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("fail_on: never\n")
    (repo / "infra" / ".gpulint.yml").write_text("fail_on: error\n")
    assert config.find(["infra"]) == str(repo / "infra" / ".gpulint.yml")
    (repo / ".gpulint.yaml").unlink()
    (repo.parent / ".gpulint.yaml").write_text("fail_on: info\n")  # outside the repository
    try:
        assert config.find([str(repo)]) is None
    finally:
        (repo.parent / ".gpulint.yaml").unlink()


def test_pyproject_tool_section(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[project]\nname = "x"  # see [tool.gpulint]\n')
    assert config.find(["infra"]) is None  # a pyproject without [tool.gpulint] is not a config
    (repo / "pyproject.toml").write_text('[tool.gpulint]\nfail_on = "never"\n'
                                         '[tool.gpulint.rules]\ngpu-missing-cost-tags = false\n')
    found = config.find(["infra"])
    assert found == str(repo / "pyproject.toml")
    loaded = config.load(found)
    assert loaded.data == {"fail_on": "never", "rules": {"gpu-missing-cost-tags": False}}


def test_yaml_file_beats_pyproject_in_the_same_directory(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.gpulint]\nfail_on = "never"\n')
    (repo / ".gpulint.yaml").write_text("fail_on: error\n")
    assert config.find(["infra"]) == str(repo / ".gpulint.yaml")


# --- precedence ------------------------------------------------------------------------------

def test_config_sets_defaults_and_flags_override(repo: Path) -> None:
    # other.tf has an untagged GPU instance: a warning.
    assert _invoke("scan", "infra").exit_code == 1
    (repo / ".gpulint.yaml").write_text("fail_on: error\n")
    assert _invoke("scan", "infra").exit_code == 0  # the file's fail_on
    assert _invoke("scan", "infra", "--fail-on", "warning").exit_code == 1  # the flag wins


def test_explicit_config_file_and_rule_settings(repo: Path) -> None:
    (repo / "team.yaml").write_text(
        "rules:\n  gpu-missing-cost-tags: false\n  gpu-training-on-demand: error\n")
    _, doc = _json_scan("infra", "--config", "team.yaml")
    rules = {f["rule"]: f["severity"] for f in doc["findings"]}
    assert rules == {"gpu-training-on-demand": "error"}


def test_usage_hours_default_is_the_hours_flag_default(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("usage_hours: {default: 365}\n")
    _, doc = _json_scan("infra")
    assert doc["hours_per_month"] == 365
    _, doc = _json_scan("infra", "--hours", "100")
    assert doc["hours_per_month"] == 100


def test_exclude_globs_are_relative_to_the_config_file(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("exclude: ['infra/other.tf']\n")
    _, doc = _json_scan(".")
    assert {r["address"] for r in doc["resources"]} == {"aws_instance.train"}


def test_required_tags_per_provider_and_patterns(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "tags:\n  required: {aws: [team, cost-center], default: [team]}\n"
        "  patterns: {env: 'dev|staging'}\n")
    _, doc = _json_scan("infra")
    messages = {f["address"]: f["message"] for f in doc["findings"]
                if f["rule"] == "gpu-missing-cost-tags"}
    assert messages["aws_instance.untagged"].endswith("team, cost-center")
    assert messages["aws_instance.train"].endswith(
        "cost-center, env='prod' (expected dev|staging)")


def test_rule_options_from_config(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "rules:\n  gpu-missing-cost-tags:\n    options: {required: [owner]}\n")
    _, doc = _json_scan("infra")
    messages = [f["message"] for f in doc["findings"] if f["rule"] == "gpu-missing-cost-tags"]
    assert messages and all(m.endswith("tags: owner") for m in messages)


def test_model_declaration_and_default_region(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "regions: {aws: eu-west-1}\n"
        "models:\n  - address: aws_instance.untag*\n    model: meta-llama/Llama-3.1-8B\n"
        "    precision: bf16\n    purpose: inference\n")
    _, doc = _json_scan("infra")
    res = {r["address"]: r for r in doc["resources"]}
    assert res["aws_instance.untagged"]["model"]["id"] == "meta-llama/Llama-3.1-8B"
    assert res["aws_instance.untagged"]["model"]["source"] == "config .gpulint.yaml"
    assert res["aws_instance.train"]["model"] is None
    assert (res["aws_instance.train"]["region"], res["aws_instance.train"]["region_source"]) == \
        ("eu-west-1", "config")


PRICES = "overrides:\n  - provider: aws\n    instance_type: g5.xlarge\n    hourly_usd: 0.9\n"


def _costs(*args: str) -> dict[str, tuple[float, float, str]]:
    _, doc = _json_scan("infra", *args)
    return {r["address"]: (r["hourly_cost_usd"], r["monthly_cost_usd"], r["price_basis"])
            for r in doc["resources"]}


def test_pricing_overrides_usage_hours_and_regions(repo: Path) -> None:
    (repo / "prices.yaml").write_text(PRICES)
    (repo / ".gpulint.yaml").write_text(
        "pricing_overrides: prices.yaml\nregions: {aws: eu-west-1}\n"
        "usage_hours: {by_workload: {training: 200}, by_resource: {aws_instance.untagged: 50}}\n")
    costs = _costs()
    hourly, monthly, basis = costs["aws_instance.untagged"]
    assert (hourly, monthly) == (0.9, 45.0)
    assert "eu-west-1 (configured default region)" in basis and "override prices.yaml:2" in basis
    assert "× 200 h (hours for workload training)" in costs["aws_instance.train"][2]
    # Flags win over the file.
    costs = _costs("--hours-for", "training=100", "--default-region", "aws=us-west-2")
    basis = costs["aws_instance.train"][2]
    assert "us-west-2" in basis and "× 100 h" in basis


def test_inline_pricing_overrides_and_their_errors(repo: Path) -> None:
    import yaml

    inline = {"pricing_overrides": yaml.safe_load(PRICES)}
    (repo / ".gpulint.yaml").write_text(yaml.safe_dump(inline))
    assert _costs()["aws_instance.untagged"][0] == 0.9
    (repo / "prices.yaml").write_text(PRICES.replace("0.9", "0.5"))
    assert _costs("--pricing-overrides", "prices.yaml")["aws_instance.untagged"][0] == 0.5
    # Prices and errors cite the configuration file's own lines (no re-serialised copy).
    (repo / ".gpulint.yaml").write_text(
        "fail_on: warning\npricing_overrides:\n  overrides:\n    - provider: aws\n"
        "      instance_type: g5.xlarge\n      hourly_usd: 0.9\n")
    assert "override .gpulint.yaml:4 (aws g5.xlarge" in _costs()["aws_instance.untagged"][2]
    (repo / ".gpulint.yaml").write_text("pricing_overrides: {overrides: [{provider: ibm}]}\n")
    result = _invoke("scan", "infra")
    assert result.exit_code == 2 and ".gpulint.yaml:1: overrides[0].provider: must be one of " \
        "aws, gcp, azure, oci, coreweave, lambda or nebius, got 'ibm'" in result.stderr
    # Every problem at once: the same override also lacks its price.
    assert ".gpulint.yaml:1: overrides[0]: set exactly one of discount_percent or hourly_usd" \
        in result.stderr


# --- errors ----------------------------------------------------------------------------------

BAD = """\
fail_on: warnin
rulez: {}
rules:
  gpu-training-on-demand:
    severty: error
  gpu-notebook-without-shutdown: warn
tags:
  required: {aws: [team], gpc: [team]}
  patterns: {env: "(dev"}
usage_hours:
  by_workload: {trainig: 100}
models:
  - model: meta-llama/Llama-3.1-8B
"""


def test_every_error_at_once_with_line_key_path_and_suggestion(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(BAD)
    result = _invoke("scan", "infra")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "gpulint: invalid configuration (8 problems)"
    assert lines[1:] == [
        "  .gpulint.yaml:1: fail_on: 'warnin' is not one of 'error', 'warning', 'info', 'never' "
        "(did you mean 'warning'?)",
        "  .gpulint.yaml:2: rulez: unknown key 'rulez' (did you mean 'rules'?)",
        "  .gpulint.yaml:5: rules.gpu-training-on-demand.severty: unknown key 'severty' "
        "(did you mean 'severity'?)",
        "  .gpulint.yaml:6: rules.gpu-notebook-without-shutdown: got 'warn'; expected true/false "
        "or one of 'off', 'error', 'warning', 'info' or a mapping (did you mean 'warning'?)",
        "  .gpulint.yaml:8: tags.required.gpc: unknown key 'gpc' (did you mean 'gcp'?)",
        "  .gpulint.yaml:9: tags.patterns.env: invalid regular expression: missing ), "
        "unterminated subpattern at position 0",
        "  .gpulint.yaml:11: usage_hours.by_workload.trainig: unknown key 'trainig' (did you mean "
        "'training'?); expected one of 'training', 'inference', 'notebook', 'batch', 'dev', "
        "'unknown'",
        "  .gpulint.yaml:13: models[0]: needs 'address' or 'path'",
    ]


def test_unknown_rule_and_option_names_are_checked_against_loaded_rules(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "rules:\n  gpu-missing-cost-tag: false\n"
        "  gpu-missing-cost-tags:\n    options: {requried: [team]}\n")
    result = _invoke("scan", "infra")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[1:] == [
        "  .gpulint.yaml:2: rules.gpu-missing-cost-tag: unknown rule 'gpu-missing-cost-tag' "
        "(did you mean 'gpu-missing-cost-tags'?)",
        "  .gpulint.yaml:4: rules.gpu-missing-cost-tags.options.requried: rule "
        "gpu-missing-cost-tags has no option 'requried' (did you mean 'required'?)",
    ]


def test_pyproject_errors_name_the_file_line_and_key(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.gpulint]\nfail-on = "never"\n')
    result = _invoke("scan", "infra")
    assert result.exit_code == 2
    assert "pyproject.toml:2: fail-on: unknown key 'fail-on' (did you mean 'fail_on'?)" \
        in result.stderr


@pytest.mark.parametrize("text,message", [
    ("fail_on: [\n", "invalid YAML"),
    ("- a list\n", "(top level): the configuration must be a mapping"),
    ("rules_dirs: [nowhere]\n", "rules_dirs[0]: no such directory: nowhere"),
    ("pricing_overrides: nowhere.yaml\n", "pricing_overrides: no such file: nowhere.yaml"),
])
def test_bad_files_exit_2_with_a_message(repo: Path, text: str, message: str) -> None:
    (repo / ".gpulint.yaml").write_text(text)
    result = _invoke("scan", "infra")
    assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_missing_explicit_config(repo: Path) -> None:
    result = _invoke("scan", "infra", "--config", "nope.yaml")
    assert result.exit_code == 2 and "nope.yaml: configuration file not found" in result.stderr


def test_custom_rules_dir_from_config(repo: Path) -> None:
    rules = repo / "policies"
    rules.mkdir()
    (rules / "no-p4d.yaml").write_text("id: no-p4d\nsummary: too short\n")
    (repo / ".gpulint.yaml").write_text("rules_dirs: [policies]\n")
    result = _invoke("scan", "infra")
    assert result.exit_code == 2
    assert "no-p4d.yaml: invalid rule" in result.stderr and "'severity' is a required" \
        in result.stderr


# --- init ------------------------------------------------------------------------------------

def test_init_writes_a_valid_commented_starter_and_refuses_to_overwrite(repo: Path) -> None:
    result = _invoke("init")
    assert result.exit_code == 0, result.output
    text = (repo / ".gpulint.yaml").read_text()
    assert text == starter() and text.count("\n#") > 10
    loaded = config.load(".gpulint.yaml")  # valid against the schema
    assert loaded.data["fail_on"] == "warning"
    assert _invoke("scan", "infra").exit_code in (0, 1)
    (repo / ".gpulint.yaml").write_text("fail_on: never\n")
    result = _invoke("init")
    assert result.exit_code == 2 and "already exists; use --force" in result.stderr
    assert (repo / ".gpulint.yaml").read_text() == "fail_on: never\n"
    assert _invoke("init", "--force").exit_code == 0
    assert (repo / ".gpulint.yaml").read_text() == starter()


def test_every_commented_example_in_the_starter_is_valid() -> None:
    """Uncommenting the examples must give a valid file, so the starter teaches real syntax."""
    import re

    import yaml

    def example(line: str) -> bool:  # a commented-out key or list item, not prose
        return re.match(r"^\s*# (\s*- |\s*[\w./*-]+:(\s|$))", line) is not None

    uncommented = "\n".join(line.replace("# ", "", 1) if example(line) else line
                            for line in starter().splitlines())
    data = yaml.safe_load(uncommented)
    assert config.validate(data) == []
    assert {"regions", "models", "usage_hours", "thresholds", "rules_dirs", "clusters"} <= set(data)


def test_cost_threshold_is_the_diff_default(repo: Path) -> None:
    base = _invoke("scan", "infra", "--format", "json", "--fail-on", "never")
    (repo / "base.json").write_text(base.stdout)
    (repo / "infra" / "extra.tf").write_text(
        'resource "aws_instance" "extra" {\n  instance_type = "g5.xlarge"\n}\n')
    (repo / ".gpulint.yaml").write_text("thresholds: {max_increase_usd: 100}\n")
    result = _invoke("diff", "infra", "--compare-to", "base.json")
    assert result.exit_code == 1
    assert "more than the $100.00 allowed" in result.stderr
    assert _invoke("diff", "infra", "--compare-to", "base.json",
                   "--max-increase", "5000").exit_code == 0


# --- gpulint rules -----------------------------------------------------------------------------

def test_rules_lists_severities_and_enablement_as_the_scan_uses_them(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "rules:\n  gpu-notebook-without-shutdown: false\n  gpu-training-on-demand: error\n"
        "  gpu-missing-cost-tags: {severity: info, options: {required: [owner]}}\n")
    result = _invoke("rules")
    assert result.exit_code == 0, result.output
    listing = result.stdout
    assert _severity(listing, "gpu-notebook-without-shutdown") == "off"
    assert _severity(listing, "gpu-training-on-demand") == "error"
    assert _severity(listing, "gpu-missing-cost-tags") == "info"
    assert _severity(listing, "gpu-unused-by-parallelism") == "warning"  # as written
    assert "(as configured by .gpulint.yaml)" in result.stdout
    shown = _invoke("rules", "show", "gpu-missing-cost-tags")
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith("gpu-missing-cost-tags (info, ")
    assert "required = ['owner']" in shown.stdout
    off = _invoke("rules", "show", "gpu-notebook-without-shutdown")
    assert off.exit_code == 0 and "(off; warning when on," in off.stdout
    # The same settings in a file named with --config, from a directory without one.
    (repo / ".gpulint.yaml").rename(repo / "team.yaml")
    plain = _invoke("rules").stdout
    assert _severity(plain, "gpu-training-on-demand") == "warning" and "configured" not in plain
    named = _invoke("rules", "--config", "team.yaml").stdout
    assert _severity(named, "gpu-training-on-demand") == "error"
    assert "(as configured by team.yaml)" in named


def _severity(listing: str, rule_id: str) -> str:
    return next(line.split()[1] for line in listing.splitlines() if line.split()[:1] == [rule_id])


def test_rules_with_a_broken_configuration_is_a_usage_error(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("rules:\n  gpu-missing-cost-tag: false\n")
    result = _invoke("rules")
    assert result.exit_code == 2
    assert "unknown rule 'gpu-missing-cost-tag'" in result.stderr


def test_model_declaration_with_parallelism(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text(
        "models:\n  - address: aws_instance.train\n    model: meta-llama/Llama-3.1-8B-Instruct\n"
        "    purpose: inference\n    tensor_parallel: 2\n    data_parallel: 2\n")
    _, doc = _json_scan("infra")
    idle = [f for f in doc["findings"] if f["rule"] == "gpu-unused-by-parallelism"]
    assert [f["address"] for f in idle] == ["aws_instance.train"]
    assert "tensor parallelism 2 × data parallelism 2 = 4 GPUs (config .gpulint.yaml), " \
        "so 4 GPUs sit idle" in idle[0]["message"]
    (repo / ".gpulint.yaml").write_text(
        "models:\n  - address: aws_instance.train\n    model: m/x-7b\n    tensor_parallel: 0\n")
    result = _invoke("scan", "infra")
    assert result.exit_code == 2 and "models[0].tensor_parallel" in result.stderr


# --- terraform.var_files ------------------------------------------------------------------------

_PLATFORM = ('variable "gpu_type" {}\n'
             'resource "aws_instance" "gpu" {\n  instance_type = var.gpu_type\n}\n')


def _platform(repo: Path, *envs: str) -> None:
    for env in envs:
        (repo / "envs" / env).mkdir(parents=True)
        (repo / "envs" / env / "main.tf").write_text(_PLATFORM)
        (repo / "envs" / env / "platform.tfvars").write_text(f'gpu_type = "g6e.{env}"\n')


def test_unloaded_var_file_is_named_with_its_flag(repo: Path) -> None:
    _platform(repo, "xlarge")
    result = _invoke("scan", "envs", "--fail-on", "never")
    assert "variable gpu_type has no default and no value was given" in result.stdout
    assert "fix: pass --var-file envs/xlarge/platform.tfvars" in result.stdout
    _, report = _json_scan("envs", "--fail-on", "never")
    reasons = [u["reason"] for r in report["resources"] for u in r["unknowns"]]
    assert any("set by platform.tfvars (not auto-loaded): pass --var-file "
               "envs/xlarge/platform.tfvars" in r for r in reasons), reasons


def test_var_files_per_directory_from_the_configuration(repo: Path) -> None:
    _platform(repo, "xlarge", "2xlarge")
    (repo / "envs" / "2xlarge" / "override.tfvars").write_text('gpu_type = "g6e.4xlarge"\n')
    (repo / ".gpulint.yaml").write_text(
        "terraform:\n  var_files:\n    envs/*: [platform.tfvars]\n"
        "    envs/2xlarge: [override.tfvars, missing.tfvars]\n")
    result = _invoke("scan", "envs", "--format", "json", "--fail-on", "never")
    report = json.loads(result.stdout)
    types = {r["path"]: r["instance_type"] for r in report["resources"]}
    # Every matching entry applies, in the file's order: the later file wins.
    assert types == {"envs/xlarge/main.tf": "g6e.xlarge",
                     "envs/2xlarge/main.tf": "g6e.4xlarge"}
    assert [d["message"] for d in report["diagnostics"]] == \
        ["var file missing.tfvars (configuration terraform.var_files) does not exist here"]
    # --var still wins over the configured files.
    _, report = _json_scan("envs", "--fail-on", "never", "--var", "gpu_type=g6e.2xlarge")
    assert {r["instance_type"] for r in report["resources"]} == {"g6e.2xlarge"}
    assert config.validate({"terraform": {"var_files": {"x": "a.tfvars"}}})
