"""JupyterHub GPU profiles are options users pick, not servers that run: each is reported with
its price per hour, apart from the monthly totals, the rules and the budgets."""

from __future__ import annotations

import json
import os
from typing import Any

import jsonschema

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.report.build import build
from gpulint.reporters import html, markdown, text
from gpulint.ruleset import load_rules

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "jupyterhub_profiles")
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "gpulint",
                      "schemas", "report.schema.json")


def _report() -> tuple[pipeline.ScanResult, dict[str, Any]]:
    result = pipeline.run([os.path.relpath(DATA)], load_rules(), Settings())
    return result, build(result, 730.0)


def test_profiles_are_options_with_an_hourly_price() -> None:
    _, report = _report()
    shown = {o["option"]: (o["gpu_model"], o["gpu_count"]) for o in report["options"]}
    assert shown == {
        "JupyterHub profile T4 GPU": ("T4", 1),
        "JupyterHub profile Large GPU / GPU / 1x A100": ("A100", 1),
        "JupyterHub profile Large GPU / GPU / 2x H100": ("H100", 2),
    }
    assert all(o["hourly_cost_usd"] for o in report["options"])
    assert all("monthly_cost_usd" not in o for o in report["options"])
    assert report["summary"]["options"] == 3
    jsonschema.validate(report, json.load(open(SCHEMA, encoding="utf-8")))


def test_options_are_outside_totals_rules_and_the_resource_list() -> None:
    result, report = _report()
    # Only the Deployment that runs is a GPU resource; the total is its cost alone.
    assert [r["address"] for r in report["resources"]] == ["Deployment/embedder"]
    assert report["summary"]["gpu_resources"] == 1
    assert report["summary"]["monthly_cost_usd"] == report["resources"][0]["monthly_cost_usd"]
    addresses = {o["address"] for o in report["options"]}
    assert not [f for f in result.findings if f.address in addresses]
    assert not [n for n in result.not_evaluated if n.address in addresses]


def test_text_and_markdown_show_options_apart() -> None:
    _, report = _report()
    out = text.render(report)
    section = out.split("Options users can pick (3; per hour, not in the totals)")[1]
    assert "JupyterHub profile T4 GPU" in section and "/h" in section
    assert "1 GPU resource in" in out
    md = markdown.render(report)
    assert "Options users can pick (3; per hour, not in the totals)" in md

    page = html.render(report)
    options = page.split('id="h-options">Options users can pick (3)')[1].split("</section>")[0]
    assert "JupyterHub profile Large GPU / GPU / 2x H100" in options
    assert "2× H100" in options and "/h" in options
    resources = page.split('id="h-res">')[1].split("</section>")[0]
    assert "JupyterHub profile" not in resources


def test_the_option_annotation_marks_any_workload(tmp_path: Any) -> None:
    (tmp_path / "option.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: big-sandbox\n"
        "  annotations:\n    gpulint.dev/option: on-demand sandbox\nspec:\n  replicas: 1\n"
        "  template:\n    spec:\n      nodeSelector:\n"
        "        cloud.google.com/gke-accelerator: nvidia-l4\n"
        "      containers:\n      - name: c\n        image: x\n        resources:\n"
        "          limits: {nvidia.com/gpu: 1}\n")
    result = pipeline.run([str(tmp_path)], load_rules(), Settings())
    assert result.resources == []
    assert [r.facts.get("option") for r in result.options] == ["on-demand sandbox"]


def test_cost_lists_options_apart_from_the_total() -> None:
    from gpulint.cli.cost import render_markdown, render_text
    from gpulint.pricing.breakdown import breakdown

    _, report = _report()
    data = breakdown(report)
    assert [o["option"] for o in data["options"]] == [o["option"] for o in report["options"]]
    assert data["totals"]["monthly_usd"] == report["resources"][0]["monthly_cost_usd"]
    out = render_text(data)
    total, options = out.split("Options users can pick (3; per hour of use, not in the totals)")
    assert "for 1 GPU resources" in total and "JupyterHub profile" not in total
    assert "2× H100" in options and "JupyterHub profile T4 GPU" in options
    assert "### Options users can pick (3;" in render_markdown(data)
