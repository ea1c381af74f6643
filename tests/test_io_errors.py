"""Ordinary I/O failures and malformed files given on the command line end in an error message
and exit 2 (or, for a reader that went away, a quiet exit), never in an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import bounded

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
ENV = dict(os.environ, PYTHONPATH=bounded.SRC)


def gpulint(*args: str) -> bounded.Run:
    run = bounded.gpulint(*args, cpu_seconds=60)
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    return run


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("command", [["scan"], ["cost"], ["baseline"]])
def test_output_to_a_full_disk(command: list[str]) -> None:
    run = gpulint(*command, "--no-cache", "-o", "/dev/full", EXAMPLES)
    assert run.code == 2  # was 3: OSError ENOSPC
    assert "cannot write the report to /dev/full: No space left on device" in run.stderr


def test_closed_standard_output() -> None:
    done = subprocess.run(  # `gpulint scan >&-`
        f"exec {sys.executable} -m gpulint scan --no-cache {EXAMPLES} >&-", shell=True,
        env=ENV, capture_output=False, stderr=subprocess.PIPE, timeout=120, check=False)
    assert done.returncode == 2  # was 3: AttributeError on None.isatty
    assert b"standard output is closed (use -o FILE)" in done.stderr


def test_reader_that_goes_away_ends_quietly() -> None:
    done = subprocess.run(  # `gpulint scan --format json | head -c 10`
        f"{sys.executable} -m gpulint scan --no-cache --format json {EXAMPLES} | head -c 10",
        shell=True, env=ENV, capture_output=True, timeout=120, check=False)
    assert done.stdout == b'{\n  "schem'
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr


def test_hours_nan_is_a_usage_error(tmp_path: Any) -> None:
    run = gpulint("scan", "--no-cache", "--hours", "nan", EXAMPLES)
    assert run.code == 2 and "'nan' is not a number of hours" in run.stderr  # was NaN in JSON
    config = tmp_path / "config.yaml"
    config.write_text("usage_hours:\n  default: .nan\n")
    run = gpulint("scan", "--no-cache", "--config", str(config), EXAMPLES)
    assert run.code == 2
    assert f"{config}:2: usage_hours.default: not a finite number" in run.stderr


CATALOGS = {
    "list.json": ("[]", "not a gpulint catalog (not a JSON object)"),
    "count.json": (json.dumps({"schema_version": 1, "providers": {"aws": {"instances": {
        "g5.xlarge": {"kind": "gpu", "model": "A10G", "count": "1", "mem": 24, "vcpus": 4,
                      "ram": 16}}}}}), "providers.aws.instances.g5.xlarge: 'count' must be"),
    "prices.json": (json.dumps({"schema_version": 1, "providers": {"aws": {"prices": {
        "g5.xlarge": {"us-east-1": "1.0"}}}}}), "providers.aws.prices.g5.xlarge.us-east-1 must"),
    "truncated.json": ('{"schema_version": 1, "providers": {', "Expecting"),
}


@pytest.mark.parametrize("name", sorted(CATALOGS))
def test_malformed_catalog(tmp_path: Any, name: str) -> None:
    text, message = CATALOGS[name]
    (tmp_path / name).write_text(text)
    run = gpulint("scan", "--no-cache", "--catalog", str(tmp_path / name), EXAMPLES)
    assert run.code == 2 and message in run.stderr, run.stderr  # a list was exit 3


@pytest.mark.parametrize(("flag", "text", "message"), [
    ("--baseline", "[]", "not a gpulint baseline"),
    ("--baseline", '{"version": 1, "findings": ', "invalid baseline JSON"),
    ("--pricing-overrides", "overrides:\n  - 5\n", "each override must be a mapping"),
    ("--pricing-overrides", "overrides: [", "overrides.yaml"),
])
def test_malformed_baseline_and_overrides(tmp_path: Any, flag: str, text: str,
                                          message: str) -> None:
    path = tmp_path / ("overrides.yaml" if "overrides" in flag else "baseline.json")
    path.write_text(text)
    run = gpulint("scan", "--no-cache", flag, str(path), EXAMPLES)
    assert run.code == 2 and message in run.stderr, run.stderr


def test_truncated_or_reshaped_report_given_to_comment(tmp_path: Any) -> None:
    full = gpulint("scan", "--no-cache", "--format", "json", "--fail-on", "never", EXAMPLES)
    report = json.loads(full.stdout)
    cases = {"truncated.json": full.stdout[: len(full.stdout) // 2],
             "findings.json": json.dumps(dict(report, findings=[5])),
             "resources.json": json.dumps(dict(report, resources=[{"address": []}])),
             "empty.json": "{}"}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        run = gpulint("comment", "github", "--report", str(tmp_path / name))
        assert run.code == 2, (name, run.stderr)  # reshaped ones were exit 3
        assert f"report {tmp_path / name} is not" in run.stderr, run.stderr
