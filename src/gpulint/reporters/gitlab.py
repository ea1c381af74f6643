"""GitLab Code Quality report: the JSON array GitLab's merge-request widget reads
(`artifacts: reports: codequality:`; format documented at
https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format).

Each finding is one issue: `description`, `check_name` (the rule), `fingerprint`, `severity`
(error → critical, warning → major, info → info) and `location` (`path` relative to the
repository root, `lines.begin`). The fingerprint is the finding's rule, file and resource
address, not its line, so it stays the same across runs and line moves and GitLab can tell new
findings from old ones.
"""

import hashlib
import json
import os
from typing import Any

from gpulint.files.containment import repository_root

SEVERITY = {"error": "critical", "warning": "major", "info": "info"}


def _root() -> str:
    cwd = os.path.realpath(os.getcwd())
    return repository_root(cwd) or cwd


def _path(path: str, root: str, base: str | None = None) -> str:
    """Relative to the repository root with forward slashes, as GitLab matches diff paths;
    `path` is relative to `base` (the scan's repository root), else the working directory."""
    full = os.path.realpath(os.path.join(base or os.getcwd(), path))
    rel = os.path.relpath(full, root)
    return path.replace(os.sep, "/") if rel.startswith("..") else rel.replace(os.sep, "/")


def issues(report: dict[str, Any], report_root: str | None = None) -> list[dict[str, Any]]:
    """Code Quality issues; `report_root` is the scan's repository root, which the report's
    paths are relative to (None: a report read back from a file, relative to the working
    directory, whose git top level is then the root)."""
    root = os.path.realpath(report_root) if report_root else _root()
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for f in report.get("findings") or []:
        path = _path(str(f.get("path") or ""), root, report_root)
        key = f"{f.get('rule')}\0{path}\0{f.get('address')}"
        fingerprint = hashlib.sha256(key.encode()).hexdigest()[:32]
        if fingerprint in seen:  # GitLab shows only the first issue of a fingerprint
            key += f"\0{f.get('line')}"
            fingerprint = hashlib.sha256(key.encode()).hexdigest()[:32]
        seen.add(fingerprint)
        saving = f.get("monthly_saving_usd")
        text = f"{f.get('address')}: {f.get('message')}"
        if saving:
            text += f" (saves ${saving:,.2f}/month)"
        out.append({"description": text, "check_name": f.get("rule"),
                    "fingerprint": fingerprint,
                    "severity": SEVERITY.get(str(f.get("severity")), "info"),
                    "location": {"path": path, "lines": {"begin": int(f.get("line") or 1)}}})
    return out


def render(report: dict[str, Any], report_root: str | None = None) -> str:
    return json.dumps(issues(report, report_root), indent=2, ensure_ascii=False) + "\n"
