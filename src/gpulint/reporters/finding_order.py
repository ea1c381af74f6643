"""The order findings are shown in and which savings overlap, shared by the text report and the
pull-request comment. Defensive about shapes: the comment may render a report read from a file."""

from __future__ import annotations

from typing import Any

from gpulint.model import Severity

SEVERITIES = tuple(s.value for s in Severity.by_rank())


def line_of(item: dict[str, Any]) -> int | None:
    line = item.get("line")
    return line if isinstance(line, int) and not isinstance(line, bool) and line >= 1 else None


def saving(f: dict[str, Any]) -> float:
    value = f.get("monthly_saving_usd")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def sorted_findings(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Most severe first, then the largest saving, then by place."""
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(findings, key=lambda f: (order.get(str(f.get("severity")), 9), -saving(f),
                                           str(f.get("path")), line_of(f) or 0))


def alternatives(findings: list[dict[str, Any]]) -> set[int]:
    """Findings whose saving overlaps a larger one on the same resource (fixes to one resource
    are alternatives, not additive), by ``id``."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for f in findings:
        key = (str(f.get("path")), str(f.get("address")))
        if saving(f) > saving(best.get(key, {})):
            best[key] = f
    return {id(f) for f in findings
            if saving(f) and best.get((str(f.get("path")), str(f.get("address")))) is not f}
