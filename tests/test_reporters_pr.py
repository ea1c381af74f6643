"""Tests for the PR-facing reporters: Markdown comment, SARIF, annotations, JUnit, summary."""

from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import pytest
from markdown_it import MarkdownIt

from gpulint.github.summary import SUMMARY_LIMIT_BYTES, write_job_summary
from gpulint.reporters import github_annotations as annotations
from gpulint.reporters import junit, markdown, md_escape, sarif
from gpulint.units import usd_compact

DATA = Path(__file__).parent / "data"
REPO_URL = "https://github.com/acme/infra"
SHA = "0123456789abcdef0123456789abcdef01234567"
ZWJ = "\u200d"

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!-- gpulint:comment -->",
    "</details><details open>",
    "@octocat please look",
    "mail admin@example.com",
    "see https://evil.example/x and www.evil.example",
    "[click me](https://evil.example)",
    "![img](https://evil.example/a.png)",
    "<https://evil.example>",
    "fixes #123 and acme/infra#4",
    "a | b || c",
    "line one\nline two\r\n| injected | row |",
    "``` code ``` and `tick`",
    "**bold** _em_ ~~strike~~",
    "&lt;script&gt; &amp; &#x3C;b&#x3E;",
    "\\| backslash pipe \\",
    "# heading\n- list\n> quote",
    "\u202eevil\u202c bidi",
]


@pytest.fixture()
def report() -> dict:
    return json.loads((DATA / "pr_report.json").read_text())


@pytest.fixture()
def diff() -> dict:
    return json.loads((DATA / "pr_diff.json").read_text())


@pytest.fixture()
def rules() -> list[dict]:
    return json.loads((DATA / "pr_rules.json").read_text())


def hostile_report(report: dict) -> dict:
    """One finding, resource, not-evaluated item and diagnostic per hostile string."""
    base_f = report["findings"][0]
    base_r = report["resources"][0]
    out = copy.deepcopy(report)
    out["findings"] = []
    out["resources"] = []
    out["not_evaluated"] = []
    out["diagnostics"] = []
    for i, s in enumerate(HOSTILE):
        out["findings"].append({**base_f, "rule": f"rule-{i}`|{s}", "address": s,
                                "path": f"dir/{s}.tf", "message": s, "fingerprint": f"fp{i}"})
        out["resources"].append({**base_r, "address": s, "gpu_model": s})
        out["not_evaluated"].append({"rule": s, "address": s, "path": s, "line": 1, "reason": s})
        out["diagnostics"].append({"path": s, "line": 2, "severity": "error", "message": s})
    out["catalog"] = {"source": "<b>@team</b> https://x.example", "date": "2026-05-20",
                      "version": "x"}
    return out


def md() -> MarkdownIt:
    # html=True: if any input reached the output as raw HTML, the renderer would pass it through.
    return MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_comment(self, data):
        self.comments.append(data)


def tags_of(html: str) -> TagCollector:
    c = TagCollector()
    c.feed(html)
    return c


# ------------------------------------------------------------------------------ markdown


def test_markdown_has_markers_headline_and_footer(report, diff):
    body = markdown.render(report, diff, repo_url=REPO_URL, head_sha=SHA)
    assert body.startswith("<!-- gpulint:comment -->\n")
    assert f"<!-- gpulint:head={SHA} -->" in body
    assert "$2,679/mo → **$18,710/mo** (+$16,031/mo)" in body
    assert "**3 findings**" in body and "$17,084/mo" in body
    assert "1 new, 1 fixed" in body
    assert "2026\\-05\\-20" in body  # catalog date in the footer
    # One fold per finding (message and fix), then fixed findings, resources, problems.
    assert body.count("<details>") == body.count("</details>") == 3 + 3


def test_markdown_without_diff_shows_total(report):
    body = markdown.render(report)
    assert "### GPU cost: **$18,710/mo**" in body
    assert "gpulint:head=" not in body
    assert "](" not in body  # no links without repo_url/head_sha


def test_markdown_no_findings(report):
    report["findings"] = []
    report["summary"]["findings"] = {"error": 0, "warning": 0, "info": 0}
    report["summary"]["potential_saving_usd"] = 0
    body = markdown.render(report)
    assert "No GPU cost findings" in body
    assert "| Where |" not in body


def test_markdown_links_point_to_head_blob(report):
    html = md().render(markdown.render(report, repo_url=REPO_URL, head_sha=SHA))
    hrefs = [a["href"] for t, a in tags_of(html).tags if t == "a"]
    assert f"{REPO_URL}/blob/{SHA}/infra/main.tf#L12" in hrefs
    assert len(hrefs) == 3


@pytest.mark.parametrize("bad_url,bad_sha", [("javascript:alert(1)", SHA),
                                             (REPO_URL + ")x", SHA), (REPO_URL, "HEAD~1")])
def test_markdown_rejects_bad_link_inputs(report, bad_url, bad_sha):
    body = markdown.render(report, repo_url=bad_url, head_sha=bad_sha)
    assert "](" not in body
    assert "javascript" not in body


def test_markdown_rendered_table_and_no_injected_html(report):
    hostile = hostile_report(report)
    body = markdown.render(hostile, repo_url=REPO_URL, head_sha=SHA)
    html = md().render(body)
    collected = tags_of(html)
    allowed = {"h3", "p", "strong", "em", "table", "thead", "tbody", "tr", "th", "td", "a", "code",
               "details", "summary", "sub", "ul", "li", "blockquote", "s"}
    assert {t for t, _ in collected.tags} <= allowed
    # Only our two markers survive as HTML comments.
    assert [c.strip() for c in collected.comments] == ["gpulint:comment", f"gpulint:head={SHA}"]
    # Every link is one we generated, to the repository blob at the head commit.
    for tag, attrs in collected.tags:
        assert not any(k.startswith("on") for k in attrs)
        if tag == "a":
            assert attrs["href"].startswith(f"{REPO_URL}/blob/{SHA}/")
    # The findings are a real list: one item per finding, each with its folded details, and
    # nothing broke out of an item (hostile text cannot open or close a list or a fold).
    items = re.findall(r"<li>\s*<p>(?:🔴|🟠|🔵)(.*?)</details>\s*</li>", html, flags=re.S)
    assert len(items) == len(HOSTILE)
    assert html.count("<details>") == html.count("</details>") == len(HOSTILE) + 3
    # The hostile text is shown literally (escaped), e.g. the script tag as text.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "a | b || c" in html
    assert "<summary>&lt;script&gt;alert(1)&lt;/script&gt;</summary>" in html


def test_markdown_no_mentions_autolinks_or_issue_refs(report):
    body = markdown.render(hostile_report(report), repo_url=REPO_URL, head_sha=SHA)
    text = body.replace("\\", "")
    assert not re.search("@(?!" + ZWJ + ")", text), \
        "an @ without a zero-width joiner could mention someone"
    assert not re.search(r"(?i)https?://(?!github\.com/acme/infra/blob/)", text)
    assert not re.search(r"(?i)\bwww\.", text)
    assert not re.search(r"#\d", text)
    assert "\u202e" not in body


def test_escape_text_single_line_and_pipes():
    out = md_escape.escape_text("a|b\nc\r\nd`e`")
    assert "\n" not in out and "\r" not in out
    assert "\\|" in out and "|" not in out.replace("\\|", "")
    assert "\\`" in out


def test_code_span_handles_backticks_and_pipes():
    html = md().render("| x |\n|---|\n| " + md_escape.code_span("a``b|c") + " |\n")
    assert "<code>a``b|c</code>" in html


@pytest.mark.slow
def test_markdown_truncates_to_limit(report):
    big = copy.deepcopy(report)
    f0, r0 = report["findings"][0], report["resources"][0]
    big["findings"] = [{**f0, "address": f"aws_instance.n{i}", "fingerprint": f"f{i}",
                        "message": "x" * 300} for i in range(600)]
    big["resources"] = [{**r0, "address": f"aws_instance.n{i}"} for i in range(600)]
    body = markdown.render(big, repo_url=REPO_URL, head_sha=SHA)
    assert len(body) <= 65000
    assert "shortened to fit" in body and "more finding" in body
    assert body.startswith(markdown.COMMENT_MARKER)
    assert body.rstrip().endswith("</sub>")  # footer kept
    html = md().render(body)
    assert html.count("<details>") == html.count("</details>")
    small = markdown.render(big, max_chars=3000)
    assert len(small) <= 3000
    tiny = markdown.render(big, max_chars=200)
    assert len(tiny) <= 200


def test_money_formatting():
    assert usd_compact(1234.5) == "$1,234"  # banker's rounding is not used for .5 here
    assert usd_compact(12.345) == "$12"  # whole dollars in prose; cents only in price bases
    assert usd_compact(0.2, signed=True) == "+<$1"
    assert usd_compact(-500, signed=True) == "−$500"
    assert usd_compact(None) == "n/a"
    assert usd_compact(0, signed=True) == "±$0"


# ------------------------------------------------------------------------------ SARIF


@pytest.fixture(scope="module")
def sarif_schema() -> dict:
    return json.loads((DATA / "sarif-schema-2.1.0.json").read_text())


def test_sarif_validates_against_official_schema(report, rules, sarif_schema):
    log = json.loads(sarif.render(report, rules))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    assert log["version"] == "2.1.0"


def test_sarif_hostile_input_still_valid(report, rules, sarif_schema):
    log = json.loads(sarif.render(hostile_report(report), rules))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    for result in log["runs"][0]["results"]:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert " " not in uri and "<" not in uri and "|" not in uri


def test_sarif_content(report, rules):
    log = json.loads(sarif.render(report, rules))
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "gpulint" and driver["version"] == "0.1.0" and driver["informationUri"]
    ids = [r["id"] for r in driver["rules"]]
    assert ids == [r["id"] for r in rules]  # all loaded rules, even ones without findings
    oversized = driver["rules"][0]
    assert oversized["shortDescription"]["text"] == rules[0]["summary"]
    assert oversized["fullDescription"]["text"] == rules[0]["docs"]["why"]
    assert "g6.xlarge" in oversized["help"]["markdown"]
    assert "p4d.24xlarge" in oversized["help"]["text"]
    assert "```" in oversized["help"]["markdown"]
    assert oversized["defaultConfiguration"]["level"] == "warning"
    assert driver["rules"][1]["defaultConfiguration"]["level"] == "note"
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels == {"gpu-oversized-for-model": "warning", "gpu-notebook-always-on": "note",
                      "gpu-training-on-demand": "error"}
    for res in run["results"]:
        assert driver["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert loc["region"]["startLine"] >= 1
        assert res["partialFingerprints"]
    first = next(r for r in run["results"] if r["ruleId"] == "gpu-oversized-for-model")
    assert first["partialFingerprints"] == {sarif.FINGERPRINT_KEY: "9f2c0a11aa"}
    assert first["properties"]["monthly_saving_usd"] == 15298.4
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "infra/main.tf"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert any("parse error" in n["message"]["text"] for n in notes)


def test_sarif_paths_and_unknown_rules(report, rules, sarif_schema):
    report["findings"][0].update(path="infra\\win dir\\main.tf", line=0, rule="not-in-rules")
    log = json.loads(sarif.render(report, rules))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    run = log["runs"][0]
    res = next(r for r in run["results"] if r["ruleId"] == "not-in-rules")
    loc = res["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "infra/win%20dir/main.tf"
    assert loc["region"]["startLine"] == 1
    assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == "not-in-rules"


# ------------------------------------------------------------------------------ annotations


def test_annotation_escaping():
    line = annotations.command("warning", "50% off\r\nnext", file="a,b:c.tf", line=3,
                               title="t: x, y%")
    assert line == "::warning file=a%2Cb%3Ac.tf,line=3,title=t%3A x%2C y%25::50%25 off%0D%0Anext"


def test_annotations_from_report(report):
    out = annotations.render(report)
    lines = out.splitlines()
    assert len(lines) == 4  # 3 findings + 1 diagnostic
    assert lines[0].startswith(
        "::warning file=infra/main.tf,line=12,title=gpulint gpu-oversized-for-model")
    assert any(line.startswith("::notice ") for line in lines)
    assert any(line.startswith("::error file=k8s/trainer.yaml,line=1") for line in lines)
    assert "%0AFix%3A" not in lines[0] and "%0AFix: Use g6.xlarge" in lines[0]


def test_annotations_cannot_inject_commands(report):
    out = annotations.render(hostile_report(report))
    for line in out.splitlines():
        assert line.startswith(("::warning ", "::error ", "::notice "))
    evil = {**report["findings"][0], "message": "x\n::set-env name=A::b", "path": "p\n::add-mask::"}
    out = annotations.render({"findings": [evil]})
    assert out.count("\n") == 1


def test_annotations_cap(report):
    report["findings"] = report["findings"] * 30
    out = annotations.render(report, max_annotations=10)
    assert out.count("\n") == 10 + 1 + 1  # capped findings + diagnostic + notice


# ------------------------------------------------------------------------------ JUnit


def test_junit_parses(report):
    root = ET.fromstring(junit.render(report))
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases)
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == int(suite.get("failures")) == 3
    assert len([c for c in cases if c.find("skipped") is not None]) == 1
    fail = next(c for c in failures if c.get("classname") == "gpu-oversized-for-model")
    assert "Monthly saving" in fail.find("failure").text


def test_junit_hostile_and_control_chars(report):
    bad = hostile_report(report)
    bad["findings"][0]["message"] = "nul\x00 bell\x07 ]]> <x/> &amp;"
    root = ET.fromstring(junit.render(bad))
    failures = [c.find("failure") for c in root.iter("testcase")]
    messages = [f.get("message") for f in failures if f is not None]
    assert "]]> <x/> &amp;" in messages[0]


# ------------------------------------------------------------------------------ job summary


def test_job_summary_appends(tmp_path, monkeypatch):
    target = tmp_path / "summary.md"
    target.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(target))
    assert write_job_summary("# one") is True
    assert write_job_summary("two\n") is True
    assert target.read_text() == "earlier step\n# one\ntwo\n"


def test_job_summary_absent_and_capped(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert write_job_summary("x") is False
    target = tmp_path / "s.md"
    write_job_summary("é" * SUMMARY_LIMIT_BYTES, target)
    assert target.stat().st_size <= SUMMARY_LIMIT_BYTES
    target.read_text(encoding="utf-8")  # still valid UTF-8


# ------------------------------------------------------------------------------ property-based

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TRICKY = st.sampled_from([*"<>&|`*_[]()!#@:/\\~=\"'\n\r\t -.", "://", "www.", "<!--", "-->", "@a",
                          "#1"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_TRICKY, st.text(max_size=5)), max_size=20).map("".join))
def test_escaped_text_is_one_literal_table_cell(value):
    from html import unescape

    source = "| h | x |\n|---|---|\n| " + md_escape.escape_text(value) + " | end |\n"
    html = md().render(source)
    cells = re.findall(r"<td>(.*?)</td>", html, flags=re.S)
    assert len(cells) == 2 and cells[1] == "end"
    assert "<" not in cells[0]  # no tags: no HTML, links, code or emphasis came from the text
    assert unescape(cells[0]).replace(ZWJ, "") == md_escape.clean(value).replace(ZWJ, "")
