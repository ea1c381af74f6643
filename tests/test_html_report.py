"""The HTML report's structure: self-contained (nothing to fetch), the same totals as the JSON
report, every chart with its table, hostile names inert. Rendering is in test_html_visual.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from html_pages import (
    HOSTILE_FILE,
    HOSTILE_NAME,
    HOSTILE_NAMESPACE,
    HOSTILE_PROJECT,
    HOSTILE_TEAM,
    ROOT,
    diff_page,
    parse,
    run,
    scan_pair,
    write_fleet,
    write_hostile,
)

CHARTS = ("by-group", "by-cloud", "by-gpu", "by-workload", "savings-by-rule", "top-resources")
URL_ATTRS = {"src", "href", "action", "formaction", "srcset", "poster", "data", "xlink:href",
             "background", "ping"}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fleet")
    write_fleet(str(root))
    return root


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    write_hostile(root)
    return root


def assert_self_contained(page: str) -> None:
    p = parse(page)
    for tag, attrs in p.tags:
        for name, value in attrs.items():
            assert name not in URL_ATTRS or (value or "").startswith("#"), (tag, name, value)
            assert not name.startswith("on"), (tag, name)  # no event handler from anywhere
    assert [t for t, _ in p.tags if t in ("link", "img", "iframe", "object", "embed", "base",
                                          "image", "use", "video", "audio", "source")] == []
    scripts = [a for t, a in p.tags if t == "script"]
    assert scripts == [{}], "one inline script, no src"
    # In CSS nothing but a reference to a pattern of the page itself.
    assert re.findall(r"url\((?!#)|@import", page) == []
    csp = [a["content"] or "" for t, a in p.tags if t == "meta" and a.get("http-equiv") ==
           "Content-Security-Policy"]
    assert len(csp) == 1 and "default-src 'none'" in csp[0] and "unsafe" not in csp[0]


def assert_headline_equals(page: str, summary: dict) -> None:
    v = parse(page).values
    assert v["stat-monthly"] == [summary["monthly_cost_usd"]]
    assert v["stat-saving"] == [summary["potential_saving_usd"]]
    assert v["stat-resources"] == [summary["gpu_resources"]]
    assert v["stat-unpriced"] == [summary["unpriced_resources"]]
    assert v["stat-not-evaluated"] == [summary["not_evaluated"]]


def chart_table(page: str, fid: str) -> dict[str, float]:
    """First cell → monthly figure of a chart's table."""
    p = parse(page)
    rows = [r for r in p.rows[fid] if r]
    return {r[0]: p_value for r, p_value in zip(rows, p.values[fid], strict=True)}


def test_examples_scan_page_equals_json_report() -> None:
    page, report = scan_pair(ROOT, "examples")
    assert_self_contained(page)
    assert_headline_equals(page, report["summary"])
    p = parse(page)
    assert all("Bar chart" in (a.get("aria-label") or "") for t, a in p.tags if t == "svg"
               and a.get("class") == "bars")
    assert sum(1 for t, a in p.tags if t == "svg" and a.get("class") == "bars") == len(CHARTS)
    for fid in CHARTS:  # every chart has its table, the text alternative
        assert [r for r in p.rows[fid] if r], fid
    total = report["summary"]["monthly_cost_usd"]
    for fid in ("by-cloud", "by-gpu", "by-workload"):
        assert sum(chart_table(page, fid).values()) == pytest.approx(total, abs=0.01)
    assert len([r for r in p.rows["findings-table"] if r]) == len(report["findings"])
    assert len([r for r in p.rows["resources-table"] if r]) == len(report["resources"])
    assert "Could not evaluate (1)" in "".join(p.text)


def test_examples_cost_page_groups_equal_cost_json() -> None:
    page, cost = scan_pair(ROOT, "examples", cmd="cost")
    assert_self_contained(page)
    assert parse(page).values["stat-monthly"] == [cost["totals"]["monthly_usd"]]
    assert chart_table(page, "by-group") == cost["totals"]["by_group"]
    by_project = run(["cost", "examples", "--format", "html", "--group-by", "project"], ROOT)
    assert "Monthly cost by project" in by_project
    cost = json.loads(run(["cost", "examples", "--format", "json", "--group-by", "project"],
                          ROOT))
    assert chart_table(by_project, "by-group") == cost["totals"]["by_group"]
    assert len(cost["totals"]["by_group"]) == 3


@pytest.mark.slow
def test_500_resources_fit_300_kb_and_add_up(fleet: Path) -> None:
    page, report = scan_pair(fleet, ".")
    assert report["summary"]["gpu_resources"] == 500
    size = len(page.encode("utf-8"))
    assert size <= 300_000, f"{size} bytes for 500 resources"
    assert_self_contained(page)
    assert_headline_equals(page, report["summary"])
    p = parse(page)
    assert len([r for r in p.rows["findings-table"] if r]) == len(report["findings"])
    groups = chart_table(page, "by-group")
    assert len(groups) == 12 and sum(groups.values()) == pytest.approx(
        report["summary"]["monthly_cost_usd"], abs=0.01)
    # The chart draws 12 bars at most; the table lists every value.
    top = next(a for t, a in p.tags
               if t == "svg" and "top resources" in (a.get("aria-label") or ""))
    assert top["height"] == str(10 * 34)


def test_hostile_names_are_inert_text(hostile: Path) -> None:
    page, report = scan_pair(hostile, ".")
    addresses = {r["address"] for r in report["resources"]}
    assert any(HOSTILE_NAME in a for a in addresses), addresses
    assert_self_contained(page)
    p = parse(page)
    tags = {t for t, _ in p.tags}
    assert tags <= {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3",
                    "p", "section", "div", "span", "data", "figure", "figcaption", "svg", "g",
                    "text", "rect", "defs", "pattern", "details", "summary", "table",
                    "thead", "tbody", "tr", "th", "td", "code", "br", "label", "select",
                    "option", "button", "footer", "script"}, tags
    text = "".join(p.text)
    for s in (HOSTILE_NAME, HOSTILE_TEAM, HOSTILE_PROJECT, HOSTILE_FILE):
        assert s in text, s  # shown as written, as text
    assert "\u202e" not in page and HOSTILE_NAMESPACE.replace("\u202e", "") in text
    # The style sheet and the script are the page's own, whole.
    assert page.count("<style>") == 1 and page.count("</style>") == 1
    assert page.count("<script>") == 1 and page.count("</script>") == 1


def test_diff_page_equals_diff_json(tmp_path: Path) -> None:
    page, d = diff_page(tmp_path / "tree")
    assert_self_contained(page)
    v = parse(page).values
    assert v["stat-before"] == [d["base_monthly_usd"]]
    assert v["stat-after"] == [d["head_monthly_usd"]]
    assert v["stat-delta"] == [d["delta_usd"]]
    changed = [e for e in d["resources"] if e["change"] != "unchanged"]
    assert sorted(e["change"] for e in changed) == ["added", "changed", "removed"]
    rows = [r for r in parse(page).rows["diff-chart"] if r]
    assert len(rows) == 3 and {r[0] for r in rows} == {"added", "changed", "removed"}
    deltas = v["diff-chart"][2::3]  # before, after, delta per row
    assert sum(deltas) == pytest.approx(d["delta_usd"], abs=0.01)
    assert "Before → after per changed resource" in page
    assert 'id="findings-table"' in page  # the bill after the change follows


def test_scan_format_html_writes_the_file(tmp_path: Path) -> None:
    out = tmp_path / "gpu-cost.html"
    run(["scan", "examples", "--format", "html", "-o", str(out), "--fail-on", "never"], ROOT)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_autoscaling_ceiling_and_unpriced_are_said() -> None:
    page, report = scan_pair(ROOT, "tests/cost")
    s = report["summary"]
    assert s["monthly_cost_max_usd"] > s["monthly_cost_usd"] and s["unpriced_resources"] == 1
    assert_headline_equals(page, s)
    p = parse(page)
    assert p.values["ceiling"] == [s["monthly_cost_min_usd"], s["monthly_cost_max_usd"]]
    assert "Not priced (1): counted in the tables, no bar length." in "".join(p.text)


def test_a_tree_without_gpus_says_so(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text('resource "aws_instance" "web" {\n'
                                      '  instance_type = "t3.micro"\n}\n', encoding="utf-8")
    page, report = scan_pair(tmp_path, ".")
    assert report["summary"]["gpu_resources"] == 0
    assert_self_contained(page)
    assert_headline_equals(page, report["summary"])
    assert "No GPU resources found." in page and "<svg" not in page
