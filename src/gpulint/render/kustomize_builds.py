"""Kustomizations of a scan built and their objects located: which to build (kustomize.py
decides), from the cache or the builder, and where each built object was declared.

Overlays' objects are addressed `…@<overlay>`; a built object is reported at the input file that
declares the same kind and name (or a name the built one contains, after namePrefix/nameSuffix).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gpulint.load.kubernetes import K8sObject, separators
from gpulint.model import Diagnostic
from gpulint.render import helm, kustomize, kustomize_batch, kustomize_helm

if TYPE_CHECKING:
    from gpulint.render.templates import TemplatePlan


def _under_any(path: str, roots: set[str]) -> bool:
    """Whether the path is one of the roots or inside one (roots absolute)."""
    here = os.path.abspath(path)
    while True:
        if here in roots:
            return True
        parent = os.path.dirname(here)
        if parent == here:
            return False
        here = parent


_KIND = re.compile(r"^kind:[ \t]*[\"']?([\w.-]+)", re.MULTILINE)
_NAME = re.compile(r"^metadata:[ \t]*\n(?:[ \t]*(?:#.*)?\n|[ \t]+.*\n)*?[ \t]{1,8}name:[ \t]*"
                   r"[\"']?([^\"'\s#]+)", re.MULTILINE)


def _declared(path: str, text: str) -> list[tuple[str, str, int]]:
    """(kind, name, line) of each top-level manifest in a file, read from its text: a build's
    inputs include megabytes of CRDs that a YAML parse per overlay would spend seconds on."""
    out = []
    seps = separators(text)
    line, counted = 1, 0
    for start, end in zip([0, *(e + 1 for _, e in seps)], [*(a for a, _ in seps), len(text)],
                          strict=True):
        line += text.count("\n", counted, start)
        counted = start
        doc = text[start:end]
        kind, name = _KIND.search(doc), _NAME.search(doc)
        if kind and name and kind.group(1) != "CustomResourceDefinition":
            first = next((i for i, ln in enumerate(doc.split("\n"))
                          if ln.strip() and not ln.lstrip().startswith("#")), 0)
            out.append((kind.group(1), name.group(1), line + first))
    return out


def _origin_of(origin: dict[tuple[str, str], tuple[str, int]], kind: str, name: str,
               fallback: tuple[str, int]) -> tuple[str, int]:
    """Exact kind and name, else the longest declared name that the built one contains
    (namePrefix, nameSuffix)."""
    if (kind, name) in origin:
        return origin[(kind, name)]
    near = [(len(n), where) for (k, n), where in origin.items() if k == kind and n and n in name]
    return max(near)[1] if near else fallback


@dataclass
class _Build:
    root: str
    variant: str | None
    name: str  # the kustomization file
    files: list[str]
    key: bytes
    cache: Any
    out: str | None = None
    stage: kustomize_helm.Staged | None = None  # a copy with its helmCharts rendered


class _Inputs:
    """The scan's files as builds see them, each read, GPU-checked and hashed once: a base is an
    input of every overlay."""

    def __init__(self, read: Callable[[str], str | None]) -> None:
        self.read = read
        self._gpu: dict[str, bool] = {}
        self._digest: dict[str, str] = {}

    def mentions_gpu(self, path: str) -> bool:
        if path not in self._gpu:
            self._gpu[path] = kustomize.text_mentions_gpu(self.read(path) or "")
        return self._gpu[path]

    def digest(self, path: str) -> str:
        if path not in self._digest:
            self._digest[path] = kustomize.content_digest(self.read(path))
        return self._digest[path]


def _prepare(root: str, variant: str | None, graph: kustomize.Graph, plan: TemplatePlan,
             inputs: _Inputs, cache: Any, tool: tuple[list[str], str] | None) -> _Build | None:
    """What to build for one kustomization, or None (a note says why, or nothing asks for a
    GPU) to scan its plain files one by one."""
    node = graph.nodes[os.path.abspath(root)]
    files, remote, outside = graph.closure(root, inputs.read)
    why = node.error or remote
    if why is None and not any(inputs.mentions_gpu(f) for f in files):
        return None  # nothing in it asks for a GPU: its plain files are scanned, without a build
    if why is None and tool is None:
        why = "neither kustomize nor kubectl is on PATH"
    if why is not None or tool is None:
        plan.diagnostics.append(Diagnostic(node.file, None, f"kustomization not built: {why}; "
                                           "its files are scanned as they are, without patches",
                                           plan.unrendered))
        return None
    staged = kustomize_helm.stage(root, files, inputs.read, cache, tool[1], inputs.digest)
    if staged is not None:  # its charts rendered by gpulint into a copy, or from the cache
        return _Build(root, variant, node.file, files, staged.key, staged.cache, staged.out,
                      stage=staged)
    key = kustomize.cache_key(root, files, tool[1], inputs.digest)
    cache = None if outside else cache  # inputs outside the scan: their content is not known
    return _Build(root, variant, node.file, files, key, cache, kustomize.cached(cache, key))


def _emit(build: _Build, plan: TemplatePlan, read: Callable[[str], str | None],
          declared: dict[str, list[tuple[str, str, int]]]) -> None:
    origin: dict[tuple[str, str], tuple[str, int]] = {}
    if build.stage is not None:
        origin.update(build.stage.origin)  # rendered charts' objects at their templates
        kustomize_helm.built(build.stage, plan)
    for path in build.files:
        text = read(path)
        if path not in declared:  # a base is an input of every overlay: read it once
            declared[path] = _declared(path, text) if text else []
        for kind, name, line in declared[path]:
            origin.setdefault((kind, name), (path, line))
    objects, diags = helm.parse(build.name, build.out or "")  # cached by the output's text
    plan.diagnostics.extend(Diagnostic(build.name, d.line, f"kustomize output: {d.message}",
                                       d.severity) for d in diags)
    for obj in objects:
        meta: dict[str, Any] = obj.doc["metadata"] if isinstance(obj.doc.get("metadata"),
                                                                 dict) else {}
        path, line = _origin_of(origin, str(obj.doc["kind"]), str(meta.get("name")),
                                (build.name, 1))
        plan.objects.append(K8sObject(path, line, obj.doc, variant=build.variant))


def _standalone(path: str, read: Callable[[str], str | None]) -> bool:
    """A manifest file that asks for accelerators: scanned on its own when no build read it."""
    from gpulint.load.evidence import first_line
    from gpulint.load.kubernetes import looks_like_kubernetes

    if not path.endswith((".yaml", ".yml", ".json")) or os.path.basename(path) in \
            kustomize.KUSTOMIZATION_FILES:
        return False
    text = read(path) or ""
    return looks_like_kubernetes(text) and first_line(text) is not None


def build(roots: list[str], paths: list[str], out: TemplatePlan,
                    read: Callable[[str], str | None], cache: Any) -> None:
    """Build each overlay, and each base that no overlay in the scan includes (in parallel,
    cached); an overlay's objects are addressed `…@<overlay>`."""
    graph = kustomize.Graph({os.path.abspath(p) for p in paths})
    tops = kustomize.top_level(roots, graph, read)
    overlays = [t for t in tops if graph.nodes[os.path.abspath(t)].includes]
    common = os.path.commonpath([os.path.abspath(t) for t in overlays]) if len(overlays) > 1 \
        else None
    inputs = _Inputs(read)
    tool = kustomize.builder() if tops else None
    builds = []
    for root in tops:
        variant = None
        if root in overlays:
            variant = os.path.relpath(os.path.abspath(root), common) if common else \
                os.path.basename(os.path.abspath(root))
        build = _prepare(root, variant, graph, out, inputs, cache, tool)
        if build is not None:
            builds.append(build)
    todo = [b for b in builds if b.out is None]
    if todo and tool is not None:
        for build, (built, err) in zip(todo, kustomize_batch.build_all(
                [b.stage.job if b.stage else (b.root, b.files) for b in todo], tool[0],
                kustomize_helm.reader(read, [b.stage for b in todo])), strict=True):
            if built is None:
                out.diagnostics.append(Diagnostic(build.name, None, f"kustomization not built: "
                                                  f"{err}; files scanned as they are",
                                                  out.unrendered))
                continue
            build.out = kustomize.without_crds(built)
            kustomize.store(build.cache, build.key, build.out)
    declared: dict[str, list[tuple[str, str, int]]] = {}
    built_roots = set()
    for build in builds:
        if build.out is None:
            continue
        _emit(build, out, read, declared)
        built_roots.add(os.path.abspath(build.root))
        out.skip.update(os.path.abspath(f) for f in build.files)
    # Other YAML under a built kustomization (samples the build does not list, applied with
    # kubectl on their own) is scanned as it is, like the plain manifests beside a chart.
    out.skip.update(p for p in paths if _under_any(p, built_roots) and not _standalone(p, read))
    for build in builds:
        kustomize_helm.discard(build.stage)
    if cache is not None:
        cache.flush()
