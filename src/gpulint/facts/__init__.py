"""Fact building: loaded inputs → GPU resources with provider-neutral facts.

`build_facts(loaded, settings)` is the stage's one entry point: plan changes, Kubernetes objects
and Terraform instances through their family's builders, then pod ↔ node-pool linking (which
needs every resource of the scan) and the configured `models:`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gpulint.fact_types import Resource
from gpulint.model import CHART_RENDER, VALUES_READ, Diagnostic

# Builders import the catalog and the Terraform evaluator: imported when facts are built, not
# whenever a module of this package is.
if TYPE_CHECKING:
    from gpulint.config.settings import Settings
    from gpulint.load import Loaded
    from gpulint.load.kubernetes import K8sObject
    from gpulint.suppressions import Span, Suppression


@dataclass
class Built:
    resources: list[Resource] = field(default_factory=list)
    # Lines a suppression comment covers, per (path, address).
    spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    # id(resource) → files of the module calls that made it (a call's file puts it in scope).
    called_from: dict[int, tuple[str, ...]] = field(default_factory=dict)
    suppressions: list[Suppression] = field(default_factory=list)  # from annotations
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[Any] = field(default_factory=list)  # module calls that could not be evaluated
    # id(object) → cloud → region of the Terraform provider of the code that applies it.
    provider_regions: dict[int, dict[str, str]] = field(default_factory=dict)
    # Real paths of the files evaluated Terraform read (file(), templatefile()), for the
    # evidence count (report/coverage.py).
    terraform_reads: frozenset[str] = frozenset()


def build_facts(loaded: Loaded, settings: Settings) -> Built:
    from gpulint.facts import configured
    from gpulint.facts.kubernetes.link import link

    out = Built(notes=list(loaded.notes))
    _plans(loaded, settings, out)
    _terraform_helm(loaded, out)
    modules = _terraform_modules(loaded)
    manifests = _terraform_manifests(loaded, modules, out)
    _kubernetes(loaded.kubernetes, out, loaded.profiles)
    _terraform(modules, manifests, loaded, out)
    out.diagnostics += link(out.resources, loaded.kubernetes, out.called_from, settings.clusters)
    configured.apply(out.resources, settings.models)
    return out


def _add(out: Built, res: Resource, end: int) -> None:
    from gpulint.suppressions import Span

    out.resources.append(res)
    out.spans[(res.path, res.address)] = Span(res.path, res.line, end)


def _plans(loaded: Loaded, settings: Settings, out: Built) -> None:
    from gpulint.facts.terraform import unknown_types
    from gpulint.facts.terraform.plan import build_change

    untyped: list[Resource] = []  # named once per cause, as for the code
    for inst in loaded.plans:
        for res in build_change(inst, settings.pricing, untyped):
            _add(out, res, res.line)
    out.notes += unknown_types.notes(untyped)


def _kubernetes(objects: list[K8sObject], out: Built,
                profiles: dict[str, Any] | None = None) -> None:
    from gpulint import suppressions
    from gpulint.facts.kubernetes import build_each

    ends = _document_ends(objects)
    accounted: list[Any] = []
    built_each = build_each(objects, accounted, profiles)
    out.notes += [note for _, _, note in accounted if note is not None]
    for obj, built in built_each:
        for res in built:
            _with_provider_regions(res, out.provider_regions.get(id(obj)))
            _add(out, res, ends[(obj.path, obj.line)])
        if built:
            out.suppressions += suppressions.from_annotations(obj.path, obj.line,
                                                              obj.doc.get("metadata"))


def _terraform_modules(loaded: Loaded) -> Any:
    from gpulint.facts.terraform.community import expand_calls

    return None if loaded.terraform is None else expand_calls(loaded.terraform)


def _terraform_manifests(loaded: Loaded, modules: Any, out: Built) -> list[K8sObject]:
    """The objects kubernetes_* and kubectl_manifest resources create. A manifest file of the
    tree that Terraform applies (`yaml_body = file(...)`) is not read a second time as YAML.
    A manifest that asks for accelerators and is no object is named (kubernetes_tf.unread)."""
    from gpulint.facts.terraform.kubernetes_tf import applied_files, to_object, unread

    if modules is None or loaded.terraform is None:
        return []
    objects = []
    for inst in modules.resources:
        obj = to_object(inst)
        note = unread(inst) if obj is None else None
        if obj is not None:
            objects.append(obj)
        elif note is not None:
            out.notes.append(note)
    applied = applied_files(objects, loaded.kubernetes, loaded.terraform.files)
    if applied:
        loaded.kubernetes[:] = [o for o in loaded.kubernetes if id(o) not in applied]
    return objects


def _terraform(modules: Any, manifests: list[K8sObject], loaded: Loaded, out: Built) -> None:
    from gpulint.facts.terraform import (
        build_all,
        switched_off,
        unknown_types,
        unread_templates,
        var_files,
    )

    if modules is None:
        return
    out.notes, out.diagnostics = [*modules.notes, *out.notes], [*out.diagnostics,
                                                                 *modules.diagnostics]
    _terraform_kubernetes(loaded, manifests, modules.resources, out)
    untyped: list[Resource] = []  # named once per cause, not listed as GPU resources
    for inst in modules.resources:
        try:
            built = build_all(inst, untyped)
        except RecursionError:
            out.diagnostics.append(Diagnostic(inst.path, inst.view.line, f"{inst.address} not "
                                              "evaluated: expressions nested too deeply"))
            continue
        for res in built:
            if inst.call_paths:
                out.called_from[id(res)] = inst.call_paths
            # Module-call node groups have no block of their own: their span is the call line.
            _add(out, res, getattr(inst.view.block, "end_line", None) or res.line)
    out.notes += unknown_types.notes(untyped)
    if loaded.terraform is not None:
        out.notes += var_files.notes(loaded.terraform.var_file_settings)
        out.notes += var_files.stray_notes(loaded.terraform.stray_var_files)
        if loaded.terraform.files is not None:  # before switched_off reads what is off
            out.terraform_reads = frozenset(loaded.terraform.files.read_paths())
        out.notes += switched_off.notes(loaded.terraform)
        out.notes += unread_templates.notes(loaded.terraform, out.notes)


def _terraform_helm(loaded: Loaded, out: Built) -> None:
    """Helm values written in Terraform become the objects the values reader finds in them;
    values files a release reads are not read again on their own."""
    import os

    from gpulint.facts.terraform import helm_local, helm_releases, helm_tf, provider_regions

    if loaded.terraform is None:
        return
    files = loaded.terraform.files

    def read(path: str) -> str | None:
        text = files.read(os.path.abspath(path)) if files is not None else None
        return text if isinstance(text, str) else None

    found = helm_releases.releases(loaded.terraform, read)
    regions = provider_regions.by_file(loaded.terraform)
    consumed = helm_releases.consumed_files(found)
    if consumed:
        loaded.kubernetes[:] = [o for o in loaded.kubernetes
                                if os.path.realpath(o.path) not in consumed]
        out.notes[:] = [n for n in out.notes if os.path.realpath(n.path) not in consumed]
        loaded.diagnostics[:] = [d for d in loaded.diagnostics
                                 if not (d.path and os.path.realpath(d.path) in consumed
                                         and d.origin == VALUES_READ)]
    charts = {r.chart_dir for r in found if r.chart_dir and r.unknown is None}
    if charts:  # rendered with their release's values below, not with their defaults
        loaded.kubernetes[:] = [o for o in loaded.kubernetes
                                if not any(helm_local.replaces(c, o.path) for c in charts)]
        loaded.diagnostics[:] = [d for d in loaded.diagnostics if not (
            any(helm_local.replaces(c, d.path) for c in charts) and d.origin == CHART_RENDER)]
    for release in found:
        where = regions.get(os.path.realpath(release.path))
        if release.chart_dir and release.unknown is None:
            objects, diags = helm_local.render(release, release.chart_dir, read)
        else:
            objects, diags, res, notes = helm_tf.read(release, read)
            out.notes += notes
            if res is not None:
                _with_provider_regions(res, where)
                _add(out, res, res.line)
        out.provider_regions.update({id(o): where for o in objects if where})
        loaded.kubernetes.extend(objects)
        out.diagnostics.extend(diags)


def _terraform_kubernetes(loaded: Loaded, objects: list[K8sObject], instances: list[Any],
                          out: Built) -> None:
    """kubernetes_* resources become the objects they create, built and linked as YAML is."""
    from gpulint.facts.kubernetes import build_each
    from gpulint.facts.terraform.provider_regions import regions

    loaded.kubernetes.extend(objects)
    ends = {(i.path, i.view.line): getattr(i.view.block, "end_line", None) or i.view.line
            for i in instances}
    where = {(i.path, i.view.line): regions(i.providers) for i in instances}
    accounted: list[Any] = []
    built_each = build_each(objects, accounted)
    out.notes += [note for _, _, note in accounted if note is not None]
    for obj, built in built_each:
        for res in built:
            _with_provider_regions(res, where.get((obj.path, obj.line)))
            _add(out, res, ends.get((obj.path, obj.line), obj.line))


def _with_provider_regions(res: Resource, regions: dict[str, str] | None) -> None:
    """The regions of the Terraform providers of the code that applies a Kubernetes object,
    used to price it where its own nodes name none (pricing/price.py)."""
    if regions:
        res.facts["terraform.provider_regions"] = dict(regions)


def _document_ends(objects: list[K8sObject]) -> dict[tuple[str, int], int]:
    """Last line of each object's document: the line before the next object in its file."""
    ends: dict[tuple[str, int], int] = {}
    by_path: dict[str, list[int]] = {}
    for obj in objects:
        by_path.setdefault(obj.path, []).append(obj.line)
    for path, lines in by_path.items():
        lines = sorted(set(lines))
        for here, nxt in zip(lines, [*lines[1:], 1 << 30], strict=True):
            ends[(path, here)] = nxt - 1 if nxt != 1 << 30 else nxt
    return ends
