"""Tests over the rule catalogue as a whole."""

from __future__ import annotations

import os
import re
import string
import subprocess
import sys

import pytest
import yaml

from gpulint import pipeline as scan
from gpulint.comments import directives
from gpulint.facts.registry import placeholder_names
from gpulint.ruleset import builtin_rules_dir, load_rules, rule_files, validate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_RULES = os.path.join(ROOT, "rules")
FIXTURES = os.path.join(ROOT, "tests", "rules")
RULES = load_rules()


def test_rule_files_validate_and_ids_match_stems() -> None:
    for path in rule_files(REPO_RULES):
        with open(path) as fh:
            assert validate(yaml.safe_load(fh), path) == [], path


def test_installed_rules_match_the_repository() -> None:
    """The package (wheel or source tree) carries exactly the rules in rules/."""
    installed = sorted(os.path.basename(p) for p in rule_files(builtin_rules_dir()))
    assert installed == sorted(os.path.basename(p) for p in rule_files(REPO_RULES))


def test_ids_unique() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_every_rule_has_positive_and_negative_fixtures(rule) -> None:
    folder = os.path.join(FIXTURES, rule.id)
    assert os.path.isdir(folder), f"no fixtures for {rule.id}"
    keys = set()
    for dirpath, _, names in os.walk(folder):
        for n in names:
            with open(os.path.join(dirpath, n)) as fh:
                keys |= {d.key for d in directives(fh.read(), {"ruleid", "ok"})
                         if d.value.split()[0] == rule.id}
    assert keys == {"ruleid", "ok"}, f"{rule.id} needs both ruleid: and ok: fixtures"


def test_no_fixture_folder_without_a_rule() -> None:
    ids = {r.id for r in RULES}
    assert set(os.listdir(FIXTURES)) <= ids


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_docs_examples_behave_as_documented(rule, tmp_path) -> None:
    for which, should_fire in (("bad", True), ("good", False)):
        example = rule.docs[which]
        name = "example.yaml" if "apiVersion:" in example else "example.tf"
        path = os.path.join(tmp_path, which, name)
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as fh:
            fh.write(example)
        result = scan.run([path], [rule])
        fired = [f for f in result.findings if f.rule == rule.id]
        assert bool(fired) == should_fire, f"docs.{which} of {rule.id}"
        assert not result.diagnostics


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_message_placeholders_are_documented(rule) -> None:
    known = set(placeholder_names())
    used = {f for _, f, _, _ in string.Formatter().parse(rule.message) if f}
    assert used <= known, used - known


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.id)
def test_punctuation_habits(rule) -> None:
    assert rule.remediation.strip().endswith(".")
    assert not rule.message.rstrip().endswith(".")
    assert re.fullmatch(r"[a-z0-9-]+", rule.id)


def test_generated_rule_docs_are_current() -> None:
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_rule_docs.py"),
                           "--check"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
