"""Terraform values that are cheap to write and ruinous to evaluate: each becomes an unknown
value naming gpulint's bound, the GPU resource is still reported, the files next to it scan as
they would alone, and the whole scan stays within time and memory bounds (a child process under
resource limits)."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest

import bounded
from test_hostile import copy_good, under

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile",
                       "evaluation-limits")

# address -> words its "could not evaluate" reason must contain (None: evaluates normally)
EXPECTED: dict[str, str | None] = {
    "aws_instance.invalid_regex_in_try": None,  # try() catches the error: the fallback is used
    "aws_instance.invalid_regex": "invalid regular expression",
    "aws_instance.infinite_count": "infinite",
    "aws_instance.not_a_number": "not a number",
    "aws_instance.huge_division": "too large to be a number",
    "aws_instance.long_digits": "is not a number gpulint reads",
    "aws_instance.squared": "product of more than 13,000 bits",
    "aws_instance.joined": "join(): string longer than 1,000,000 characters",
    "aws_instance.formatted": "format(): string longer than 1,000,000 characters",
    "aws_instance.replaced": "replace(): string longer than 1,000,000 characters",
    "aws_instance.concatenated": "concat(): list longer than 100,000 elements",
    "aws_instance.precision": "precision 999999999 exceeds gpulint's limit",
    "aws_instance.backtracking_regex": "regex(): regular expression took longer than",
    "aws_instance.backtracking_replace": "replace(): regular expression took longer than",
    "aws_instance.distinct_range": None,  # 100,000 numbers: linear, not pairwise
    "aws_instance.shared_nesting": "jsonencode(): string longer than 1,000,000",
    "aws_instance.loop_of_calls": "evaluation needs more than 5,000,000 steps",
    "aws_instance.ordinary": None,
    "aws_instance.huge_literal": "infinite",
    "aws_instance.deep_yaml": "yamldecode(): nested deeper than 200 levels",
}


def _scan(*paths: str, cwd: str) -> tuple[bounded.Run, dict[str, Any]]:
    run = bounded.gpulint("scan", "--no-cache", "--jobs", "1", "--format", "json",
                          "--fail-on", "never", *paths, cwd=cwd, cpu_seconds=120,
                          memory_mib=1024)
    assert run.code == 0, run.stderr
    return run, json.loads(run.stdout)


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = str(tmp_path_factory.mktemp("evaluation-limits"))
    # A repository: report paths are relative to its top whichever directories are scanned.
    os.mkdir(os.path.join(base, ".git"))
    copy_good(os.path.join(base, "good"))
    shutil.copytree(HOSTILE, os.path.join(base, "hostile"))
    with open(os.path.join(base, "hostile", "literal.tf"), "w", encoding="utf-8") as fh:
        # 5,000 digits: past Python's 4,300-digit conversion limit
        fh.write('resource "aws_instance" "huge_literal" {\n'
                 f'  count         = {"7" * 5000}\n  instance_type = "g5.xlarge"\n}}\n')
    with open(os.path.join(base, "hostile", "yaml.tf"), "w", encoding="utf-8") as fh:
        # 40,000 levels: libyaml's composer recursed until the process died (signal 11)
        fh.write('locals {\n  deep = "' + "[" * 40_000 + "]" * 40_000 + '"\n}\n'
                 'resource "aws_instance" "deep_yaml" {\n  instance_type = '
                 'length(yamldecode(local.deep)) > 0 ? "g5.xlarge" : "p4d.24xlarge"\n}\n')
    run, both = _scan("good", "hostile", cwd=base)
    _, alone = _scan("good", cwd=base)
    return {"run": run, "both": both, "alone": alone}


def test_each_bomb_is_an_unknown_naming_the_bound(scans: dict[str, Any]) -> None:
    report = scans["both"]
    hostile = under(report, "hostile")
    assert not hostile["diagnostics"], hostile["diagnostics"]
    lines = {r["address"]: r["line"] for r in hostile["resources"]}
    assert set(lines) == set(EXPECTED), "every GPU instance is still reported"
    reasons: dict[str, str] = {}
    for item in hostile["not_evaluated"]:
        reasons[item["address"]] = reasons.get(item["address"], "") + item["reason"]
    for res in hostile["resources"]:
        for unknown in res["unknowns"]:
            reasons[res["address"]] = reasons.get(res["address"], "") + unknown["reason"]
    for address, words in EXPECTED.items():
        if words is None:
            assert address not in reasons, (address, reasons.get(address))
        else:
            assert words in reasons.get(address, ""), (address, reasons.get(address))


def test_good_files_are_unchanged_next_to_the_bombs(scans: dict[str, Any]) -> None:
    assert under(scans["both"], "good") == under(scans["alone"], "good")


def test_bounded_in_time_and_memory(scans: dict[str, Any]) -> None:
    run = scans["run"]
    # Measured: about 2 s and 120 MiB on two shared cores; without the bounds the first
    # doubling string alone needs 2^40 characters.
    assert run.seconds < 30, run.seconds
    assert run.peak_mib < 512, run.peak_mib


def test_work_repeated_per_instance_is_bounded_across_the_scan(tmp_path: Any) -> None:
    # Each instance's expression is under the per-evaluation budget; 10,000 of them are not.
    (tmp_path / "main.tf").write_text(
        'resource "aws_instance" "gpu" {\n  count         = 10000\n'
        '  instance_type = length(distinct(range(100000))) > count.index ? "g5.xlarge" : '
        '"p4d.24xlarge"\n}\n')
    run = bounded.gpulint("scan", "--no-cache", "--jobs", "1", "--format", "json",
                          "--fail-on", "never", str(tmp_path), cpu_seconds=120)
    assert run.code == 0, run.stderr
    assert run.seconds < 60, run.seconds  # was about an hour
    report = json.loads(run.stdout)
    assert len(report["resources"]) == 10_000
    reasons = {u["reason"] for r in report["resources"] for u in r["unknowns"]}
    assert any("the scan's Terraform evaluation took more than 50,000,000 steps" in reason
               for reason in reasons), sorted(reasons)[:3]
