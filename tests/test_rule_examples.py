"""Each rule's documented examples (`gpulint rules show`): the bad one fires, the good one not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.ruleset import load_rules

RULES = {r.id: r for r in load_rules()}


def _fires(rule_id: str, text: str, tmp_path: str) -> bool:
    name = "example.yaml" if "apiVersion:" in text else "main.tf"
    path = os.path.join(tmp_path, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    result = scan.run([path], [RULES[rule_id]])
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return any(f.rule == rule_id for f in result.findings)


@pytest.mark.parametrize("rule_id", sorted(RULES))
def test_bad_example_fires_and_good_does_not(rule_id: str, tmp_path: Path) -> None:
    docs = RULES[rule_id].docs
    (tmp_path / "bad").mkdir()
    (tmp_path / "good").mkdir()
    assert _fires(rule_id, docs["bad"], str(tmp_path / "bad")), "the bad example does not fire"
    assert not _fires(rule_id, docs["good"], str(tmp_path / "good")), "the good example fires"
