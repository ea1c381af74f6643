"""The one exit-status decision, shared by `gpulint scan` and `gpulint comment github`.

Exit 1 comes from findings at or above --fail-on and from files that could not be read or
parsed (error diagnostics): a broken file must not pass CI silently. Tool notices (warning and
info diagnostics: an unused suppression, a skipped binary file, an unrendered chart) never
gate, unless strict mode asks, which also fails on GPU resources that could not be priced or
evaluated. The report's `summary.gate` records these counts, so the summary shows exactly what
set the exit status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from gpulint.model import NEVER, Severity


@dataclass(frozen=True)
class Gate:
    fail_on: str
    strict: bool
    findings: int  # findings at or above fail_on
    broken_files: int  # files that could not be read or parsed
    notices: int  # warning diagnostics: gate only in strict mode
    unevaluated: int  # GPU resources not priced or not fully evaluated: strict mode only

    @property
    def failed(self) -> bool:
        if self.fail_on == NEVER:
            return False
        strict = self.strict and (self.notices > 0 or self.unevaluated > 0)
        return self.findings > 0 or self.broken_files > 0 or strict

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "failed": self.failed}


def _rank(item: Mapping[str, Any]) -> int | None:
    try:
        return Severity(item.get("severity")).rank
    except ValueError:  # a severity gpulint does not know is not counted
        return None


def gate(report: Mapping[str, Any], threshold: str, strict: bool = False) -> Gate:
    """What decides the exit status of ``report`` at ``threshold``."""
    limit = Severity.ERROR.rank + 1 if threshold == NEVER else Severity(threshold).rank
    findings = sum(1 for f in report.get("findings") or () if (_rank(f) or -1) >= limit)
    diagnostics = report.get("diagnostics") or ()
    broken = {d.get("path") for d in diagnostics if d.get("severity") == "error"}
    notices = sum(1 for d in diagnostics if d.get("severity") == "warning")
    unevaluated = {(r.get("path"), r.get("address")) for r in report.get("resources") or ()
                   if r.get("monthly_cost_usd") is None}
    unevaluated |= {(n.get("path"), n.get("address")) for n in report.get("not_evaluated") or ()}
    return Gate(threshold, strict, findings, len(broken), notices, len(unevaluated))


def fails(report: Mapping[str, Any], threshold: str, strict: bool = False) -> bool:
    return gate(report, threshold, strict).failed
