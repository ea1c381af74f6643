"""--fail-on: one decision for `scan` and `comment github` (report/exit.py)."""

from __future__ import annotations

import pytest

from gpulint.model import FAIL_ON_CHOICES, Severity
from gpulint.report.exit import fails


def test_one_severity_order() -> None:
    assert [s.value for s in Severity.by_rank()] == ["error", "warning", "info"]
    assert Severity.ERROR.rank > Severity.WARNING.rank > Severity.INFO.rank
    assert FAIL_ON_CHOICES == ("error", "warning", "info", "never")


@pytest.mark.parametrize(("threshold", "expected"), [
    ("error", False), ("warning", True), ("info", True), ("never", False)])
def test_threshold_on_findings(threshold: str, expected: bool) -> None:
    report = {"findings": [{"severity": "warning"}, {"severity": "info"}], "diagnostics": []}
    assert fails(report, threshold) is expected


def test_an_unreadable_file_fails_like_an_error_finding() -> None:
    report = {"findings": [], "diagnostics": [{"severity": "error", "path": "main.tf"}]}
    assert fails(report, "error") and not fails(report, "never")
    assert not fails({"findings": [], "diagnostics": [{"severity": "warning"}]}, "warning")


def test_unknown_severities_are_not_counted() -> None:
    assert not fails({"findings": [{"severity": "fatal"}, {}]}, "info")


def test_tool_notices_gate_only_in_strict_mode() -> None:
    report = {"findings": [], "diagnostics": [{"severity": "warning", "path": "a.tf"},
                                              {"severity": "info", "path": "chart"}]}
    assert not fails(report, "info")
    assert fails(report, "info", strict=True) and fails(report, "error", strict=True)
    assert not fails(report, "never", strict=True)


def test_strict_counts_each_unpriced_or_unevaluated_resource_once() -> None:
    from gpulint.report.exit import gate

    report = {"resources": [{"path": "a.yaml", "address": "Deployment/x", "monthly_cost_usd": None},
                            {"path": "a.yaml", "address": "Job/y", "monthly_cost_usd": 10.0}],
              "not_evaluated": [{"path": "a.yaml", "address": "Deployment/x"},
                                {"path": "a.yaml", "address": "Job/y"}]}
    assert gate(report, "warning", strict=True).unevaluated == 2
    assert not gate(report, "warning").failed and gate(report, "warning", strict=True).failed


def test_broken_files_are_counted_by_file() -> None:
    from gpulint.report.exit import gate

    report = {"diagnostics": [{"severity": "error", "path": "a.yaml", "line": 3},
                              {"severity": "error", "path": "a.yaml", "line": 9}]}
    assert gate(report, "error").broken_files == 1
