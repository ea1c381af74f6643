"""GitHub Actions workflow commands (``::warning file=…,line=…::message``) for findings.

Used when a PR comment cannot be written (fork PRs with a read-only token) and on push
builds.  Values are escaped the way the Actions runner unescapes them, so text from scanned
files can neither start a new command nor spill into another property.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_LEVELS = {"error": "error", "warning": "warning", "info": "notice"}
# GitHub shows at most 10 error and 10 warning annotations per step; more are dropped anyway.
DEFAULT_MAX = 50


def escape_data(value: Any) -> str:
    """Escape a command's message part."""
    text = "" if value is None else str(value)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: Any) -> str:
    """Escape a command property value (additionally ``:`` and ``,``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: Any, **props: Any) -> str:
    """Format one workflow command; ``None`` properties are left out."""
    parts = [f"{k}={escape_property(v)}" for k, v in props.items() if v is not None and v != ""]
    return f"::{level}{' ' + ','.join(parts) if parts else ''}::{escape_data(message)}"


def _line(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def iter_annotations(report: dict[str, Any], *,
                     max_annotations: int = DEFAULT_MAX) -> Iterable[str]:
    findings = list(report.get("findings") or [])
    for f in findings[:max_annotations]:
        level = _LEVELS.get(str(f.get("severity")), "warning")
        saving = f.get("monthly_saving_usd")
        title = f"gpulint {f.get('rule') or ''}".strip()
        if saving:
            title += f" (save ${saving:,.0f}/mo)"
        message = str(f.get("message") or "")
        if f.get("remediation"):
            message += f"\nFix: {f['remediation']}"
        yield command(level, message, file=f.get("path"), line=_line(f.get("line")), title=title)
    for d in report.get("diagnostics") or []:
        level = _LEVELS.get(str(d.get("severity")), "warning")
        yield command(level, d.get("message"), file=d.get("path"), line=_line(d.get("line")),
                      title="gpulint")
    if len(findings) > max_annotations:
        yield command("notice", f"{len(findings) - max_annotations} more gpulint findings not "
                                "annotated; see the job summary.")


def render(report: dict[str, Any], *, max_annotations: int = DEFAULT_MAX) -> str:
    """All workflow commands for ``report``, one per line."""
    lines = list(iter_annotations(report, max_annotations=max_annotations))
    return "\n".join(lines) + ("\n" if lines else "")
