"""JUnit XML: one test case per finding (a failure), per clean GPU resource (a pass) and per
rule that could not be evaluated (skipped).  CI systems that understand JUnit show the
findings as failed tests."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

# Characters XML 1.0 cannot carry at all.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(value: Any) -> str:
    return _INVALID_XML.sub("\ufffd", "" if value is None else str(value))


def _where(item: dict[str, Any]) -> str:
    where = str(item.get("path") or "")
    if item.get("line"):
        where += f":{item['line']}"
    return where


def render(report: dict[str, Any], rules: list[dict[str, Any]] | None = None) -> str:
    """JUnit XML text for ``report``.  ``rules`` is accepted for symmetry and unused."""
    findings = list(report.get("findings") or [])
    not_eval = list(report.get("not_evaluated") or [])
    flagged = {f.get("address") for f in findings}
    clean = [r for r in report.get("resources") or [] if r.get("address") not in flagged]

    suites = ET.Element("testsuites", name="gpulint")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="gpulint",
        tests=str(len(findings) + len(clean) + len(not_eval)),
        failures=str(len(findings)),
        errors="0",
        skipped=str(len(not_eval)),
    )
    for f in findings:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_x(f.get("rule") or "gpulint"),
            name=_x(f"{f.get('address') or '?'} ({_where(f)})"),
            file=_x(f.get("path") or ""),
            line=str(f.get("line") or ""),
        )
        failure = ET.SubElement(
            case, "failure", message=_x(f.get("message")), type=_x(f.get("severity") or "warning")
        )
        lines = [str(f.get("message") or "")]
        if f.get("remediation"):
            lines.append(f"Fix: {f['remediation']}")
        if f.get("monthly_saving_usd") is not None:
            lines.append(f"Monthly saving: ${f['monthly_saving_usd']:,.2f}")
        failure.text = _x("\n".join(lines))
    for r in clean:
        ET.SubElement(
            suite,
            "testcase",
            classname="gpulint.resources",
            name=_x(f"{r.get('address') or '?'} ({_where(r)})"),
            file=_x(r.get("path") or ""),
        )
    for item in not_eval:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_x(item.get("rule") or "gpulint"),
            name=_x(f"{item.get('address') or '?'} ({_where(item)})"),
        )
        ET.SubElement(case, "skipped", message=_x(item.get("reason")))
    if report.get("diagnostics"):
        err = ET.SubElement(suite, "system-err")
        err.text = _x("\n".join(f"{_where(d)}: {d.get('message')}" for d in report["diagnostics"]))
    ET.indent(suites)
    xml = ET.tostring(suites, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n"
