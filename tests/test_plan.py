"""Terraform plan JSON gives the same facts, costs and findings as the HCL it was planned from.

Each tests/plan/<case>/ holds `hcl/` (the configuration) and `plan.json` (what
`terraform show -json` prints for it, written by hand to match).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from gpulint import pipeline as scan
from gpulint.facts.model_decl import declared_model
from gpulint.model import Resource, Unknown
from gpulint.report import build as report
from gpulint.ruleset import load_rules

CASES = os.path.join(os.path.dirname(__file__), "plan")
COMPARED = ("provider", "region", "instance.type", "gpu.model", "gpu.count", "gpu.memory_gib",
            "capacity", "workload", "shutdown", "tags", "replicas.min", "replicas.max",
            "replicas.desired", "cost.count", "cost.hourly", "cost.monthly", "cost.monthly_max")


def _facts(res: Resource) -> dict[str, Any]:
    # Unknown reasons differ in wording (a data source vs "known only after apply"); that a
    # value is unknown must not.
    out = {k: "unknown" if isinstance(res.facts.get(k), Unknown) else res.facts.get(k)
           for k in COMPARED}
    decl = declared_model(res)
    out["model"] = (decl.id, decl.source) if decl is not None else None
    return out


@pytest.mark.parametrize("case", sorted(os.listdir(CASES)))
def test_plan_matches_hcl(case: str) -> None:
    folder = os.path.relpath(os.path.join(CASES, case))
    rules = load_rules()
    from_hcl = scan.run([os.path.join(folder, "hcl")], rules)
    from_plan = scan.run([os.path.join(folder, "plan.json")], rules)
    assert not [d for d in from_plan.diagnostics if d.severity == "error"]
    hcl = {r.address: _facts(r) for r in from_hcl.resources}
    plan = {r.address: _facts(r) for r in from_plan.resources}
    assert sorted(plan) == sorted(hcl)
    for address in hcl:
        assert plan[address] == hcl[address], address
    assert {(f.rule, f.address) for f in from_plan.findings} == \
        {(f.rule, f.address) for f in from_hcl.findings}


def test_plan_changes_and_lines() -> None:
    path = os.path.relpath(os.path.join(CASES, "mixed", "plan.json"))
    result = scan.run([path], [])
    by_address = {r.address: r for r in result.resources}
    # A deleted resource runs nothing after the change.
    assert "aws_instance.retired" not in by_address
    updated = by_address["aws_instance.gpu[0]"]
    assert updated.facts["change.actions"] == ["update"]
    # Before: g5.xlarge on demand, 1.006 × 730.
    assert updated.facts["cost.monthly_before"] == pytest.approx(734.38)
    assert by_address["aws_instance.gpu[1]"].facts["change.actions"] == ["create"]
    assert "cost.monthly_before" not in by_address["aws_instance.gpu[1]"].facts
    # Each resource points at its entry in resource_changes.
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for res in result.resources:
        assert json.dumps(res.address) in lines[res.line - 1], res.address
    out = report.build(result, 730)
    entry = next(r for r in out["resources"] if r["address"] == "aws_instance.gpu[0]")
    assert entry["change"] == {"actions": ["update"], "monthly_cost_before_usd": 734.38}


def test_plan_without_changes_is_a_warning(tmp_path: Any) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"format_version": "1.2", "planned_values": {}}))
    result = scan.run([str(path)], [])
    assert result.resources == []
    assert [d.severity for d in result.diagnostics] == ["warning"]
    assert "no resource_changes" in result.diagnostics[0].message


def test_plan_follows_references_between_resources() -> None:
    """Links come from the configuration's references, since ids are unknown in a plan."""
    path = os.path.relpath(os.path.join(CASES, "services", "plan.json"))
    by_address = {r.address: r for r in scan.run([path], []).resources}
    endpoint = by_address["aws_sagemaker_endpoint_configuration.ep"]
    assert declared_model(endpoint).id == "Qwen/Qwen2.5-7B-Instruct"
    manager = by_address["google_compute_region_instance_group_manager.m"]
    assert manager.facts["instance.type"] == "g2-standard-8"
    assert manager.facts["tags"] == {"team": "ml", "workload": "inference"}
    assert "google_compute_instance_template.t" not in by_address


def test_text_report_shows_the_plan_change() -> None:
    from gpulint.reporters import text

    path = os.path.relpath(os.path.join(CASES, "mixed", "plan.json"))
    out = text.render(report.build(scan.run([path], []), 730), verbose=True)
    assert "plan: update, was $734/month" in out
    assert "plan: create" in out
