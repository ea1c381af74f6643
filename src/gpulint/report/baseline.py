"""Baselines: record today's findings so only new ones are reported from now on.

An entry is a finding's rule, file and resource address (not its line, so it stays baselined
when lines move). Files are recorded relative to the scan's repository root
(containment.report_root: the git top level, else the scanned directory), as report paths and
SARIF URIs are, so one baseline matches wherever a scan of the repository starts: at the top,
in a subdirectory, from pre-commit or in CI.

Format 1 (before 0.x) recorded paths relative to the directory it was made in; it is still
read, its paths taken as relative to the baseline file's directory, with a notice to rewrite it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpulint import __version__
from gpulint.config.load import display
from gpulint.files.containment import shown_path
from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text
from gpulint.model import Diagnostic, Finding

BASELINE_VERSION = 2
OLD_VERSION = 1


class BaselineError(Exception):
    pass


class _Rooted:
    """Finding paths (relative to the working directory) as the report shows them: relative to
    ``root`` with forward slashes (containment.shown_path); one lookup per distinct path."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self._seen: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if path not in self._seen:  # as the report shows it
            self._seen[path] = shown_path(path, self.root)
        return self._seen[path]


def _key(rule: str, path: str, address: str) -> str:
    return hashlib.sha256(f"{rule}\0{path}\0{address}".encode()).hexdigest()[:32]


def to_json(findings: list[Finding], root: str) -> str:
    """The baseline of `findings`, their paths relative to `root` (the scan's repository
    root)."""
    rooted = _Rooted(root)
    entries = sorted(({"fingerprint": _key(f.rule, rooted(f.path), f.address), "rule": f.rule,
                       "path": rooted(f.path), "address": f.address} for f in findings),
                     key=lambda e: (e["path"], e["address"], e["rule"]))
    unique = list({e["fingerprint"]: e for e in entries}.values())
    doc = {"version": BASELINE_VERSION, "tool": f"gpulint {__version__}",
           "paths": "relative to the repository root", "findings": unique}
    return json.dumps(doc, indent=2) + "\n"


@dataclass
class Baseline:
    path: str
    root: str
    entries: dict[str, dict[str, str]]  # key -> {rule, path (root-relative), address}
    old_fingerprints: set[str] = field(default_factory=set)  # format 1 without paths
    old_format: bool = False


def load(path: str, root: str) -> Baseline:
    """The baseline file at `path`, read against the scan's repository root `root`."""
    try:
        doc: Any = json.loads(read_file_text(path, TOOL_FILE_LIMIT))
    except OSError as e:
        raise BaselineError(f"{path}: cannot read baseline: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise BaselineError(f"{path}:{e.lineno}: invalid baseline JSON: {e.msg}") from None
    version = doc.get("version") if isinstance(doc, dict) else None
    if version not in (OLD_VERSION, BASELINE_VERSION) or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a gpulint baseline (version {BASELINE_VERSION}); "
                            "create one with `gpulint baseline`")
    base = Baseline(path, os.path.realpath(root), {}, old_format=version == OLD_VERSION)
    # Format 1 paths were relative to where `gpulint baseline` ran, by default the directory
    # the file was written to.
    old_dir = os.path.relpath(os.path.dirname(os.path.realpath(path)),
                              base.root).replace(os.sep, "/")
    for item in doc["findings"]:
        if not isinstance(item, dict):
            continue
        rule, where, address = item.get("rule"), item.get("path"), item.get("address")
        if not (isinstance(rule, str) and isinstance(where, str) and isinstance(address, str)):
            if version == OLD_VERSION and isinstance(item.get("fingerprint"), str):
                base.old_fingerprints.add(item["fingerprint"])
            continue
        if version == OLD_VERSION:
            where = os.path.normpath(os.path.join(old_dir, where)).replace(os.sep, "/")
        base.entries[_key(rule, where, address)] = {"rule": rule, "path": where,
                                                    "address": address}
    return base


@dataclass
class Outcome:
    new: list[Finding]
    baselined: int
    stale: int
    notices: list[Diagnostic]


def _in_scope(entry_path: str, scanned: list[str]) -> bool:
    return any(s == "." or entry_path == s or entry_path.startswith(s.rstrip("/") + "/")
               for s in scanned)


def apply(base: Baseline, findings: list[Finding], scanned: Iterable[str],
          rules: Iterable[str]) -> Outcome:
    """Hide the findings ``base`` records. ``scanned`` are the paths given to the scan and
    ``rules`` the reported rule ids: an entry is stale when its file was scanned, its rule
    reported, and no finding matches it any more."""
    from gpulint.report.build import fingerprint

    rooted = _Rooted(base.root)
    new, matched = [], set()
    for f in findings:
        key = _key(f.rule, rooted(f.path), f.address)
        if key in base.entries:
            matched.add(key)
        elif fingerprint(f) not in base.old_fingerprints:
            new.append(f)
    scope = [rooted(p) for p in scanned if p != "-"]
    active = set(rules)
    in_scope = [k for k, e in base.entries.items()
                if e["rule"] in active and _in_scope(e["path"], scope)]
    stale = sum(1 for k in in_scope if k not in matched)
    hidden = len(findings) - len(new)
    shown = display(base.path)
    notices = []
    if base.old_format:
        notices.append(Diagnostic(shown, None, (
            "baseline in the old format (paths relative to the directory it was made in, read "
            "as relative to its own directory); rewrite it with `gpulint baseline -o "
            f"{shown}` from anywhere in the repository"), "info"))
    total = len(base.entries) + len(base.old_fingerprints)
    if total and not hidden and (in_scope or new):
        notices.append(Diagnostic(shown, None, (
            f"the baseline matched none of its {total} entries (paths are relative to the "
            "repository root: the git top level, else the scanned directory): made for other "
            "files, or every recorded finding is fixed; "
            "rewrite it with `gpulint baseline`"), "warning"))
    elif stale:
        notices.append(Diagnostic(shown, None, (
            f"{stale} of the baseline's entries match no finding any more (fixed, renamed or "
            "moved); `gpulint baseline` rewrites it without them"), "info"))
    return Outcome(new, hidden, stale, notices)
