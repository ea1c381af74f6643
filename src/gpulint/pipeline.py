"""The pipeline: discover → load → build facts → derive → evaluate → savings → suppress →
report scope.

Each stage is one function of its own package; `run` only calls them in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from gpulint import suppressions
from gpulint.config.settings import Settings
from gpulint.config.sizing import SizingSettings, from_rule_options
from gpulint.config.tags import TagSettings
from gpulint.derive import derive
from gpulint.discover import ReportScope, discover
from gpulint.engine import evaluate
from gpulint.fact_types import Resource
from gpulint.facts import Built, build_facts
from gpulint.files import containment
from gpulint.load import collector, load
from gpulint.load.cache import ParseCache
from gpulint.model import Diagnostic, Finding, NotEvaluated
from gpulint.render import helm
from gpulint.render.templates import render
from gpulint.ruleset import Rule
from gpulint.savings import attach_savings


@dataclass
class ScanResult:
    files_scanned: int
    resources: list[Resource]
    findings: list[Finding]
    not_evaluated: list[NotEvaluated]
    diagnostics: list[Diagnostic]
    module_notes: list[Any] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    suppressed: list[tuple[Finding, suppressions.Suppression]] = field(default_factory=list)
    baselined: int = 0
    # Choices users may make (a JupyterHub GPU profile): priced per hour, never in the totals,
    # the budgets or the rules, which are about what runs.
    options: list[Resource] = field(default_factory=list)
    terraform_reads: frozenset[str] = frozenset()  # files evaluated Terraform read (coverage)
    # The repository root (containment.report_root): report paths are shown relative to it.
    # Empty when the result was not made by `run`: the working directory's root is used.
    root: str = ""


def run(paths: list[str], rules: list[Rule], settings: Settings | None = None) -> ScanResult:
    settings = settings or Settings()
    # Parsed trees are kept out of garbage collections until the scan ends (collector.py).
    with collector.scan_scope(), containment.confined(paths, settings.scan.inputs.var_files):
        found = discover(paths, settings.scan)
        cache = ParseCache(settings.scan.cache_dir) if settings.scan.cache_dir else None
        try:  # the renders' cache is the scan's: released with it (helm.use_cache)
            loaded = load(found, settings.scan, render(found, settings.scan, cache), cache)
            built = build_facts(loaded, settings)
            rules, sizing, tags, problems = _configured(rules, settings)
            derive(built.resources, settings.pricing, sizing, tags)
            options = [r for r in built.resources if r.facts.get("option")]
            built.resources = [r for r in built.resources if not r.facts.get("option")]
            findings, not_evaluated = evaluate(built.resources, rules)
            findings = attach_savings(findings, built.resources, rules)
            outcome = suppressions.apply(
                findings, not_evaluated, built.spans, [*loaded.suppressions, *built.suppressions],
                [r.id for r in rules], require_reason=settings.suppressions.require_reason,
                today=settings.suppressions.today)
            result = ScanResult(
                len(found.files), built.resources, outcome.findings, outcome.not_evaluated,
                [*loaded.diagnostics, *built.diagnostics, *problems, *outcome.diagnostics],
                built.notes, settings, outcome.suppressed, options=options,
                terraform_reads=built.terraform_reads, root=containment.report_root(paths))
        finally:
            helm.use_cache(None)
        return _not_excluded(_scoped(result, found.scope, built), settings.scan.exclude)


def _configured(rules: list[Rule], settings: Settings
               ) -> tuple[list[Rule], SizingSettings, TagSettings, list[Diagnostic]]:
    """Rules with per-run options and severities; the sizing and tag settings with the
    deprecated rule options still set mapped onto them (one note each)."""
    options = settings.rules.options
    sizing, tags, notes = from_rule_options(rules, settings.sizing, settings.tags, options)
    rules = [replace(r, options={**r.options, **options.get(r.id, {})},
                     severity=settings.rules.severities.get(r.id, r.severity)) for r in rules]
    return rules, sizing, tags, [Diagnostic("<rule options>", None, n, "warning")
                                 for n in notes]


def _scoped(result: ScanResult, scope: ReportScope, built: Built) -> ScanResult:
    """What the report covers, sorted. Out of scope, everything was still loaded, linked and
    evaluated as context. A resource of a local module is in scope when its own file or a call
    to it is; a diagnostic about no file (`<rule options>`) always is."""
    def covered(res: Resource) -> bool:
        return scope.covers(res.path) or any(scope.covers(p)
                                             for p in built.called_from.get(id(res), ()))

    resources = sorted((r for r in result.resources if covered(r)),
                       key=lambda r: (r.path, r.line, r.address))
    options = sorted((r for r in result.options if covered(r)),
                     key=lambda r: (r.path, r.line, r.address))
    keys = {(r.path, r.address) for r in resources}
    return replace(
        result, resources=resources,
        findings=[f for f in result.findings if (f.path, f.address) in keys],
        not_evaluated=[n for n in result.not_evaluated if (n.path, n.address) in keys],
        suppressed=[(f, s) for f, s in result.suppressed if (f.path, f.address) in keys],
        diagnostics=sorted((d for d in result.diagnostics
                            if d.path.startswith("<") or scope.covers(d.path)),
                           key=lambda d: (d.path, d.line or 0, d.message)),
        module_notes=[n for n in result.module_notes if scope.covers(n.path)],
        options=options)


def _not_excluded(result: ScanResult, exclude: tuple[str, ...]) -> ScanResult:
    """Findings, unevaluated items and diagnostics located in an excluded file are dropped even
    when the file was read as a module a scanned file calls; its resources still count in the
    cost (they are deployed)."""
    if not exclude:
        return result
    from gpulint.globs import excluded

    def kept(path: str) -> bool:
        return path.startswith("<") or not excluded(path, exclude)

    return replace(
        result, findings=[f for f in result.findings if kept(f.path)],
        not_evaluated=[n for n in result.not_evaluated if kept(n.path)],
        suppressed=[(f, s) for f, s in result.suppressed if kept(f.path)],
        diagnostics=[d for d in result.diagnostics if kept(d.path)])


__all__ = ["ScanResult", "run"]
