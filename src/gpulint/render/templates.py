"""Helm charts and kustomizations: render them with the real tool when it is on PATH.

A directory with Chart.yaml is rendered with `helm template`, one with kustomization.yaml with
`kustomize build` (or `kubectl kustomize`). Rendered objects are reported at the file and line
they came from when that can be found (Helm's `# Source:` comment, or the kustomization's own
resource files), else at the chart/kustomization file. Without the tool a chart is skipped with a
warning; a kustomization's plain files are still scanned one by one, without its patches.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from gpulint.files import containment
from gpulint.files.safe_yaml import safe_load as safe_yaml
from gpulint.files.text import read_text
from gpulint.load import evidence, iac_formats
from gpulint.load.kubernetes import K8sObject, is_manifest, looks_like_kubernetes
from gpulint.load.source import unreadable_template_line
from gpulint.model import CHART_RENDER, VALUES_READ, Diagnostic, SourceFile
from gpulint.render import (
    helm,
    helmfile,
    helmfile_names,
    helmfile_tree,
    kustomize,
    kustomize_builds,
    kustomize_charts,
    kustomize_helm,
    values_evidence,
    values_tree,
)
from gpulint.render import values as values_reader
from gpulint.render.values_tree import Values

if TYPE_CHECKING:
    from gpulint.config.settings import ScanSettings
    from gpulint.discover import Discovery
    from gpulint.load.cache import ParseCache

KUSTOMIZATION_FILES = kustomize.KUSTOMIZATION_FILES
# YAML that is never a values file: charts' own metadata, kustomizations, CI and compose files.
_NOT_VALUES = frozenset({"Chart.yaml", "Chart.lock", *KUSTOMIZATION_FILES,
                         *helmfile_names.HELMFILE_NAMES, "docker-compose.yaml",
                         "docker-compose.yml", "compose.yaml", "compose.yml",
                         ".pre-commit-config.yaml", ".gitlab-ci.yml"})


@dataclass
class TemplatePlan:
    objects: list[K8sObject] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    skip: set[str] = field(default_factory=set)  # files not to parse one by one
    # A chart or kustomization that could not be rendered: a note, a warning when strict.
    unrendered: str = "info"
    # Kustomize helmCharts entries (file, index) a build rendered (""), or why not.
    inflated: dict[tuple[str, int], str] = field(default_factory=dict)
    notes: list[evidence.EvidenceNote] = field(default_factory=list)  # evidence not read
    # Resource profiles charts define by name (values_evidence.profiles), for kinds that name
    # one: a chart's own values (its defaults) and standalone values files.
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)


def _under(path: str, root: str) -> bool:
    top = os.path.abspath(root)
    return os.path.commonpath([os.path.abspath(path), top]) == top


def _values_of(root: str | None, files: list[str],
               inline: list[helmfile.Inline], read: Callable[[str], str | None],
               diags: list[Diagnostic]) -> tuple[Values, Values]:
    """(chart defaults + overrides, overrides only): what the values reader and the SDK need."""
    full, over = Values(), Values()
    chart_values = [os.path.join(root, "values.yaml")] if root else []
    for path in chart_values + files:
        text = read(path) if os.path.isfile(path) else None
        docs, problems = values_tree.parse(path, text) if text else ([], [])
        diags.extend(problems)
        for tree, lines in docs:
            values_tree.add(full, path, tree, lines)
            if path not in chart_values:
                values_tree.add(over, path, tree, lines)
    for tree, lines, where in inline:
        values_tree.add(full, where, tree, lines)
        values_tree.add(over, where, tree, lines)
    return full, over


def _chart(root: str, release: str, namespace: str | None, values_files: list[str],
           inline: list[helmfile.Inline], plan: TemplatePlan,
           read: Callable[[str], str | None]) -> None:
    """Render a local chart; when it cannot be, read its GPU requests from its values."""
    chart_file = os.path.join(root, "Chart.yaml")
    full, over = _values_of(root, values_files, inline, read, plan.diagnostics)
    plan.profiles.update(values_evidence.profiles(full.tree))
    rendered = helm.render(root, release, namespace, values_files, over.tree)
    if rendered is not None and rendered.templates is not None:
        for template, text in sorted(rendered.templates.items()):
            source = helm.source_path(root, template) or chart_file
            objects, diags = helm.parse(source, text)
            plan.diagnostics.extend(Diagnostic(chart_file, None, f"rendered chart: {d.message}",
                                               d.severity, CHART_RENDER) for d in diags)
            for obj in objects:
                line = helm.kind_line(source, str(obj.doc["kind"]), read) \
                    if source != chart_file else 1
                plan.objects.append(K8sObject(source, line, helm.in_namespace(obj.doc, namespace)))
        plan.diagnostics.append(Diagnostic(chart_file, None, f"chart rendered with "
                                           f"{rendered.renderer} (release {release})", "info",
                                           CHART_RENDER))
        for dep in _missing_dependencies(root, read):
            _from_values(full, release, namespace, chart_file, f"dependency {dep} is not in the "
                         "chart's charts/ directory, not rendered", plan, (dep,))
        return
    why = (rendered.reason() if rendered is not None else
           "no Helm renderer: put helm on PATH or pip install 'gpulint[helm]'")
    _from_values(full, release, namespace, chart_file, f"chart not rendered ({why})", plan,
                 severity=(rendered.severity if rendered is not None else None)
                 or plan.unrendered, origin=CHART_RENDER)


# A chart's own folders: templates, subcharts, CRDs installed as they are, chart-testing values
# and helm-unittest specs (tests/: their `set:` values are test inputs, not deployments).
_CHART_DIRS = ("templates", "charts", "crds", "ci", "tests")


def _skip_chart(root: str, paths: list[str], skip: set[str]) -> None:
    """A chart's templates, subcharts, CRDs, test values and values file are not scanned one by
    one (its objects come from its render, or its values are read); plain manifests elsewhere in
    it (examples, a manifest applied with kubectl beside the chart) are scanned as they are,
    rendered or not: Helm never installs them. Other values files in it are alternatives."""
    inside = [p for p in paths if _under(p, root)]
    hidden = [os.path.join(root, d) for d in _CHART_DIRS]
    own = {os.path.abspath(os.path.join(root, f)) for f in ("values.yaml", "values.yml")}
    skip.update(p for p in inside if any(_under(p, h) for h in hidden)
                or os.path.abspath(p) in own
                or (os.path.basename(p).startswith("values") and not _alternative_values(p)))


def _alternative_values(path: str) -> bool:
    """A values file in a chart's tree other than its own values.yaml (`values-<name>.yaml`
    beside it, `<model>/values.yaml` in a directory per deployment): another way to deploy the
    chart, read as Helm values of its own (the chart is rendered with its defaults only)."""
    return path.endswith((".yaml", ".yml"))


def _missing_dependencies(root: str, read: Callable[[str], str | None]) -> list[str]:
    """Keys (alias or name) of the chart's dependencies that are not vendored under charts/:
    a renderer leaves them out, so their values are read instead."""
    try:
        meta = safe_yaml(read(os.path.join(root, "Chart.yaml")) or "")
    except yaml.YAMLError:
        return []
    deps = meta.get("dependencies") if isinstance(meta, dict) else None
    vendored = os.listdir(os.path.join(root, "charts")) if os.path.isdir(
        os.path.join(root, "charts")) else []
    out = []
    for dep in deps if isinstance(deps, list) else []:
        if isinstance(dep, dict) and dep.get("name") and not any(
                v == dep["name"] or v.startswith(f"{dep['name']}-") for v in vendored):
            out.append(str(dep.get("alias") or dep["name"]))
    return out


def _from_values(values: Values, release: str, namespace: str | None, path: str, why: str,
                 plan: TemplatePlan, under: tuple[str, ...] = (), severity: str = "info",
                 origin: str = "") -> None:
    objects, notes, _ = values_evidence.read(values, release, namespace, under)
    plan.objects.extend(objects)
    plan.notes.extend(notes)
    plan.diagnostics.append(Diagnostic(path, None, f"{why}; read "
                                       f"{values_reader.describe(objects)} from its values",
                                       severity, origin))


def _helmfiles(paths: list[str], charts: list[str], out: TemplatePlan,
               read: Callable[[str], str | None],
               environments: tuple[str, ...] | None = None) -> set[str]:
    """Render or read each helmfile release in each environment it is deployed to (its
    objects addressed `@<environment>` when the helmfile declares several); the charts
    rendered."""
    scan = helmfile.Scan({os.path.abspath(p) for p in paths},
                         {os.path.abspath(c) for c in charts}, read)
    found = helmfile_tree.read_all(paths, scan, environments)
    out.diagnostics.extend(found.diagnostics)
    used_charts: set[str] = set()
    consumed = set(found.consumed)
    for deployed in found.releases:
        rel, start = deployed.release, len(out.objects)
        consumed.update(os.path.abspath(f) for f in rel.values_files + rel.templates)
        if rel.local_chart is not None:
            root = next(c for c in charts if os.path.abspath(c) == rel.local_chart)
            used_charts.add(rel.local_chart)
            _chart(root, rel.name, rel.namespace, rel.values_files, rel.inline,
                              out, read)
            _skip_chart(root, paths, out.skip)
        else:
            full, _ = _values_of(None, rel.values_files, rel.inline, read, out.diagnostics)
            where = f"environment {deployed.variant}: " if deployed.variant else ""
            _from_values(full, rel.name, rel.namespace, rel.path, f"{where}release {rel.name}: "
                         f"chart {rel.chart} is not in the scan", out)
        if deployed.variant:
            out.objects[start:] = [dataclasses.replace(o, variant=deployed.variant)
                                   for o in out.objects[start:]]
    out.skip.update(consumed & scan.files)
    return used_charts


def _standalone_values(paths: list[str], skip: set[str], out: TemplatePlan,
                       read: Callable[[str], str | None]) -> None:
    """YAML files that are not manifests but ask for accelerators: values of remote charts."""
    for path in paths:
        if path in skip or os.path.abspath(path) in skip or \
                not path.endswith((".yaml", ".yml")) or os.path.basename(path) in _NOT_VALUES:
            continue
        text = read(path)
        if text and iac_formats.MARK.search(text) and _unread_format(path, text, out):
            continue  # CloudFormation, ParallelCluster: not Helm values
        if not text or not (values_reader.may_request(text) or evidence.MARKER.search(text)):
            continue
        if unreadable_template_line(text) is not None:  # not YAML: an unrendered template
            _unreadable(path, text, out)
            continue
        docs, diags = values_tree.parse(path, text)
        if not values_reader.may_request(text) and not any(evidence.find(t) for t, _ in docs):
            continue  # "gpu" in a name or a comment, no accelerator asked for
        if _read_by_terraform(path, paths, read):
            continue  # yamldecode(file(...)): its pools end in the resources built from it
        values = Values()
        for tree, lines in docs:
            if isinstance(tree, dict) and not is_manifest(tree) and not _test_spec(tree):
                values_tree.add(values, path, tree, lines)
        objects, notes, _ = values_evidence.read(
            values, _release_label(path), fix=values_evidence.STANDALONE_FIX) if values.tree \
            else ([], [], [])
        out.notes.extend(notes)
        for name, profile in values_evidence.profiles(values.tree).items():
            out.profiles.setdefault(name, profile)  # a chart's own definition wins
        if not looks_like_kubernetes(text):  # else the manifest parser reports the problem
            out.diagnostics.extend(diags)
        if objects:
            out.objects.extend(objects)
            out.diagnostics.append(Diagnostic(path, None, f"read {values_reader.describe(objects)}"
                                              " from Helm values (not rendered)", "info",
                                              VALUES_READ))


def _read_by_terraform(path: str, paths: list[str], read: Callable[[str], str | None]) -> bool:
    """A Terraform file of the scan names the file by its path from the Terraform file's
    directory (`yamldecode(file("clusters.yaml"))`, `"${path.module}/../config/pools.yaml"`)."""
    where = os.path.abspath(path)
    for p in paths:
        if p.endswith(".tf"):
            rel = os.path.relpath(where, os.path.dirname(os.path.abspath(p)))
            text = read(p) or ""
            if f'"{rel}"' in text or f'/{rel}"' in text:
                return True
    return False


def _unread_format(path: str, text: str, out: TemplatePlan) -> bool:
    """Whether the file is in a format gpulint does not read; its accelerators are named."""
    docs, _ = values_tree.parse(path, text)
    if not any(iac_formats.kind_of(tree) for tree, _ in docs):
        return False
    for tree, lines in docs:
        out.notes.extend(iac_formats.notes(path, tree, lines))
    return True


def _test_spec(tree: dict[str, Any]) -> bool:
    """A helm-unittest spec (`suite:` and `tests:`): test inputs, not values to deploy."""
    return "suite" in tree and isinstance(tree.get("tests"), list)


def _unreadable(path: str, text: str, out: TemplatePlan) -> None:
    """A YAML-named file that is not YAML (a template) and asks for accelerators: named."""
    line = evidence.first_line(text)
    if line is None or looks_like_kubernetes(text):  # manifests: the loader says it skipped
        return
    out.notes.append(evidence.EvidenceNote(
        os.path.basename(path), path, line,
        f"{text.splitlines()[line - 1].strip()[:80]}: accelerators in a template gpulint "
        "cannot read (not valid YAML until rendered); render it and scan the output"))


def _configured_values(files: tuple[str, ...], out: TemplatePlan) -> list[str]:
    """Values files named by the configuration, less those outside the scanned tree (the
    configuration is part of the repository, so it may not point a renderer elsewhere)."""
    kept = []
    for path in files:
        if containment.escapes(path) or not os.path.isfile(path):
            why = "outside the scanned tree" if os.path.exists(path) else "missing"
            out.diagnostics.append(Diagnostic(path, None, f"Helm values file from the "
                                              f"configuration is {why}, not read", "warning"))
            continue
        kept.append(path)
        out.skip.add(os.path.abspath(path))
    return kept


def _release_label(path: str) -> str:
    """values.yaml and values-prod.yaml are named by their directory, others by their stem."""
    stem = os.path.basename(path).rsplit(".", 1)[0]
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return parent if stem.startswith("values") and parent else stem


def render(found: Discovery, settings: ScanSettings, cache: ParseCache | None) -> TemplatePlan:
    """The rendering stage: every chart, helmfile and kustomization among the discovered files
    rendered (or its values read), with the scan's Helm settings."""
    def read(path: str) -> str | None:
        return read_text(path, settings.max_file_bytes)[0]

    return plan(found.files, list(settings.helm_values), read, cache, settings.strict,
                settings.helm_charts, settings.helmfile_environments)


def plan(files: list[SourceFile], helm_values: list[str],
         read: Callable[[str], str | None], cache: Any = None,
         strict: bool = False, chart_settings: tuple[Any, ...] = (),
         helmfile_environments: tuple[str, ...] | None = None) -> TemplatePlan:
    """Render every chart and kustomization among the discovered files; read the values of
    charts that cannot be rendered. `chart_settings` are the configuration's per-chart values
    files, release names and namespaces (config.settings.ChartSettings);
    `helmfile_environments` the helmfile environments to read (None: every one)."""
    out = TemplatePlan(unrendered="warning" if strict else "info")
    helm.start_budget()
    helm.use_cache(cache)
    paths = [f.path for f in files]
    texts: dict[str, str | None] = {}
    raw_read = read

    def read_once(path: str) -> str | None:  # each file read once: builds share their bases
        if path not in texts:
            texts[path] = raw_read(path)
        return texts[path]

    read = read_once

    charts = sorted({os.path.dirname(p) or "." for p in paths
                     if os.path.basename(p) == "Chart.yaml"})
    charts = [c for c in charts if not any(_under(c, o) and c != o for o in charts)]  # subcharts
    kusts = sorted({os.path.dirname(p) or "." for p in paths
                    if os.path.basename(p) in KUSTOMIZATION_FILES})
    used = _helmfiles(paths, charts, out, read, helmfile_environments)
    kust_files = [f for f in map(kustomize.find_file, kusts) if f is not None]
    used |= kustomize_charts.local_charts(kust_files, read)  # rendered with their entry's values
    given = [v for v in helm_values]
    out.skip.update(os.path.abspath(v) for v in given)
    configured = {c.directory: c for c in chart_settings}
    for root in charts:
        if os.path.abspath(root) in used:
            continue
        cfg = configured.get(os.path.abspath(root))
        values = given + (_configured_values(cfg.values, out) if cfg is not None else [])
        release = (cfg.release if cfg is not None else None) or \
            os.path.basename(os.path.abspath(root)) or "release"
        _chart(root, release, cfg.namespace if cfg is not None else None, values, [],
                          out, read)
        _skip_chart(root, paths, out.skip)
    kustomize_builds.build([r for r in kusts if not any(_under(r, c) for c in charts)], paths,
                           out, read, cache)
    kustomize_helm.unbuilt(kust_files, paths, out, read, _chart, _skip_chart)
    _standalone_values(paths, out.skip, out, read)
    out.skip.update(p for p in paths if os.path.abspath(p) in out.skip)
    helm.flush()
    return out
