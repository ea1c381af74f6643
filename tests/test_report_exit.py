"""--fail-on: one decision for `scan` and `comment github` (report/exit.py)."""

from __future__ import annotations

import pytest

from gpulint.model import Severity
from gpulint.report.exit import FAIL_ON_CHOICES, fails


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
    assert not fails({"findings": [], "diagnostics": [{"severity": "warning"}]}, "error")


def test_unknown_severities_are_not_counted() -> None:
    assert not fails({"findings": [{"severity": "fatal"}, {}]}, "info")
