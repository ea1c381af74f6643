"""Every rule fixture against its inline annotations.

A fixture is a file (or a directory, scanned as one Terraform module) under
tests/rules/<rule-id>/. `# ruleid: <id>` says the rule fires on the next line of code, `# ok: <id>`
says it does not, `# unknown: <id>` that it does not fire and the resource is listed as "could not
evaluate" for it (never dropped silently). `pytest -k <rule-id>` runs one rule.
"""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.comments import directives
from gpulint.ruleset import load_rules

FIXTURES = os.path.join(os.path.dirname(__file__), "rules")
ANNOTATIONS = {"ruleid", "ok", "unknown"}


def _cases() -> list[tuple[str, str]]:
    cases = []
    for rule_id in sorted(os.listdir(FIXTURES)):
        folder = os.path.join(FIXTURES, rule_id)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            cases.append((rule_id, os.path.join(folder, name)))
    return cases


def _files(path: str) -> list[str]:
    if os.path.isfile(path):
        return [path]
    return sorted(os.path.join(d, n) for d, _, names in os.walk(path) for n in names)


Lines = set[tuple[str, int]]


def expected(path: str, rule_id: str) -> tuple[Lines, Lines, Lines]:
    """(fires, stays silent, is listed as could not evaluate)"""
    found: dict[str, Lines] = {key: set() for key in ANNOTATIONS}
    for f in _files(path):
        with open(f, encoding="utf-8") as fh:
            for d in directives(fh.read(), ANNOTATIONS):
                if d.value.split()[0] == rule_id:
                    found[d.key].add((os.path.relpath(f), d.target_line))
    return found["ruleid"], found["ok"] | found["unknown"], found["unknown"]


@pytest.mark.parametrize("rule_id,path", _cases(), ids=lambda v: os.path.basename(str(v)))
def test_fixture(rule_id: str, path: str) -> None:
    rules = [r for r in load_rules() if r.id == rule_id]
    assert rules, f"no rule {rule_id!r} for fixture folder"
    fire, silent, unknown = expected(path, rule_id)
    assert fire or silent, f"{path} has no annotations for {rule_id}"
    result = scan.run([os.path.relpath(path)], rules)
    got = {(os.path.relpath(f.path), f.line) for f in result.findings if f.rule == rule_id}
    missing = fire - got
    unexpected = got & silent
    unannotated = got - fire - silent
    assert not result.diagnostics or all(d.severity != "error" for d in result.diagnostics), \
        result.diagnostics
    not_evaluated = {(os.path.relpath(n.path), n.line) for n in result.not_evaluated
                     if n.rule == rule_id}
    assert unknown <= not_evaluated, f"not listed as could not evaluate: {unknown - not_evaluated}"
    assert not missing and not unexpected and not unannotated, (
        f"\nexpected to fire: {sorted(fire)}\nfired: {sorted(got)}\n"
        f"missing: {sorted(missing)}\nunexpected: {sorted(unexpected | unannotated)}")
