"""Baselines: record today's findings so only new ones are reported from now on.

A finding is recorded by its fingerprint (rule, file, resource address; report.fingerprint), so
it stays baselined when lines move. Paths are as shown by gpulint, relative to the working
directory: create and use a baseline from the same directory (the repository root).
"""

from __future__ import annotations

import json
from typing import Any

from gpulint import __version__
from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text
from gpulint.model import Finding

BASELINE_VERSION = 1


class BaselineError(Exception):
    pass


def to_json(findings: list[Finding]) -> str:
    from gpulint.report.build import fingerprint

    entries = sorted(({"fingerprint": fingerprint(f), "rule": f.rule, "path": f.path,
                       "address": f.address} for f in findings),
                     key=lambda e: (e["path"], e["address"], e["rule"]))
    unique = list({e["fingerprint"]: e for e in entries}.values())
    doc = {"version": BASELINE_VERSION, "tool": f"gpulint {__version__}", "findings": unique}
    return json.dumps(doc, indent=2) + "\n"


def load(path: str) -> set[str]:
    try:
        doc: Any = json.loads(read_file_text(path, TOOL_FILE_LIMIT))
    except OSError as e:
        raise BaselineError(f"{path}: cannot read baseline: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise BaselineError(f"{path}:{e.lineno}: invalid baseline JSON: {e.msg}") from None
    if not isinstance(doc, dict) or doc.get("version") != BASELINE_VERSION \
            or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a gpulint baseline (version {BASELINE_VERSION}); "
                            "create one with `gpulint baseline`")
    return {e["fingerprint"] for e in doc["findings"]
            if isinstance(e, dict) and isinstance(e.get("fingerprint"), str)}


def split(findings: list[Finding], known: set[str]) -> tuple[list[Finding], int]:
    """(new findings, how many were in the baseline)."""
    from gpulint.report.build import fingerprint

    new = [f for f in findings if fingerprint(f) not in known]
    return new, len(findings) - len(new)
