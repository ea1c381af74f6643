"""The pipeline: discover → parse → facts → cost → sizing → evaluate, as one plain function."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gpulint import cost, rightsizing
from gpulint.discover import discover
from gpulint.engine import evaluate
from gpulint.facts import kubernetes as k8s_facts
from gpulint.facts import plan as plan_facts
from gpulint.facts import terraform as tf_facts
from gpulint.model import Diagnostic, Finding, NotEvaluated, Resource, Severity
from gpulint.pricing_overrides import PricingOverrides
from gpulint.parse.kubernetes import is_manifest, load_documents, looks_like_kubernetes
from gpulint.ruleset import Rule
from gpulint.terraform import plan
from gpulint.terraform.loader import TerraformProject
from gpulint.terraform.module import Inputs

DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024


@dataclass
class ScanOptions:
    inputs: Inputs = field(default_factory=Inputs)
    hours: float = cost.DEFAULT_HOURS
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    rule_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    severities: dict[str, Severity] = field(default_factory=dict)
    # Pricing (docs/cost.md): parsed overrides file, hours a month per workload class and per
    # resource address (glob patterns allowed), and per-provider default regions.
    pricing_overrides: PricingOverrides | None = None
    hours_by_workload: dict[str, float] = field(default_factory=dict)
    hours_by_address: dict[str, float] = field(default_factory=dict)
    default_regions: dict[str, str] = field(default_factory=dict)

    def cost_options(self) -> cost.CostOptions:
        return cost.CostOptions(self.hours, self.hours_by_workload, self.hours_by_address,
                                self.pricing_overrides, self.default_regions)


@dataclass
class ScanResult:
    files_scanned: int
    resources: list[Resource]
    findings: list[Finding]
    not_evaluated: list[NotEvaluated]
    diagnostics: list[Diagnostic]
    module_notes: list[Any] = field(default_factory=list)
    options: ScanOptions | None = None


def read_text(path: str, limit: int = DEFAULT_MAX_FILE_BYTES) -> tuple[str | None, Diagnostic | None]:
    """File text, or a diagnostic saying why it was not read. Never raises for user input."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        return None, Diagnostic(path, None, f"cannot read file: {e.strerror or e}")
    if len(data) > limit:
        return None, Diagnostic(path, None, f"file larger than {limit // 1024} KiB, skipped "
                                            "(raise the limit with --max-file-size)", "warning")
    if b"\x00" in data:
        return None, Diagnostic(path, None, "binary file, skipped", "warning")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return None, Diagnostic(path, line, "file is not UTF-8 text, skipped")


def run(paths: list[str], rules: list[Rule], options: ScanOptions | None = None) -> ScanResult:
    opts = options or ScanOptions()
    found = discover(paths)
    diagnostics = list(found.diagnostics)
    resources: list[Resource] = []

    def read(path: str) -> tuple[str | None, Diagnostic | None]:
        return read_text(path, opts.max_file_bytes)

    project = TerraformProject(read)
    for sf in found.files:
        if sf.kind in {"terraform", "terraform-json"}:
            project.add_file(sf.path)
            continue
        text, diag = read(sf.path)
        if diag:
            diagnostics.append(diag)
        if text is None:
            continue
        if sf.kind == "json":
            resources.extend(_json_file(sf.path, text, diagnostics, opts.cost_options()))
            continue
        if not looks_like_kubernetes(text):
            continue
        if "{{" in text and ("}}" in text) and _templated(text):
            diagnostics.append(Diagnostic(sf.path, None, "template file (Helm/Go template "
                                          "syntax), skipped: render it first", "warning"))
            continue
        objects, diags = load_documents(sf.path, text)
        diagnostics.extend(diags)
        for obj in objects:
            res = k8s_facts.build(obj)
            if res:
                resources.append(res)
    loaded = project.load(opts.inputs)
    diagnostics.extend(loaded.diagnostics)
    for inst in loaded.resources:
        resources.extend(tf_facts.build_all(inst))
    cost_opts = opts.cost_options()
    for res in resources:
        cost.price_resource(res, opts.hours, cost_opts)
        rightsizing.apply(res, rightsizing.SizingOptions(hours=res.facts["cost.hours"],
                                                         overrides=opts.pricing_overrides))
    rules_by_id = rules
    findings, skipped = evaluate(resources, rules_by_id, opts.rule_options, opts.severities,
                                 opts.hours)
    resources.sort(key=lambda r: (r.path, r.line, r.address))
    diagnostics.sort(key=lambda d: (d.path, d.line or 0, d.message))
    return ScanResult(len(found.files), resources, findings, skipped, diagnostics, loaded.notes,
                      opts)


def _templated(text: str) -> bool:
    """Go template actions ({{ .Values.x }}) outside YAML strings make a file unparseable."""
    import re

    return re.search(r"\{\{-?\s*[.$A-Za-z/(]", text) is not None


def _json_file(path: str, text: str, diagnostics: list[Diagnostic],
               cost_options: cost.CostOptions | None = None) -> list[Resource]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        if looks_like_kubernetes(text):
            diagnostics.append(Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}"))
        return []
    if plan.is_plan(data):
        instances, diags = plan.load_plan(path, text, data)
        diagnostics.extend(diags)
        options = cost_options or cost.CostOptions()
        return [res for inst in instances for res in plan_facts.build_change(inst, options)]
    out = []
    if is_manifest(data):
        objects, diags = load_documents(path, text)
        diagnostics.extend(diags)
        for obj in objects:
            res = k8s_facts.build(obj)
            if res:
                out.append(res)
    return out
