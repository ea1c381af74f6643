"""A pull request controls every name and message in the gpulint comment. It must not be able to
empty the comment (one huge name pushing the findings out), make GitHub link issues or commits,
hide text behind invisible or bidi characters, or forge the markers that identify the comment.
Rendered with cmark-gfm, the engine github.com uses.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from gpulint.github.comment import head_of
from gpulint.reporters import markdown
from test_pr_comment import blocks, gfm

DATA = Path(__file__).parent / "data"
SHA = "0123456789abcdef0123456789abcdef01234567"
FORGED_SHA = "f" * 40
ZWJ = "\u200d"
# Unicode format characters (category Cf) a file could carry: Arabic letter mark, zero-width
# space, word joiner, byte-order mark, tag characters, bidi embedding/override/isolate marks.
INVISIBLE = ["\u061c", "\u200b", "\u2060", "\ufeff", "\U000e0001", "\U000e0041", "\U000e007f",
             "\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u00ad"]


@pytest.fixture()
def report() -> dict:
    return json.loads((DATA / "pr_report.json").read_text())


def _findings(report: dict, n: int) -> list[dict]:
    base = report["findings"][1]
    return [{**base, "address": f"aws_instance.n{i}", "fingerprint": f"f{i}",
             "rule": f"rule-{i}", "monthly_saving_usd": 1000.0 - i} for i in range(n)]


def test_one_huge_name_does_not_empty_the_comment(report: dict) -> None:
    """A 70 KB resource name on the finding that sorts first: every finding still shows."""
    big = copy.deepcopy(report)
    huge = "aws_instance." + "a" * 70_000
    first = {**report["findings"][0], "address": huge, "path": "infra/" + "p" * 70_000 + ".tf",
             "message": huge, "remediation": huge, "fingerprint": "huge"}
    big["findings"] = [first, *_findings(report, 12)]
    big["resources"] = [{**report["resources"][0], "address": huge}]
    big["not_evaluated"] = [{"path": huge, "line": 1, "rule": huge, "address": huge,
                             "reason": huge}]
    body = markdown.render(big, repo_url="https://github.com/acme/infra", head_sha=SHA)
    assert len(body) < 20_000
    assert "not shown" not in body and "shortened" not in body
    for i in range(12):
        assert f"`rule-{i}`" in body
    assert f"`{first['rule']}`" in body
    assert "a" * 200 not in body and "aaa…" in body  # cut, and visibly so


@pytest.mark.slow
def test_top_findings_survive_the_size_limit(report: dict) -> None:
    big = copy.deepcopy(report)
    big["findings"] = [{**f, "message": "m" * 5000} for f in _findings(report, 300)]
    body = markdown.render(big, max_chars=20_000)
    assert len(body) <= 20_000
    assert "`rule-0`" in body and "`rule-1`" in body  # the largest savings first
    assert re.search(r"and [\d,]+ more findings not shown", body)
    assert body.count("<details>") == body.count("</details>")


def test_no_issue_or_commit_references(report: dict) -> None:
    text = (f"fixes GH-123, gh-7, #45 and acme/infra#6; commit {SHA}, short deadbee0, "
            f"acme/infra@{SHA[:12]}")
    hostile = copy.deepcopy(report)
    for f in hostile["findings"]:
        f.update(address=text, message=text, remediation=text)
    hostile["not_evaluated"][0].update(reason=text)
    hostile["diagnostics"][0].update(message=text)
    hostile["catalog"]["source"] = text
    html = gfm(markdown.render(hostile, repo_url="https://github.com/acme/infra", head_sha=SHA))
    # Where GitHub looks for references: text outside code spans and our own links.
    linkable = "".join(blocks(html).linkable)
    assert "GH" in linkable and "deadbe" in linkable  # the text is there...
    assert not re.search(r"(?i)\bGH-\d", linkable)  # ...but no reference can form
    assert not re.search(r"#\d", linkable)
    assert not re.search(r"[0-9a-fA-F]{7}", linkable)
    assert not re.search(r"@\w", linkable)


def test_format_characters_are_dropped(report: dict) -> None:
    sneaky = "safe" + "".join(INVISIBLE) + "name"
    hostile = copy.deepcopy(report)
    for f in hostile["findings"]:
        f.update(address=sneaky, message=sneaky, path=sneaky + ".tf", rule=sneaky)
    hostile["resources"][0].update(address=sneaky, gpu_model=sneaky)
    hostile["not_evaluated"][0].update(reason=sneaky, address=sneaky)
    body = markdown.render(hostile)
    for ch in INVISIBLE:
        assert ch not in body, f"U+{ord(ch):04X} reached the comment"
    assert "safename" in body


def test_forged_markers_are_inert(report: dict) -> None:
    forged = f"<!-- gpulint:head={FORGED_SHA} --><!-- gpulint:comment -->"
    hostile = copy.deepcopy(report)
    for f in hostile["findings"]:
        f.update(address=forged, rule=forged, message=forged, path=forged)
    hostile["resources"][0]["address"] = forged
    hostile["not_evaluated"][0].update(address=forged, rule=forged, path=forged)
    diff = {"base_ref": forged, "resources": [{"address": forged, "change": "added",
                                               "delta_usd": 1.0}]}
    for head in (SHA, None):
        body = markdown.render(hostile, diff, head_sha=head)
        assert markdown.HEAD_MARKER_RE.findall(body) == ([SHA] if head else [])
        assert body.count(markdown.COMMENT_MARKER) == 1
        assert head_of(body) == head
    # A marker below the header is never taken for the comment's own.
    assert head_of(f"{markdown.COMMENT_MARKER}\n\ntext\n<!-- gpulint:head={FORGED_SHA} -->") is None
