"""Configuration and custom rules are input too (a pull request can change them): nesting,
alias bombs, recursion, deep TOML, a FIFO in a rules directory, format widths, regexes that do
not compile and regexes that backtrack for hours each end in exit 2 naming the file and line, or
in a bounded 'could not evaluate'; never a traceback, a hang or a memory blow-up."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import yaml

import bounded

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GPU_TF = ('resource "aws_instance" "trainer" {\n  instance_type = "p4d.24xlarge"\n'
          '  tags = { team = "' + "a" * 40 + 'b", project = "llm", env = "prod" }\n}\n')


def run(tmp: Any, *args: str) -> bounded.Run:
    (tmp / "tf").mkdir(exist_ok=True)
    (tmp / "tf" / "main.tf").write_text(GPU_TF)
    result = bounded.gpulint("scan", "--no-cache", "--jobs", "1", "--format", "json",
                             "--fail-on", "never", *args, str(tmp / "tf"), cpu_seconds=60)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert result.seconds < 30 and result.peak_mib < 512, (result.seconds, result.peak_mib)
    return result


def rule(tmp: Any, rule_id: str, **fields: Any) -> str:
    """A custom rule made from a built-in one, with `fields` changed, in its own directory."""
    with open(os.path.join(ROOT, "rules", "gpu-missing-cost-tags.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.pop("deprecated_options", None)
    data.update(id=rule_id, **fields)
    directory = tmp / f"rules-{rule_id}"
    directory.mkdir()
    (directory / f"{rule_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return str(directory)


BOMB = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n"
               for p, c in zip("abcdefgh", "bcdefghi", strict=True))
CONFIGS = {
    "deep.yaml": ("tags:\n  required: " + "[" * 50_000 + "]" * 50_000 + "\n",
                  ":2: invalid YAML: nested deeper than 200 levels"),
    "recursive.yaml": ("tags: &t\n  required: [team]\n  again: *t\n",
                       ":1: invalid YAML: an alias refers to a node that contains it"),
    "bomb.yaml": ("a: &a [x, x, x, x, x, x, x, x, x]\n" + BOMB + "tags:\n  required: *i\n",
                  ":1: invalid YAML: aliases expand to more than 100,000 extra nodes"),
    "pyproject.toml": ("[tool.gpulint]\ntags = { required = " + "[" * 50_000 + '"team"'
                       + "]" * 50_000 + " }\n", ": invalid TOML: nested too deeply"),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_hostile_configuration_is_a_usage_error(tmp_path: Any, name: str) -> None:
    text, message = CONFIGS[name]
    (tmp_path / name).write_text(text)
    result = run(tmp_path, "--config", str(tmp_path / name))  # was: RecursionError or a hang
    assert result.code == 2, result.stderr
    assert f"{tmp_path / name}{message}" in result.stderr, result.stderr


def test_wrongly_typed_rule_option_is_a_usage_error(tmp_path: Any) -> None:
    rules = rule(tmp_path, "custom-allowed-types", options={"allowed": ["g5.xlarge"]},
                 match={"all": [{"fact": "gpu.count", "gt": 0},
                                {"fact": "instance.type", "not_in": {"option": "allowed"}}]})
    config = tmp_path / "config.yaml"
    config.write_text("rules:\n  custom-allowed-types:\n    options:\n      allowed: 5\n")
    result = run(tmp_path, "--rules-dir", rules, "--config", str(config))  # was: TypeError
    assert result.code == 2
    assert (f"{config}:4: rules.custom-allowed-types.options.allowed: must be a list like its "
            "default ['g5.xlarge'], got 5") in result.stderr


@pytest.mark.parametrize(("fields", "message"), [
    ({"message": "{address:>999999999} needs a look."},
     "format specification {address:>999999999} is beyond gpulint's limit"),
    ({"match": {"all": [{"fact": "tags", "mismatches": {"team": "(a"}}]}},
     "pattern of 'team' is not a valid regular expression: missing )"),
])
def test_rules_that_would_fail_at_run_time_are_refused_when_loaded(
        tmp_path: Any, fields: dict[str, Any], message: str) -> None:
    rules = rule(tmp_path, "custom-check", **fields)
    result = run(tmp_path, "--rules-dir", rules)  # was: a 1 GB message, or an internal error
    assert result.code == 2 and message in result.stderr, result.stderr
    check = bounded.gpulint("validate-rules", os.path.join(rules, "custom-check.yaml"))
    assert check.code != 0 and message in check.stdout + check.stderr


def test_fifo_and_deep_yaml_in_a_rules_directory(tmp_path: Any) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    os.mkfifo(rules / "pipe.yaml")  # opening it would block forever
    (rules / "deep.yaml").write_text("id: " + "[" * 50_000 + "]" * 50_000 + "\n")
    result = run(tmp_path, "--rules-dir", str(rules))
    assert result.code == 2
    assert f"{rules / 'pipe.yaml'}: cannot read rule file: " in result.stderr
    assert "not a regular file" in result.stderr
    assert f"{rules / 'deep.yaml'}:1: invalid YAML: nested deeper than 200 levels" \
        in result.stderr


def _not_evaluated(result: bounded.Run, rule_id: str) -> list[str]:
    assert result.code == 0, result.stderr
    report = json.loads(result.stdout)
    assert [r["address"] for r in report["resources"]] == ["aws_instance.trainer"]
    return [n["reason"] for n in report["not_evaluated"] if n["rule"] == rule_id]


def test_backtracking_tag_pattern_is_time_bounded(tmp_path: Any) -> None:
    config = tmp_path / "config.yaml"
    config.write_text('tags:\n  required: [team]\n  patterns:\n    team: "(a|aa)+"\n')
    result = run(tmp_path, "--config", str(config))  # was: hours
    assert _not_evaluated(result, "gpu-missing-cost-tags") == [
        "could not evaluate: pattern '(a|aa)+' took longer than 0.25 s (gpulint's limit)"]


def test_backtracking_custom_rule_regex_is_time_bounded(tmp_path: Any) -> None:
    rules = rule(tmp_path, "custom-team-format",
                 match={"all": [{"fact": "tags", "mismatches": {"team": "(a|aa)+"}}]})
    result = run(tmp_path, "--rules-dir", rules)
    assert _not_evaluated(result, "custom-team-format") == [
        "could not evaluate: pattern '(a|aa)+' took longer than 0.25 s (gpulint's limit)"]
