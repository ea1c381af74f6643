"""The pipeline: discover → parse → facts → cost → sizing → evaluate, as one plain function."""

from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from gpulint import globs, suppressions
from gpulint.load import collector
from gpulint.pricing import price as cost
from gpulint.facts import configured as declarations
from gpulint.facts.kubernetes import link as linking
from gpulint.derive import fit as rightsizing
from gpulint.discover import discover
from gpulint.engine import evaluate
from gpulint.facts import kubernetes as k8s_facts
from gpulint.facts.terraform import community as tf_community
from gpulint.facts.terraform import plan as plan_facts
from gpulint.facts import terraform as tf_facts
from gpulint.model import Diagnostic, Finding, NotEvaluated, Resource, Severity, SourceFile
from gpulint.load import templates
from gpulint.load.kubernetes import K8sObject, is_manifest, load_documents, looks_like_kubernetes
from gpulint.load.source import DEFAULT_MAX_FILE_BYTES, PARSED_KINDS, read_text
from gpulint.pricing.overrides import PricingOverrides
from gpulint.ruleset import Rule
from gpulint.load import plan
from gpulint.terraform.loader import TerraformProject
from gpulint.terraform.variables import Inputs


@dataclass
class ScanOptions:
    inputs: Inputs = field(default_factory=Inputs)
    hours: float = cost.DEFAULT_HOURS
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    rule_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    severities: dict[str, Severity] = field(default_factory=dict)
    helm_values: list[str] = field(default_factory=list)  # values files for `helm template`
    # Pricing (docs/cost.md): parsed overrides file, hours a month per workload class and per
    # resource address (glob patterns allowed), and per-provider default regions.
    pricing_overrides: PricingOverrides | None = None
    hours_by_workload: dict[str, float] = field(default_factory=dict)
    hours_by_address: dict[str, float] = field(default_factory=dict)
    default_regions: dict[str, str] = field(default_factory=dict)
    # Report only on these files (pre-commit passes changed files; their Terraform module
    # directories are still loaded whole for context). None: report on everything scanned.
    report_only: set[str] | None = None
    exclude: list[str] = field(default_factory=list)  # absolute path globs
    model_declarations: list[declarations.ModelDeclaration] = field(default_factory=list)
    require_reason: bool = True  # suppressions need `-- reason`
    today: dt.date | None = None  # for suppression expiry; None means today
    jobs: int = 0  # parse workers; 0 = one per core (used only for large scans), 1 = serial
    cache_dir: str | None = None  # parse cache directory; None = no cache
    progress: Callable[[int, int], None] | None = None  # (files parsed, files to parse)

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
    suppressed: list[tuple[Finding, suppressions.Suppression]] = field(default_factory=list)
    baselined: int = 0


def run(paths: list[str], rules: list[Rule], options: ScanOptions | None = None) -> ScanResult:
    # Parsed trees are kept out of garbage collections until the scan ends (collector.py).
    with collector.scan_scope():
        return _run(paths, rules, options)


def _run(paths: list[str], rules: list[Rule], options: ScanOptions | None) -> ScanResult:
    opts = options or ScanOptions()
    found = discover(paths)
    if opts.exclude:
        found.files = [f for f in found.files if not globs.excluded(f.path, opts.exclude)]
    # Compared as absolute paths: the given form (relative or absolute) differs from the shown one.
    report_only = {os.path.abspath(p) for p in opts.report_only} \
        if opts.report_only is not None else None
    diagnostics = list(found.diagnostics)
    resources: list[Resource] = []
    spans: dict[tuple[str, str], suppressions.Span] = {}
    found_suppressions: list[suppressions.Suppression] = []

    def read(path: str) -> tuple[str | None, Diagnostic | None]:
        return read_text(path, opts.max_file_bytes)

    rendered = templates.plan(found.files, opts.helm_values, lambda p: read(p)[0])
    diagnostics.extend(rendered.diagnostics)
    k8s_objects: list[K8sObject] = list(rendered.objects)
    # Terraform and YAML files: read once, parsed once (cached, on all cores when worth it).
    # Texts are kept only for files that may hold suppression comments.
    from gpulint.load import parallel
    from gpulint.load.cache import ParseCache

    cache = ParseCache(opts.cache_dir) if opts.cache_dir else None
    outcomes = iter(parallel.parse_files(
        [sf for sf in found.files if sf.kind in PARSED_KINDS and sf.path not in rendered.skip],
        opts.max_file_bytes, opts.jobs, cache, opts.progress))
    texts: dict[str, str | None] = {}

    def parse_source(path: str) -> tuple[Any, list[Diagnostic]]:
        kind = "terraform-json" if path.endswith(".tf.json") else "terraform"
        outcome = parallel.parse_one(path, kind, opts.max_file_bytes, cache)
        texts[path] = outcome.text
        return outcome.terraform(), outcome.diagnostics()

    def text_of(path: str) -> tuple[str | None, Diagnostic | None]:
        return (texts[path], None) if path in texts else read(path)

    project = TerraformProject(read, parse_source)
    for sf in found.files:
        if sf.path in rendered.skip:
            continue
        if sf.kind in PARSED_KINDS:
            outcome = next(outcomes)
            texts[sf.path] = outcome.text
            if sf.kind == "kubernetes":
                diagnostics.extend(outcome.diagnostics())
                if outcome.text:
                    found_suppressions += suppressions.from_text(sf.path, outcome.text)
                k8s_objects.extend(outcome.objects())
            else:
                project.add_parsed(sf.path, outcome.terraform(), outcome.diagnostics())
            continue
        text, diag = read(sf.path)
        if diag:
            diagnostics.append(diag)
        if text is None:
            continue
        if sf.kind == "json":
            planned = _plan_file(sf.path, text, diagnostics, opts.cost_options())
            for res in planned or []:
                resources.append(res)
                spans[(res.path, res.address)] = suppressions.Span(res.path, res.line, res.line)
            if planned is None:
                k8s_objects.extend(_json_file(sf.path, text, diagnostics))
    ends = _document_ends(k8s_objects)
    for obj, built in k8s_facts.build_each(k8s_objects):
        for res in built:
            resources.append(res)
            spans[(res.path, res.address)] = suppressions.Span(res.path, res.line,
                                                                ends[(obj.path, obj.line)])
        if built:
            found_suppressions.extend(suppressions.from_annotations(
                obj.path, obj.line, obj.doc.get("metadata")))
    if report_only is not None:
        _add_module_context(project, found.files)
    loaded = tf_community.expand_calls(project.load(opts.inputs))
    diagnostics.extend(loaded.diagnostics)
    called_from: dict[int, tuple[str, ...]] = {}  # id(resource) → files of its module calls
    for inst in loaded.resources:
        try:
            built = tf_facts.build_all(inst)
        except RecursionError:
            diagnostics.append(Diagnostic(inst.path, inst.view.line, f"{inst.address} not "
                                          "evaluated: expressions nested too deeply"))
            continue
        for res in built:
            resources.append(res)
            if inst.call_paths:
                called_from[id(res)] = inst.call_paths
            # Module-call node groups have no block of their own: their span is the call line.
            end = getattr(inst.view.block, "end_line", None)
            spans[(res.path, res.address)] = suppressions.Span(res.path, res.line,
                                                               end or res.line)
    # Linking needs every resource of the scan, before reporting is narrowed to given files.
    linking.link(resources, k8s_objects)
    if report_only is not None:
        # A resource of a local module is reported when its own file or a call to it is given.
        resources = [r for r in resources if os.path.abspath(r.path) in report_only or any(
            os.path.abspath(p) in report_only for p in called_from.get(id(r), ()))]
        diagnostics = [d for d in diagnostics if os.path.abspath(d.path) in report_only]
    declarations.apply(resources, opts.model_declarations)
    cost_opts = opts.cost_options()
    sizing_opts, problems = rightsizing.options_from_rules(
        rules, opts.rule_options, opts.hours, overrides=opts.pricing_overrides,
        default_regions=opts.default_regions)
    diagnostics.extend(Diagnostic("<rule options>", None, p, "warning") for p in problems)
    for res in resources:
        cost.price_resource(res, opts.hours, cost_opts)
        rightsizing.apply(res, replace(sizing_opts, hours=res.facts["cost.hours"]))
    findings, skipped = evaluate(resources, rules, opts.rule_options, opts.severities,
                                 opts.hours)
    # Suppressions are read where the reported resources are (a module's file too), and their
    # own diagnostics kept for the given files.
    shown = None if report_only is None else \
        report_only | {os.path.abspath(r.path) for r in resources}
    found_suppressions += _terraform_suppressions(project, shown, text_of)
    outcome = suppressions.apply(findings, skipped, spans, found_suppressions,
                                 [r.id for r in rules], require_reason=opts.require_reason,
                                 today=opts.today)
    diagnostics += [d for d in outcome.diagnostics
                    if report_only is None or os.path.abspath(d.path) in report_only]
    resources.sort(key=lambda r: (r.path, r.line, r.address))
    diagnostics.sort(key=lambda d: (d.path, d.line or 0, d.message))
    notes = [n for n in loaded.notes if report_only is None
             or os.path.abspath(n.path) in report_only]
    return ScanResult(len(found.files), resources, outcome.findings, outcome.not_evaluated,
                      diagnostics, notes, opts, outcome.suppressed)


def _add_module_context(project: TerraformProject, files: list[SourceFile]) -> None:
    """Sibling files of each given Terraform file: variables, locals and providers live there."""
    given = {os.path.normpath(f.path) for f in files}
    for directory in sorted({os.path.dirname(f.path) for f in files
                             if f.kind in {"terraform", "terraform-json"}}):
        try:
            names = sorted(os.listdir(directory or "."))
        except OSError:
            continue
        for name in names:
            path = os.path.join(directory, name)
            if name.endswith((".tf", ".tf.json")) and os.path.normpath(path) not in given:
                project.add_file(path)


def _terraform_suppressions(project: TerraformProject, report_only: set[str] | None,
                            read: Any) -> list[suppressions.Suppression]:
    out: list[suppressions.Suppression] = []
    for files in project.dirs.values():
        for parsed in files:
            if report_only is not None and os.path.abspath(parsed.path) not in report_only:
                continue
            text, _ = read(parsed.path)
            if text is not None:
                out += suppressions.from_text(parsed.path, text)
    return out


def _document_ends(objects: list[K8sObject]) -> dict[tuple[str, int], int]:
    """Last line of each object's document: the line before the next object in its file."""
    ends: dict[tuple[str, int], int] = {}
    by_path: dict[str, list[int]] = {}
    for obj in objects:
        by_path.setdefault(obj.path, []).append(obj.line)
    for path, lines in by_path.items():
        lines = sorted(set(lines))
        for here, nxt in zip(lines, lines[1:] + [1 << 30]):
            ends[(path, here)] = nxt - 1 if nxt != 1 << 30 else nxt
    return ends


def _plan_file(path: str, text: str, diagnostics: list[Diagnostic],
               cost_options: cost.CostOptions) -> list[Resource] | None:
    """The resources of a Terraform plan JSON (`terraform show -json`), or None if the file is
    not one."""
    if '"resource_changes"' not in text and '"planned_values"' not in text:
        return None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):  # _json_file reports it
        return None
    if not plan.is_plan(data):
        return None
    instances, diags = plan.load_plan(path, text, data)
    diagnostics.extend(diags)
    return [res for inst in instances for res in plan_facts.build_change(inst, cost_options)]


def _json_file(path: str, text: str, diagnostics: list[Diagnostic]) -> list[K8sObject]:
    try:
        data = json.loads(text)
    except RecursionError:
        diagnostics.append(Diagnostic(path, None, "JSON nested too deeply to read, skipped"))
        return []
    except json.JSONDecodeError as e:
        if looks_like_kubernetes(text):
            diagnostics.append(Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}"))
        return []
    if not is_manifest(data):
        return []
    objects, diags = load_documents(path, text)
    diagnostics.extend(diags)
    return objects
