"""Kustomize `helmCharts`: the charts a kustomization inflates, rendered offline by gpulint.

`kustomize build --enable-helm` would run `helm pull` for a chart that is not already under the
chart home and `helm template` for each entry; without the flag a kustomization with
`helmCharts` does not build at all. gpulint passes neither: it stages a copy of the build's
inputs in which every entry whose chart is vendored (kustomize_charts.py says where) is replaced
by a resource file holding that chart rendered by gpulint's own Helm renderer (render/helm.py)
with the entry's values, release name and namespace, so the build applies its namespace,
prefixes, labels and patches to the chart's objects as kustomize would. Entries whose chart is
not vendored are dropped from the copy and read by the values reader. Each rendered object is
reported at its template's `kind:` line. A kustomization that is not built has its vendored
charts rendered on their own, with the entry's values.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from gpulint.files import containment
from gpulint.model import CHART_RENDER, Diagnostic
from gpulint.render import helm, kustomize
from gpulint.render import values as values_reader
from gpulint.render.kustomize_charts import (
    Entry,
    Read,
    documents,
    entries,
    inputs,
    local_charts,
    values_of,
)

if TYPE_CHECKING:
    from gpulint.render.templates import TemplatePlan

HELM_KEYS = ("helmCharts", "helmGlobals", "helmChartInflationGenerator")
# templates.py's chart renderer and skipper, handed in (templates imports this module).
RenderChart = Callable[..., None]
SkipChart = Callable[[str, list[str], set[str]], None]


@dataclass
class Staged:
    """A copy of one build's inputs with local charts rendered in place of `helmCharts`."""

    tmp: str
    root: str  # the kustomization's copy: what the builder builds
    origin: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    rendered: dict[tuple[str, int], str] = field(default_factory=dict)  # "" or why not
    notes: list[Diagnostic] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # every file of the copy
    key: bytes = b""  # the build's cache key, when cached
    cache: Any = None
    out: str | None = None  # the build's output, from the cache

    def write(self, path: str, text: str) -> None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        self.texts[path] = text

    @property
    def job(self) -> tuple[str, list[str]]:
        """What the builder builds: the copy's root and files."""
        return self.root, sorted(self.texts)


def _render(e: Entry, read: Read, into: str, staged: Staged) -> str | None:
    """The entry's chart rendered to a file under `into` (its name), or None."""
    assert e.chart is not None
    diags: list[Diagnostic] = []
    _, over = values_of(e, read, diags)
    rendered = helm.render(e.chart, e.release, e.namespace, [], over.tree)
    if rendered is None or rendered.templates is None:
        staged.rendered[e.key] = rendered.reason() if rendered is not None else \
            "no Helm renderer: put helm on PATH or pip install 'gpulint[helm]'"
        return None
    chart_file = os.path.join(e.chart, "Chart.yaml")
    docs = []
    for template, text in sorted(rendered.templates.items()):
        source = helm.source_path(e.chart, template) or chart_file
        objects, _ = helm.parse(source, text)
        for obj in objects:
            doc = helm.in_namespace(obj.doc, e.namespace)
            docs.append(doc)
            line = helm.kind_line(source, str(doc["kind"]), read) \
                if source != chart_file else 1
            meta: dict[str, Any] = doc["metadata"] if isinstance(doc.get("metadata"),
                                                                 dict) else {}
            staged.origin.setdefault((str(doc["kind"]), str(meta.get("name"))), (source, line))
    name = f"gpulint-helm-{e.index}-{os.path.basename(e.chart)}.yaml"
    staged.write(os.path.join(into, name), yaml.safe_dump_all(docs, sort_keys=False))
    staged.rendered[e.key] = ""
    staged.notes.append(Diagnostic(chart_file, None, f"chart rendered with {rendered.renderer} "
                                   f"(release {e.release}, helmCharts of {e.file})", "info",
                                   CHART_RENDER))
    return name


def _rewrite(file: str, target: str, read: Read, staged: Staged) -> None:
    """The kustomization's copy without its Helm keys, its local charts as resources."""
    try:
        doc = yaml.safe_load(read(file) or "")
    except yaml.YAMLError:
        return
    if not isinstance(doc, dict):
        return
    generated = [n for n in (_render(e, read, os.path.dirname(target), staged)
                             for e in entries(file, read) if e.chart) if n]
    for key in HELM_KEYS:
        doc.pop(key, None)
    resources: list[Any] = doc["resources"] if isinstance(doc.get("resources"), list) else []
    doc["resources"] = [*resources, *generated]
    staged.write(target, yaml.safe_dump(doc, sort_keys=False))


def _copied(root: str, files: list[str], read: Read) -> list[str]:
    """Every file the staged copy holds (its charts aside): the build's inputs, and the files
    its kustomizations refer to that the scan does not read (a generator's files)."""
    kusts = [f for f in files if os.path.basename(f) in kustomize.KUSTOMIZATION_FILES]
    charts = local_charts(kusts, read)
    referenced = {os.path.abspath(r) for f in kusts
                  for r in kustomize.read_one(os.path.dirname(f), read).files}
    todo = sorted({os.path.abspath(f) for f in files} | referenced)
    return [f for f in todo if not any(f == c or f.startswith(c + os.sep) for c in charts)]


def stage(root: str, files: list[str], read: Read, cache: Any = None, ident: str = "",
          digest: Callable[[str], str] | None = None) -> Staged | None:
    """A copy of the build's inputs with its kustomizations' `helmCharts` rendered by gpulint
    (or its output, notes and object lines from the cache: the key covers every copied file,
    every file of the charts, the builder and the renderer), or None when no kustomization of
    the build inflates a chart."""
    kusts = [f for f in files if os.path.basename(f) in kustomize.KUSTOMIZATION_FILES]
    if not any(entries(f, read) for f in kusts):
        return None
    todo = _copied(root, files, read)
    key = b""
    if cache is not None and digest is not None:
        charts = sorted({os.path.abspath(p) for k in kusts for p in inputs(k, read)})
        # The cached lines name files as the scan does: relative to where it runs.
        key = kustomize.cache_key(root, todo + charts, f"{ident}\nhelmCharts {_renderer()}\n"
                                  f"{os.getcwd()}", digest)
        hit = _cached(cache, key, root)
        if hit is not None:
            return hit
    common = os.path.commonpath([os.path.abspath(root), *todo])
    tmp = tempfile.mkdtemp(prefix="gpulint-helmcharts-")
    staged = Staged(tmp, os.path.join(tmp, "tree", os.path.relpath(os.path.abspath(root),
                                                                   common)),
                    key=key, cache=cache if key else None)
    # Kustomization files as the scan names them: their charts' objects and notes are reported
    # at those names, never at the runner's absolute paths.
    kust_files = {os.path.abspath(k): k for k in kusts}
    for path in todo:
        target = os.path.join(tmp, "tree", os.path.relpath(path, common))
        if path in kust_files and entries(kust_files[path], read):
            _rewrite(kust_files[path], target, read, staged)
        elif not containment.escapes(path) and os.path.isfile(path):
            staged.write(target, kustomize.without_crds(read(path) or ""))
    return staged


def _renderer() -> str:
    """The Helm renderer's identity: the binary's path, size and date, or the SDK's version."""
    tool = shutil.which("helm")
    if tool:
        return helm.binary_identity(tool)
    return helm.available() or "none"


def _cached(cache: Any, key: bytes, root: str) -> Staged | None:
    out = kustomize.cached(cache, key)
    meta = cache.get(cache.key("kustomize-helm", key)) if out is not None else None
    try:
        data = json.loads(meta) if isinstance(meta, str) else None
        return Staged("", root, {(k, n): (p, ln) for k, n, p, ln in data["origin"]},
                      {(f, i): why for f, i, why in data["rendered"]},
                      [Diagnostic(*d) for d in data["notes"]], key=key, cache=cache, out=out) \
            if isinstance(data, dict) else None
    except (KeyError, TypeError, ValueError):
        return None


def _store(staged: Staged) -> None:
    if staged.cache is None or not staged.tmp:
        return
    data = {"origin": [[k, n, p, ln] for (k, n), (p, ln) in staged.origin.items()],
            "rendered": [[f, i, why] for (f, i), why in staged.rendered.items()],
            "notes": [[d.path, d.line, d.message, d.severity, d.origin] for d in staged.notes]}
    staged.cache.put(staged.cache.key("kustomize-helm", staged.key), json.dumps(data))


def reader(read: Read, stages: list[Staged | None]) -> Read:
    """`read` that also reads the staged copies (outside the scanned tree, written by us)."""
    texts = {p: t for s in stages if s is not None for p, t in s.texts.items()}
    return lambda path: texts[path] if path in texts else read(path)


def built(staged: Staged, plan: TemplatePlan) -> None:
    """A staged build succeeded: its charts count as rendered, with their notes."""
    _store(staged)
    plan.inflated.update(staged.rendered)
    plan.diagnostics.extend(n for n in staged.notes if n not in plan.diagnostics)  # once


def discard(staged: Staged | None) -> None:
    if staged is not None and staged.tmp:
        shutil.rmtree(staged.tmp, ignore_errors=True)


def _mentions_gpu(e: Entry, read: Read) -> bool:
    return bool(e.inline and kustomize.text_mentions_gpu(yaml.safe_dump(e.inline))) or any(
        kustomize.text_mentions_gpu(read(f) or "") for f in inputs(e.file, read)
        if f.endswith((".yaml", ".yml")))


def unbuilt(files: list[str], paths: list[str], plan: TemplatePlan, read: Read,
            render_chart: RenderChart, skip_chart: SkipChart) -> None:
    """Entries no build rendered: a local chart rendered on its own with the entry's values (its
    values read when it cannot be), a remote chart's values read."""
    for file in files:
        for e in entries(file, read):
            why = plan.inflated.get(e.key)
            if why == "":
                continue
            diags: list[Diagnostic] = []
            # Its values files are read with it, not again as values of their own.
            plan.skip.update(os.path.abspath(f) for f in [e.values_file or "", *e.additional]
                             if f)
            if e.missing:
                plan.diagnostics.append(Diagnostic(e.file, e.line, f"helmCharts {e.name}: values "
                                                   f"file {', '.join(e.missing)} is not in the "
                                                   "scanned tree, not read", "info"))
            if e.chart is None or why:
                full, _ = values_of(e, read, diags)
                objects = values_reader.read(full, e.release, e.namespace)
                what = f"chart not rendered ({why})" if why else \
                    f"chart not in {e.home}/ (a build would pull it" + \
                    (f" from {e.repo}" if e.repo else "") + "), not rendered"
                plan.objects.extend(objects)
                plan.diagnostics.extend(diags)
                plan.diagnostics.append(Diagnostic(e.file, e.line, f"helmCharts {e.name}: {what}"
                                                   f"; read {values_reader.describe(objects)} "
                                                   "from its values",
                                                   plan.unrendered if why else "info"))
            elif _mentions_gpu(e, read):
                render_chart(e.chart, e.release, e.namespace, [],
                                        documents(e, read, diags), plan, read)
                plan.diagnostics.extend(diags)
                skip_chart(e.chart, paths, plan.skip)
                continue
            if e.chart is not None:
                skip_chart(e.chart, paths, plan.skip)

