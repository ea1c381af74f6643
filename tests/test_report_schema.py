"""The JSON report is a public contract: real output validates against the shipped schema."""

from __future__ import annotations

import json
import os
from importlib import resources

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from gpulint.cli import cli

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _schema() -> dict:
    return json.loads((resources.files("gpulint") / "schemas" / "report.schema.json").read_text())


def _scan(*paths: str) -> dict:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", *paths])
    return json.loads(result.stdout)


def test_schema_is_valid() -> None:
    Draft202012Validator.check_schema(_schema())


def test_examples_report_validates() -> None:
    report = _scan(os.path.join(ROOT, "examples"))
    errors = list(Draft202012Validator(_schema()).iter_errors(report))
    assert not errors, [e.message for e in errors]


def test_fixture_reports_validate() -> None:
    """Every rule fixture, including unknown values and unpriced resources, gives valid JSON."""
    report = _scan(os.path.join(ROOT, "tests", "rules"))
    assert report["resources"] and report["not_evaluated"]
    assert any(r["monthly_cost_usd"] is None for r in report["resources"])
    errors = list(Draft202012Validator(_schema()).iter_errors(report))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_terraform_and_plan_reports_validate() -> None:
    """Every Terraform resource family, mixed pools, maximum costs and plan changes."""
    report = _scan(os.path.join(ROOT, "tests", "terraform"),
                   os.path.join(ROOT, "tests", "plan", "mixed", "plan.json"))
    resources = report["resources"]
    assert any(r["capacity"] == "mixed" for r in resources)
    assert any(r["change"] and r["change"]["monthly_cost_before_usd"] for r in resources)
    assert any(r["monthly_cost_max_usd"] and r["monthly_cost_usd"] is not None and
               r["monthly_cost_max_usd"] > r["monthly_cost_usd"] for r in resources)
    summary = report["summary"]
    tops = [r["monthly_cost_max_usd"] for r in resources if r["monthly_cost_usd"] is not None]
    assert summary["monthly_cost_max_usd"] == pytest.approx(sum(tops), abs=0.01)
    assert summary["monthly_cost_max_usd"] > summary["monthly_cost_usd"]
    errors = list(Draft202012Validator(_schema()).iter_errors(report))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_summary_adds_up() -> None:
    report = _scan(os.path.join(ROOT, "examples"))
    priced = [r["monthly_cost_usd"] for r in report["resources"]
              if r["monthly_cost_usd"] is not None]
    assert abs(report["summary"]["monthly_cost_usd"] - sum(priced)) < 0.01
    counts = report["summary"]["findings"]
    assert sum(counts.values()) == len(report["findings"])
    assert report["catalog"]["date"] == "2026-05-20"


def test_real_sarif_output_validates_against_the_official_schema() -> None:
    with open(os.path.join(ROOT, "tests", "data", "sarif-schema-2.1.0.json")) as fh:
        sarif_schema = json.load(fh)
    result = CliRunner().invoke(cli, ["scan", "--format", "sarif", os.path.join(ROOT, "examples")])
    sarif = json.loads(result.stdout)
    errors = list(Draft202012Validator(sarif_schema).iter_errors(sarif)) \
        if sarif_schema.get("$schema", "").endswith("2020-12/schema") else \
        list(__import__("jsonschema").Draft7Validator(sarif_schema).iter_errors(sarif))
    assert not errors, [e.message for e in errors[:3]]
    run = sarif["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} >= {"gpu-training-on-demand"}
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
               for r in run["results"])


def test_whole_gpu_counts_are_integers() -> None:
    """Catalog GPU counts are floats (fractional GPUs exist); a report says 8, not 8.0, which
    every reporter then prints as written ("1× A100-80GB", not "1.0× A100-80GB")."""
    report = _scan(os.path.join(ROOT, "tests", "terraform"))
    counts = [r["gpu_count"] for r in report["resources"] if r["gpu_count"] is not None]
    assert any(r["provider"] == "azure" for r in report["resources"]) and counts
    assert all(isinstance(c, int) for c in counts if float(c).is_integer()), \
        sorted({repr(c) for c in counts})


def test_a_pod_names_its_node_pool_in_the_json_report() -> None:
    fixture = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes")
    report = json.loads(CliRunner().invoke(cli, ["scan", fixture, "--no-cache", "--format",
                                                 "json", "--fail-on", "never"]).stdout)
    pools = {r["address"]: r["node_pool"] for r in report["resources"]}
    assert pools["Deployment/llm/chat"] == "google_container_node_pool.l4"
    assert all(p is None for a, p in pools.items() if a.startswith("google_"))  # pools themselves
