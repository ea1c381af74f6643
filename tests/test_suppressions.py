"""Inline suppressions and the Kubernetes annotation, against tests/workflow/suppressions/."""

from __future__ import annotations

import datetime as dt
import os

from gpulint import pipeline as scan
from gpulint.config.settings import Settings, SuppressionSettings
from gpulint.ruleset import load_rules

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "workflow", "suppressions")
TAGS = "gpu-missing-cost-tags"


def _run(require_reason: bool = True, today: dt.date = dt.date(2026, 1, 15)) -> scan.ScanResult:
    opts = Settings(suppressions=SuppressionSettings(require_reason=require_reason, today=today))
    return scan.run([os.path.relpath(FIXTURE)], load_rules(), opts)


def _tag_findings(result: scan.ScanResult) -> dict[str, str]:
    return {f.address: f.message for f in result.findings if f.rule == TAGS}


def _suppressed(result: scan.ScanResult) -> set[str]:
    return {f.address for f, _ in result.suppressed if f.rule == TAGS}


def _line(text: str) -> int:
    """The fixture line holding this text, so the tests do not hard-code line numbers."""
    with open(os.path.join(FIXTURE, "main.tf"), encoding="utf-8") as fh:
        return next(i for i, line in enumerate(fh, 1) if text in line)


def _diagnostics(result: scan.ScanResult) -> dict[int, tuple[str, str]]:
    return {d.line or 0: (d.severity, d.message) for d in result.diagnostics
            if d.path.endswith("main.tf")}


def test_comment_before_inside_and_annotation_suppress() -> None:
    result = _run()
    assert _suppressed(result) == {"aws_instance.before", "aws_instance.inside",
                                   "aws_instance.expiring", "Deployment/annotated",
                                   "Deployment/commented", "Deployment/json-manifest",
                                   "Deployment/inside"}
    assert {"aws_instance.plain", "Deployment/unlabelled"} <= set(_tag_findings(result))
    reasons = {f.address: s.reason for f, s in result.suppressed}
    assert reasons["Deployment/annotated"] == "labels are added by the admission webhook"


def test_reason_is_required_by_default() -> None:
    result = _run()
    assert "aws_instance.no_reason" in _tag_findings(result)
    severity, message = _diagnostics(result)[_line("ignore gpu-missing-cost-tags\n")]
    # A notice, not a gating error: the finding it meant to hide still shows and gates.
    assert severity == "warning" and "give a reason after ' -- '" in message


def test_reason_can_be_made_optional() -> None:
    result = _run(require_reason=False)
    assert "aws_instance.no_reason" in _suppressed(result)
    assert _line("ignore gpu-missing-cost-tags\n") not in _diagnostics(result)


def test_expired_suppression_returns_the_finding_with_a_note() -> None:
    before = _run(today=dt.date(2026, 1, 31))
    assert "aws_instance.expiring" in _suppressed(before)  # valid through its last day
    after = _run(today=dt.date(2026, 2, 1))
    assert "aws_instance.expiring" not in _suppressed(after)
    assert _tag_findings(after)["aws_instance.expiring"].endswith(
        "(suppression expired on 2026-01-31: until the tagging migration ends)")


def test_unused_misspelt_and_malformed_suppressions_are_reported() -> None:
    diags = _diagnostics(_run())
    assert diags[_line("nothing to hide")] == (
        "warning", "unused suppression: no gpu-training-on-demand finding on the resource it "
                   "applies to")
    assert diags[_line("misspelt rule id")] == ("warning", "unknown rule 'gpu-missing-cost-tag' "
                                  "(did you mean 'gpu-missing-cost-tags'?)")
    assert "is not a date" in diags[_line("bad date")][1]
    result = _run()
    # Suppressions that are not honoured hide nothing.
    assert {"aws_instance.misspelt", "aws_instance.bad_date"} <= set(_tag_findings(result))


def test_suppressed_not_counted_as_findings_but_reported() -> None:
    from gpulint.report import build as report

    result = _run()
    doc = report.build(result, 730.0, show_suppressed=True)
    assert doc["summary"]["suppressed"] == len(result.suppressed) == 7
    assert {f["address"] for f in doc["suppressed"]} == _suppressed(result)
    assert all(f["suppression"]["reason"] for f in doc["suppressed"])
    assert "suppressed" not in report.build(result, 730.0)  # listed only on request
    assert doc["summary"]["findings"]["warning"] == len(result.findings)


def test_report_with_suppressed_findings_matches_the_schema() -> None:
    import json

    from jsonschema import Draft202012Validator

    from conftest import ROOT
    from gpulint.report import build as report

    with open(os.path.join(ROOT, "src", "gpulint", "schemas", "report.schema.json")) as fh:
        schema = json.load(fh)
    doc = report.build(_run(), 730.0, show_suppressed=True)
    Draft202012Validator(schema).validate(json.loads(json.dumps(doc)))


# --- at the end of a line ----------------------------------------------------------------------

TRAILING = os.path.join(HERE, "workflow", "trailing_suppressions")


def test_trailing_comments_suppress_the_resource_they_sit_in() -> None:
    result = scan.run([os.path.relpath(TRAILING)], load_rules(),
                      Settings(suppressions=SuppressionSettings(today=dt.date(2026, 1, 15))))
    assert _suppressed(result) == {"aws_instance.hash", "aws_instance.slashes",
                                   "aws_instance.opening_line", "Deployment/trailing"}
    assert {"aws_instance.in_string", "aws_instance.url", "aws_instance.other_rule",
            "aws_instance.no_reason", "Deployment/quoted"} <= set(_tag_findings(result))
    reasons = {f.address: s.reason for f, s in result.suppressed}
    assert reasons["aws_instance.slashes"] == "tagged by the account's tag policy"
    messages = {(os.path.basename(d.path), d.line): d.message for d in result.diagnostics}
    with open(os.path.join(TRAILING, "main.tf"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    other = next(i for i, t in enumerate(lines, 1) if "not training" in t)
    bare = next(i for i, t in enumerate(lines, 1) if t.rstrip().endswith("gpu-missing-cost-tags"))
    assert "unused suppression" in messages[("main.tf", other)]
    assert "give a reason" in messages[("main.tf", bare)]
    assert not [d for d in result.diagnostics if d.path.endswith("serve.yaml")]


def test_trailing_comment_start() -> None:
    from gpulint.comments import trailing_comment

    assert trailing_comment('  a = "x" # c') == 10
    assert trailing_comment('  a = "x" // c') == 10
    assert trailing_comment('  a = "x # y"') is None  # in a string
    assert trailing_comment('  a = "say \\"hi\\" # y"') is None  # escaped quotes
    assert trailing_comment("  a = b#c") is None  # YAML: '#' after a space only
    assert trailing_comment("  url: https://x//y") is None
    assert trailing_comment("  note: 'it''s # here'") is None  # a single-quoted YAML scalar
    assert trailing_comment("  name: don't # c") == 14  # an apostrophe in plain text
    assert trailing_comment("  # own line") is None  # not after code
