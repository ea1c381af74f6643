"""The pipeline: discover → parse → facts → cost → sizing → evaluate, as one plain function."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from gpulint import cost, rightsizing
from gpulint.discover import discover
from gpulint.engine import evaluate
from gpulint.facts import kubernetes as k8s_facts
from gpulint.facts import terraform as tf_facts
from gpulint.model import Diagnostic, Finding, NotEvaluated, Resource, Severity
from gpulint.parse.kubernetes import is_manifest, load_documents, looks_like_kubernetes
from gpulint.parse.source import DEFAULT_MAX_FILE_BYTES, PARSED_KINDS, read_text
from gpulint.ruleset import Rule
from gpulint.terraform.loader import TerraformProject
from gpulint.terraform.module import Inputs


@dataclass
class ScanOptions:
    inputs: Inputs = field(default_factory=Inputs)
    hours: float = cost.DEFAULT_HOURS
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    rule_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    severities: dict[str, Severity] = field(default_factory=dict)
    jobs: int = 0  # parse workers; 0 = one per core (used only for large scans), 1 = serial
    cache_dir: str | None = None  # parse cache directory; None = no cache
    progress: Callable[[int, int], None] | None = None  # (files parsed, files to parse)


@dataclass
class ScanResult:
    files_scanned: int
    resources: list[Resource]
    findings: list[Finding]
    not_evaluated: list[NotEvaluated]
    diagnostics: list[Diagnostic]
    module_notes: list[Any] = field(default_factory=list)


def run(paths: list[str], rules: list[Rule], options: ScanOptions | None = None) -> ScanResult:
    opts = options or ScanOptions()
    found = discover(paths)
    diagnostics = list(found.diagnostics)
    resources: list[Resource] = []

    def read(path: str) -> tuple[str | None, Diagnostic | None]:
        return read_text(path, opts.max_file_bytes)

    from gpulint import parallel
    from gpulint.cache import ParseCache

    cache = ParseCache(opts.cache_dir) if opts.cache_dir else None
    outcomes = iter(parallel.parse_files([sf for sf in found.files if sf.kind in PARSED_KINDS],
                                         opts.max_file_bytes, opts.jobs, cache, opts.progress))

    def parse_source(path: str) -> tuple[Any, list[Diagnostic]]:
        kind = "terraform-json" if path.endswith(".tf.json") else "terraform"
        outcome = parallel.parse_one(path, kind, opts.max_file_bytes, cache)
        return outcome.terraform(), outcome.diagnostics()

    project = TerraformProject(read, parse_source)
    for sf in found.files:
        if sf.kind in PARSED_KINDS:
            outcome = next(outcomes)
            if sf.kind == "kubernetes":
                diagnostics.extend(outcome.diagnostics())
                resources.extend(r for r in map(k8s_facts.build, outcome.objects()) if r)
            else:
                project.add_parsed(sf.path, outcome.terraform(), outcome.diagnostics())
            continue
        text, diag = read(sf.path)
        if diag:
            diagnostics.append(diag)
        if text is None:
            continue
        if sf.kind == "json":
            resources.extend(_json_file(sf.path, text, diagnostics))
    loaded = project.load(opts.inputs)
    diagnostics.extend(loaded.diagnostics)
    for inst in loaded.resources:
        try:
            res = tf_facts.build(inst)
        except RecursionError:
            diagnostics.append(Diagnostic(inst.path, inst.view.line, f"{inst.address} not "
                                          "evaluated: expressions nested too deeply"))
            continue
        if res:
            resources.append(res)
    for res in resources:
        cost.price_resource(res, opts.hours)
        rightsizing.apply(res, rightsizing.SizingOptions(hours=opts.hours))
    rules_by_id = rules
    findings, skipped = evaluate(resources, rules_by_id, opts.rule_options, opts.severities,
                                 opts.hours)
    resources.sort(key=lambda r: (r.path, r.line, r.address))
    diagnostics.sort(key=lambda d: (d.path, d.line or 0, d.message))
    return ScanResult(len(found.files), resources, findings, skipped, diagnostics, loaded.notes)


def _json_file(path: str, text: str, diagnostics: list[Diagnostic]) -> list[Resource]:
    try:
        data = json.loads(text)
    except RecursionError:
        diagnostics.append(Diagnostic(path, None, "JSON nested too deeply to read, skipped"))
        return []
    except json.JSONDecodeError as e:
        if looks_like_kubernetes(text):
            diagnostics.append(Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}"))
        return []
    if isinstance(data, dict) and ("resource_changes" in data or "planned_values" in data):
        diagnostics.append(Diagnostic(path, None, "Terraform plan JSON is not evaluated yet; "
                                      "scan the .tf sources instead", "warning"))
        return []
    out = []
    if is_manifest(data):
        objects, diags = load_documents(path, text)
        diagnostics.extend(diags)
        for obj in objects:
            res = k8s_facts.build(obj)
            if res:
                out.append(res)
    return out
