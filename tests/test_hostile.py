"""Hostile input: every bad file yields a diagnostic naming it, and nothing else changes.

The scan of good files next to hostile ones must report exactly what the scan of the good files
alone reports: same resources, findings, unevaluated items and diagnostics.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest
from click.testing import CliRunner

import hostile_inputs
from gpulint.cli import cli
from gpulint.config.settings import ScanSettings, Settings
from gpulint.load import parallel

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD_SOURCES = [os.path.join(ROOT, "examples"),
                os.path.join(ROOT, "tests", "rules", "gpu-training-on-demand"),
                os.path.join(ROOT, "tests", "rules", "gpu-notebook-without-shutdown")]


def scan_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", "--fail-on", "never", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


def copy_good(dest: str) -> None:
    for src in GOOD_SOURCES:
        shutil.copytree(src, os.path.join(dest, os.path.basename(src)))


def under(report: dict[str, Any], prefix: str) -> dict[str, list[Any]]:
    """The parts of a report about files below `prefix`."""
    keys = ("resources", "findings", "not_evaluated", "diagnostics")
    return {k: [e for e in report.get(k, []) if str(e.get("path", "")).startswith(prefix)]
            for k in keys}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[hostile_inputs.Case]]:
    base = str(tmp_path_factory.mktemp("hostile-tree"))
    # A repository: report paths are relative to its top whichever directories are scanned.
    os.mkdir(os.path.join(base, ".git"))
    copy_good(os.path.join(base, "good"))
    cases = hostile_inputs.build(os.path.join(base, "hostile"))
    yield base, cases
    locked = os.path.join(base, "hostile", "locked.tf")
    if os.path.exists(locked):
        os.chmod(locked, 0o644)


@pytest.fixture(scope="module")
def reports(tree: tuple[str, list[hostile_inputs.Case]]) -> dict[str, dict[str, Any]]:
    base, _ = tree
    old = os.getcwd()
    os.chdir(base)
    try:
        limit = str(hostile_inputs.HUGE_LIMIT_KIB)
        out = {}
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(parallel, "PARALLEL_MIN_SECONDS", 0.0)  # "--jobs 2" really uses workers
            for name, args in {"good": ["--jobs", "1", "good"],
                               "both": ["--jobs", "1", "good", "hostile"],
                               "both-parallel": ["--jobs", "2", "good", "hostile"]}.items():
                code, out[name] = scan_json("--no-cache", "--max-file-size", limit, *args)
                assert code == 0
        return out
    finally:
        os.chdir(old)


def test_good_files_give_the_same_results_next_to_hostile_ones(
        reports: dict[str, dict[str, Any]]) -> None:
    good = under(reports["good"], "good")
    assert good["resources"] and good["findings"], "the good set must exercise the rules"
    assert under(reports["both"], "good") == good


def test_parallel_scan_of_hostile_tree_matches_serial(reports: dict[str, dict[str, Any]]) -> None:
    assert reports["both-parallel"] == reports["both"]


def test_every_hostile_file_has_its_diagnostic(
        tree: tuple[str, list[hostile_inputs.Case]], reports: dict[str, dict[str, Any]]) -> None:
    _, cases = tree
    diags = reports["both"]["diagnostics"]
    for case in cases:
        path = os.path.join("hostile", case.path)
        mine = [d for d in diags if d["path"] == path]
        if case.message is None:
            assert not mine, f"{path} should scan cleanly: {mine}"
            continue
        assert any(case.message in d["message"] for d in mine), f"{path}: {mine or diags}"
        if case.line is not None:
            assert any(d["line"] == case.line for d in mine if case.message in d["message"]), mine


def test_bom_and_crlf_files_are_read_with_the_right_lines(
        reports: dict[str, dict[str, Any]]) -> None:
    found = {(r["path"], r["line"]) for r in reports["both"]["resources"]}
    assert (os.path.join("hostile", "bom-crlf", "main.tf"), 2) in found
    assert (os.path.join("hostile", "bom-crlf.yaml"), 2) in found


def test_unreadable_file_case(tree: tuple[str, list[hostile_inputs.Case]]) -> None:
    _, cases = tree
    if hostile_inputs.running_as_root():
        pytest.skip("running as root: chmod 000 does not stop root from reading the file")
    assert any(c.path == "locked.tf" for c in cases)


def test_max_file_size_is_configurable_in_scan_options(tmp_path: Any) -> None:
    from gpulint import pipeline as scan
    from gpulint.ruleset import load_rules

    path = tmp_path / "big.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\n" + "# pad\n" * 400)
    small = scan.run([str(path)], load_rules(), Settings(scan=ScanSettings(max_file_bytes=1024)))
    assert [d.message for d in small.diagnostics if "larger than 1 KiB" in d.message]
    assert not scan.run([str(path)], load_rules(), Settings()).diagnostics


def test_evaluation_bombs_become_unknown_values_not_hangs() -> None:
    from gpulint import pipeline as scan
    from gpulint.ruleset import load_rules

    result = scan.run([os.path.join(hostile_inputs.HOSTILE, "evaluation-bombs")], load_rules(),
                      Settings(scan=ScanSettings(jobs=1)))
    reasons = {r.address: " ".join(reason for _, reason in r.unknowns) for r in result.resources}
    # Instances whose type is nothing but the bomb are named once, not listed as GPU resources.
    reasons.update((n.address, n.reason) for n in result.module_notes)
    assert "gpulint's limit" in reasons["aws_instance.billion"]
    assert "gpulint's limit" in reasons["aws_instance.nested_for"]
    assert "limit" in reasons["aws_instance.huge_range"]
    assert "limit" in reasons["aws_instance.wide_format"]
    assert "string longer than 1,000,000 characters" in reasons["aws_instance.doubled_string"]
    chained = next(r for r in result.resources if r.address == "aws_instance.chained")
    assert chained.facts["instance.type"] == "g5.xlarge"
