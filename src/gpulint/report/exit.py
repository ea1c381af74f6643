"""The one --fail-on decision, shared by `gpulint scan` and `gpulint comment github`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpulint.model import Severity

NEVER = "never"
DEFAULT_FAIL_ON = "warning"
# --fail-on choices: most severe first, then "never".
FAIL_ON_CHOICES: tuple[str, ...] = (*(s.value for s in Severity.by_rank()), NEVER)


def fails(report: Mapping[str, Any], threshold: str) -> bool:
    """True when a finding, or a file that could not be read or parsed (an error diagnostic),
    is at or above the threshold: a broken file must not pass CI silently. Items with a
    severity gpulint does not know are not counted."""
    if threshold == NEVER:
        return False
    limit = Severity(threshold).rank
    for item in (*(report.get("findings") or ()), *(report.get("diagnostics") or ())):
        try:
            if Severity(item.get("severity")).rank >= limit:
                return True
        except ValueError:
            continue
    return False
