"""The HTML report rendered in headless Chromium at desktop and phone widths: every chart
drawn with a size, nothing fetched, no console error, no sideways scrolling on a phone, the
findings filter working. Screenshots are kept in GPULINT_ARTEFACTS (default tmp/artefacts/html).

Without a Chromium these tests skip, unless GPULINT_REQUIRE_CHROMIUM=1 (set by .ci/run once it
has installed one), where a missing browser fails.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser import Browser, launch
from html_pages import ROOT, write_pages

pytestmark = pytest.mark.slow

CHARTS = {"examples": 6, "fleet-500": 6, "hostile": 6, "diff": 7}
VIEWPORTS = {"desktop": (1280, 900, False), "phone": (390, 844, True)}

MEASURE = """JSON.stringify({
  charts: Array.from(document.querySelectorAll('svg.bars')).map(s => {
    const r = s.getBoundingClientRect(); return [r.width, r.height,
      s.querySelectorAll('rect.bar').length]; }),
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  cut: Math.max(0, ...Array.from(document.querySelectorAll('table')).map(
    t => t.getBoundingClientRect().right - window.innerWidth)),
  filters: !document.getElementById('filters')?.hidden,
})"""


def _artefacts() -> Path:
    path = Path(os.environ.get("GPULINT_ARTEFACTS") or ROOT / "tmp" / "artefacts") / "html"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = launch(str(tmp_path_factory.mktemp("chromium-profile")))
    yield b
    b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_pages(tmp_path_factory.mktemp("pages"))


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("name", CHARTS)
def test_page_renders(browser: Browser, pages: dict[str, Path], name: str,
                      viewport: str) -> None:
    width, height, mobile = VIEWPORTS[viewport]
    url = pages[name].as_uri()
    browser.open(url, width, height, mobile)
    got = json.loads(browser.evaluate(MEASURE))
    # The top of the page: headline and charts (the tables below run long for 500 resources).
    browser.screenshot(str(_artefacts() / f"{name}-{viewport}.png"), height=4000)
    assert browser.problems() == []
    assert browser.requests() == [url]  # the page itself, nothing else
    assert len(got["charts"]) == CHARTS[name]
    for w, h, bars in got["charts"]:
        assert w > 200 and h > 0 and bars > 0, got["charts"]
    assert got["overflow"] <= 0, "the page scrolls sideways"
    assert got["cut"] <= 0, "a table is wider than the window"
    assert got["filters"] is True  # the script ran and showed the findings filter


def test_findings_filter_and_sort(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["examples"].as_uri(), *VIEWPORTS["desktop"])
    shown = browser.evaluate("""(() => {
      const sel = document.getElementById('f-rule');
      sel.value = 'gpu-training-on-demand'; sel.dispatchEvent(new Event('change'));
      const rows = Array.from(document.querySelectorAll('#findings-table tbody tr'));
      return [rows.filter(r => !r.hidden).length, document.getElementById('f-count').textContent];
    })()""")
    assert shown == [3, "3 of 10 shown"]
    savings = browser.evaluate("""(() => {
      document.getElementById('f-rule').value = '';
      document.getElementById('f-rule').dispatchEvent(new Event('change'));
      document.querySelectorAll('#findings-table th button')[4].click();
      return Array.from(document.querySelectorAll('#findings-table tbody tr'))
        .map(r => r.cells[4].textContent);
    })()""")
    assert savings[:3] == ["–", "–", "$557.32"] and savings[-1] == "$37,355.63"
    assert browser.problems() == []


def test_hostile_page_runs_nothing(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["hostile"].as_uri(), *VIEWPORTS["desktop"])
    assert browser.evaluate("document.querySelectorAll('img, iframe, script').length") == 1
    assert not [e for e in browser.events if e.get("method") == "Page.javascriptDialogOpening"]
    assert browser.problems() == []


def test_prints_charts_without_controls(browser: Browser, pages: dict[str, Path]) -> None:
    browser.open(pages["examples"].as_uri(), 700, 1000)  # about an A4 page's width
    browser.call("Emulation.setEmulatedMedia", {"media": "print"}, session=True)
    try:
        got = json.loads(browser.evaluate(MEASURE))
        hidden = browser.evaluate(
            "getComputedStyle(document.getElementById('filters')).display")
        pdf = browser.call("Page.printToPDF", {"printBackground": True}, session=True)["data"]
    finally:
        browser.call("Emulation.setEmulatedMedia", {"media": ""}, session=True)
    (_artefacts() / "examples-print.pdf").write_bytes(base64.b64decode(pdf))
    assert len(got["charts"]) == CHARTS["examples"] and all(w > 200 and h > 0
                                                            for w, h, _ in got["charts"])
    assert hidden == "none"
    assert got["overflow"] <= 0 and got["cut"] <= 0, "the printed page would be cut"
    assert browser.problems() == []
