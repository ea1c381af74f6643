"""SARIF 2.1.0 output for GitHub code scanning (and any other SARIF consumer)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import PureWindowsPath
from typing import Any
from urllib.parse import quote

from gpulint import __version__
from gpulint.files.containment import repository_root
from gpulint.reporters.json import indented

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/gpulint/gpulint"
FINGERPRINT_KEY = "gpulintFingerprint/v1"

_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _level(severity: Any) -> str:
    return _LEVELS.get(str(severity or "").lower(), "warning")


def _fence(text: str) -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _rule_name(rule_id: str) -> str:
    """SARIF ``name`` is an identifier-like PascalCase form of the id."""
    parts = re.split(r"[^A-Za-z0-9]+", rule_id)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


def _rule_descriptor(rule: dict[str, Any]) -> dict[str, Any]:
    rule_id = str(rule.get("id") or "unknown-rule")
    docs = rule.get("docs") or {}
    summary = str(rule.get("summary") or rule_id)
    why = str(docs.get("why") or summary)
    remediation = str(rule.get("remediation") or "")
    bad, good = docs.get("bad"), docs.get("good")

    text_parts = [why]
    md_parts = [why]
    if remediation:
        text_parts.append(f"How to fix: {remediation}")
        md_parts.append(f"**How to fix:** {remediation}")
    for label, example in (("Bad", bad), ("Good", good)):
        if example:
            example = str(example).rstrip("\n")
            text_parts.append(f"{label}:\n{example}")
            fence = _fence(example)
            md_parts.append(f"**{label}:**\n\n{fence}\n{example}\n{fence}")
    refs = [str(r) for r in rule.get("references") or [] if r]
    if refs:
        text_parts.append("References: " + ", ".join(refs))
        md_parts.append("**References:**\n\n" + "\n".join(f"- <{r}>" for r in refs))

    descriptor: dict[str, Any] = {
        "id": rule_id,
        "name": _rule_name(rule_id) or rule_id,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": why},
        "help": {"text": "\n\n".join(text_parts), "markdown": "\n\n".join(md_parts)},
        "defaultConfiguration": {"level": _level(rule.get("severity"))},
        "properties": {"tags": [t for t in ("gpu-cost", str(rule.get("category") or "")) if t]},
    }
    if refs and refs[0].startswith(("http://", "https://")):
        descriptor["helpUri"] = refs[0]
    return descriptor


def source_root(explicit: str | None = None, report_root: str | None = None) -> str:
    """The directory ``%SRCROOT%`` stands for: ``explicit`` (``--sarif-root``), else the scan's
    repository root (`report_root`: the git top level of the scanned paths, else the scanned
    directory), else the git top level of the working directory, else the working directory. A
    real path, like the absolute paths it is compared with."""
    if explicit:
        return os.path.realpath(explicit)
    if report_root:
        return os.path.realpath(report_root)
    cwd = os.path.realpath(os.getcwd())
    return repository_root(cwd) or cwd


def artifact_uri(path: str, root: str | None = None,
                 base: str | None = None) -> tuple[str, str | None]:
    """Return ``(uri, uriBaseId)`` for a report path (relative to ``base``: the scan's
    repository root, or the working directory for a report that does not say).

    A path under ``root`` (default: `source_root`) becomes a percent-encoded, forward-slash URI
    reference against ``%SRCROOT%``, so a scan run from `infra/` reports `infra/main.tf`, the
    path code scanning knows; a path outside it becomes a ``file://`` URI with no base.
    """
    raw = str(path)
    if "\\" in raw and not raw.startswith("/"):
        raw = PureWindowsPath(raw).as_posix()
    if PureWindowsPath(raw).is_absolute() and not raw.startswith("/"):  # C:/…: not ours
        return "file://" + quote(raw, safe="/:"), None
    full = os.path.normpath(os.path.join(base or os.path.realpath(os.getcwd()), raw))
    rel = os.path.relpath(full, root or source_root())
    if rel == ".." or rel.startswith(("../", "/")):
        return "file://" + quote(full, safe="/:"), None
    return quote(rel.replace(os.sep, "/"), safe="/"), "%SRCROOT%"


@dataclass(frozen=True)
class _Roots:
    src: str  # what %SRCROOT% stands for
    base: str | None  # what the report's paths are relative to (None: the working directory)


def _location(path: Any, line: Any, roots: _Roots) -> dict[str, Any] | None:
    if not path:
        return None
    uri, base = artifact_uri(str(path), roots.src, roots.base)
    artifact: dict[str, Any] = {"uri": uri}
    if base:
        artifact["uriBaseId"] = base
    start = line if isinstance(line, int) and not isinstance(line, bool) and line >= 1 else 1
    return {"physicalLocation": {"artifactLocation": artifact, "region": {"startLine": start}}}


def _message_text(value: Any, fallback: str) -> str:
    text = str(value).strip() if value is not None else ""
    return text or fallback


def build(report: dict[str, Any], rules: list[dict[str, Any]],
          root: str | None = None, report_root: str | None = None) -> dict[str, Any]:
    """Build the SARIF log as a dict (see :func:`render`)."""
    roots = _Roots(source_root(root, report_root), report_root)
    descriptors = [_rule_descriptor(r) for r in rules]
    index = {d["id"]: i for i, d in enumerate(descriptors)}
    results = [_result(f, descriptors, index, roots) for f in report.get("findings") or []]
    tool = report.get("tool") or {}
    version = str(tool.get("version") or __version__)
    driver: dict[str, Any] = {
        "name": "gpulint",
        "version": version,
        "informationUri": INFORMATION_URI,
        "rules": descriptors,
    }
    if re.match(r"^\d+\.\d+\.\d+", version):
        driver["semanticVersion"] = version

    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [{"executionSuccessful": True,
                         "toolExecutionNotifications": _notifications(report, roots)}],
        "originalUriBaseIds": {"%SRCROOT%": {"description": {
            "text": "The repository root (git top level), or the directory --sarif-root named."}}},
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    catalog = report.get("catalog") or {}
    if catalog:
        run["properties"] = {"catalog": {k: catalog.get(k) for k in ("source", "date", "version")
                                         if k in catalog}}
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _result(finding: dict[str, Any], descriptors: list[dict[str, Any]],
            index: dict[str, int], roots: _Roots) -> dict[str, Any]:
    rule_id = str(finding.get("rule") or "unknown-rule")
    if rule_id not in index:
        # A finding from a rule we were not told about: describe it minimally so that
        # ruleIndex stays valid.
        index[rule_id] = len(descriptors)
        descriptors.append(_rule_descriptor(
            {"id": rule_id, "summary": rule_id, "severity": finding.get("severity")}))
    result: dict[str, Any] = {
        "ruleId": rule_id,
        "ruleIndex": index[rule_id],
        "level": _level(finding.get("severity")),
        "message": {"text": _message_text(finding.get("message"), rule_id)},
        "properties": {"monthly_saving_usd": finding.get("monthly_saving_usd")},
    }
    loc = _location(finding.get("path"), finding.get("line"), roots)
    if loc:
        if finding.get("address"):
            loc["logicalLocations"] = [{"fullyQualifiedName": str(finding["address"]),
                                        "kind": "resource"}]
        result["locations"] = [loc]
    if finding.get("fingerprint"):
        result["partialFingerprints"] = {FINGERPRINT_KEY: str(finding["fingerprint"])}
    if finding.get("remediation"):
        result["properties"]["remediation"] = str(finding["remediation"])
    return result


def _notifications(report: dict[str, Any], roots: _Roots) -> list[dict[str, Any]]:
    """Diagnostics, then what could not be evaluated, as tool execution notifications."""
    notifications = []
    for diag in report.get("diagnostics") or []:
        note: dict[str, Any] = {
            "level": _level(diag.get("severity")),
            "message": {"text": _message_text(diag.get("message"), "diagnostic")},
        }
        loc = _location(diag.get("path"), diag.get("line"), roots)
        if loc:
            note["locations"] = [loc]
        notifications.append(note)
    for item in report.get("not_evaluated") or []:
        note = {
            "level": "note",
            "message": {"text": _message_text(item.get("reason"), "could not evaluate")},
            "associatedRule": {"id": str(item.get("rule") or "unknown-rule")},
        }
        loc = _location(item.get("path"), item.get("line"), roots)
        if loc:
            note["locations"] = [loc]
        notifications.append(note)
    return notifications


def render(report: dict[str, Any], rules: list[dict[str, Any]], root: str | None = None,
           report_root: str | None = None) -> str:
    """SARIF 2.1.0 JSON text for ``report``; ``rules`` are all loaded rule mappings, ``root``
    the directory URIs are relative to (default: the repository root, see `source_root`),
    ``report_root`` the one the report's paths are relative to."""
    return indented(build(report, rules, root, report_root), ensure_ascii=False) + "\n"
