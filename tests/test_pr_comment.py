"""The pull-request comment as GitHub shows it: rendered by cmark-gfm (the Markdown engine
github.com uses, with its extensions: tables, strikethrough, autolinks, tag filter) and laid out
by headless Chromium at a phone's width (390 CSS pixels).

The comment comes from the real CLI (`gpulint comment github` without a pull request writes it
to the job summary), for examples/ compared with its Terraform half (Kubernetes resources
added: a real diff over a --max-increase budget) and for a report full of names too long to
wrap, which a phone must still show without scrolling sideways.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from click.testing import CliRunner
from cmarkgfm.cmark import Options

from browser import Browser, launch
from gpulint.cli import cli

ROOT = Path(__file__).resolve().parent.parent
PHONE = (390, 844)

# What decides wrapping in a GitHub comment, as GitHub's stylesheet sets it (the published
# github-markdown-css): long words break rather than overflow, code spans wrap, a table is a
# block that scrolls inside itself, never the page. Colours and spacing are left out.
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ margin: 0; padding: 16px; font: 16px/1.5 sans-serif; }}
.markdown-body {{ overflow-wrap: break-word; }}
.markdown-body code {{ white-space: break-spaces; font-size: 85%; padding: .2em .4em; }}
.markdown-body table {{ display: block; width: max-content; max-width: 100%; overflow: auto; }}
.markdown-body ul {{ padding-left: 2em; }}
</style></head><body><div class="markdown-body">{body}</div></body></html>
"""

MEASURE = """JSON.stringify((() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const wide = Array.from(document.querySelectorAll('.markdown-body *'))
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
      || e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
    .map(e => e.tagName + ':' + e.textContent.slice(0, 60));
  return {overflow: document.documentElement.scrollWidth - window.innerWidth, wide: wide,
          items: document.querySelectorAll('li').length};
})())"""


def gfm(markdown: str) -> str:
    """HTML as github.com's engine makes it; raw HTML kept (GitHub keeps <details> and
    <summary> after sanitising), so anything hostile that got through would show here."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def _cli(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output


def comment_body(tmp: Path, report: dict | None = None, diff: dict | None = None) -> str:
    """The comment `gpulint comment github` writes (to the job summary: no pull request)."""
    args = ["comment", "github"]
    for name, data in (("report", report), ("diff", diff)):
        if data is not None:
            (tmp / f"{name}.json").write_text(json.dumps(data))
            args += [f"--{name}", str(tmp / f"{name}.json")]
    summary = tmp / "summary.md"
    _cli(args, tmp, {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_TOKEN": "",
                     "GITHUB_EVENT_PATH": "", "GITHUB_REPOSITORY": ""})
    return summary.read_text()


@pytest.fixture(scope="module")
def examples_diff(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """examples/ against its Terraform half: three Kubernetes resources added, over budget."""
    tmp = tmp_path_factory.mktemp("examples")
    base = ["--format", "json", "--no-cache"]
    _cli(["scan", "examples/terraform", *base, "--fail-on", "never", "-o", str(tmp / "b.json")],
         ROOT)
    _cli(["scan", "examples", *base, "--fail-on", "never", "-o", str(tmp / "r.json")], ROOT)
    _cli(["diff", "examples", "--compare-to", str(tmp / "b.json"), "--max-increase", "1000",
          *base, "-o", str(tmp / "d.json")], ROOT)
    return json.loads((tmp / "r.json").read_text()), json.loads((tmp / "d.json").read_text())


class Blocks(HTMLParser):
    """Text outside <details>, and text outside <code> and <a> (where GitHub looks for
    mentions and issue and commit references)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = {"details": 0, "code": 0, "a": 0}
        self.unfolded: list[str] = []
        self.linkable: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.depth:
            self.depth[tag] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.depth:
            self.depth[tag] -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth["details"]:
            self.unfolded.append(data)
        if not self.depth["code"] and not self.depth["a"]:
            self.linkable.append(data)


def blocks(html: str) -> Blocks:
    b = Blocks()
    b.feed(html)
    return b


def test_phone_layout_order(examples_diff: tuple[dict, dict], tmp_path: Path) -> None:
    report, diff = examples_diff
    html = gfm(comment_body(tmp_path, report, diff))
    seen = "".join(blocks(html).unfolded)
    # Headline: before → after, the delta and the verdict, before anything else.
    headline = re.search(r"<h3>(.*?)</h3>", html).group(1)
    assert headline == "GPU cost: $41,224/mo → <strong>$84,952/mo</strong> (+$43,728/mo)"
    assert html.index("<h3>") < html.index("Over budget") < html.index("resources changed")
    # The changed resources with their own deltas, not folded, largest first.
    deltas = re.findall(r"(\S+) added · \+(\$[\d,]+)/mo", seen)
    assert deltas == [("Deployment/llm/chat-api", "$40,073"),
                      ("Job/research/finetune-llama", "$2,921"),
                      ("StatefulSet/notebooks/jupyter-alice", "$734")]
    # Findings: one line each with location, rule and saving; the message folded.
    line = r"🟠 (\S+) (gpu-[a-z-]+)(?: 🆕)?(?: · (?:alternative: )?saves (\$[\d,]+)/mo)?"
    lines = re.findall(line, seen)
    assert len(lines) == len(report["findings"]) == 10
    assert lines[0] == ("examples/kubernetes/inference.yaml:2", "gpu-oversized-for-model",
                        "$37,356")
    assert "alternative: saves $35,064/mo" in seen  # same Deployment, overlapping fix
    assert "the cheapest fit is" not in seen and "the cheapest fit is" in html


def test_no_sideways_scroll_on_a_phone(examples_diff: tuple[dict, dict], tmp_path: Path,
                                       browser: Browser) -> None:
    report, diff = examples_diff
    long_name = "module.a_very_long_module_name_without_any_break_" + "x" * 150
    long_path = "infra/" + "deeply_nested_directory/" * 8 + "main.tf"
    wide, wide_diff = json.loads(json.dumps([report, diff]))
    for f in wide["findings"]:
        f["address"], f["path"] = long_name, long_path
        f["message"] = f"{long_name} costs ${'9' * 60}"
    for r in wide_diff["resources"]:
        r["address"] = long_name
    cases = {"examples": comment_body(tmp_path, report, diff),
             "long-names": comment_body(tmp_path, wide, wide_diff)}
    out = Path(os.environ.get("GPULINT_ARTEFACTS") or ROOT / "tmp" / "artefacts") / "comment"
    out.mkdir(parents=True, exist_ok=True)
    for name, body in cases.items():
        page = tmp_path / f"{name}.html"
        page.write_text(PAGE.format(body=gfm(body)))
        browser.open(page.as_uri(), *PHONE, mobile=True)
        got = json.loads(browser.evaluate(MEASURE))
        browser.screenshot(str(out / f"{name}-phone.png"), height=2400)
        assert browser.problems() == []
        assert got["items"] >= len(report["findings"])
        assert got["overflow"] <= 0, f"{name}: the comment scrolls sideways on a phone"
        assert got["wide"] == [], f"{name}: wider than the phone"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = launch(str(tmp_path_factory.mktemp("chromium-profile")))
    yield b
    b.close()
