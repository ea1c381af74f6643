"""Kustomize `helmCharts` entries as written: which chart (vendored under the chart home, or
not), which release, namespace and values, with the line of each.

Where kustomize looks (as its HelmChartInflationGenerator does): the chart home is
`helmGlobals.chartHome` (default `charts`) relative to the kustomization; an entry with both
`repo` and `version` is looked for at `<home>/<name>-<version>/<name>`, else at `<home>/<name>`.
Values, in kustomize's order: the chart's `values.yaml`, then `valuesFile` with `valuesInline`
merged over it (`valuesMerge: override`, the default; `merge` lets the file win; `replace`
drops the file), then `additionalValuesFiles`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpulint.files import containment
from gpulint.model import Diagnostic
from gpulint.render import values_tree
from gpulint.render.values_tree import Path, Values

Read = Callable[[str], "str | None"]
DEFAULT_HOME = "charts"
# Parsed kustomizations by path and text; which charts and values files exist is looked up on
# every call (a later scan in the same process may see a chart appear).
_parsed: dict[tuple[str, int], tuple[Any, dict[Path, int]]] = {}
_MAX_PARSED = 512


@dataclass
class Entry:
    file: str  # the kustomization file
    index: int
    line: int
    name: str
    release: str
    namespace: str | None
    repo: str
    home: str  # the chart home as written
    chart: str | None  # the local chart directory, else None
    values_file: str | None  # in the tree and present
    additional: list[str] = field(default_factory=list)
    inline: dict[str, Any] = field(default_factory=dict)
    inline_lines: dict[Path, int] = field(default_factory=dict)
    merge: str = "override"
    missing: list[str] = field(default_factory=list)  # values files not read, as written

    @property
    def key(self) -> tuple[str, int]:
        return os.path.abspath(self.file), self.index


def _chart_dir(root: str, home: str, name: str, version: str, repo: str) -> str | None:
    base = os.path.normpath(os.path.join(root, home))
    candidates = [os.path.join(base, f"{name}-{version}", name)] if version and repo else []
    for path in [*candidates, os.path.join(base, name)]:
        if os.path.isfile(os.path.join(path, "Chart.yaml")) and not containment.escapes(path):
            return path
    return None


def _local_file(root: str, ref: Any, missing: list[str]) -> str | None:
    if not isinstance(ref, str) or not ref:
        return None
    path = os.path.normpath(os.path.join(root, ref))
    if os.path.isabs(ref) or containment.escapes(path) or not os.path.isfile(path):
        missing.append(ref)
        return None
    return path


def _entry(file: str, i: int, item: dict[str, Any], home: str,
           lines: dict[Path, int]) -> Entry:
    root = os.path.dirname(file)
    name, version, repo = (str(item.get(k) or "") for k in ("name", "version", "repo"))
    prefix = ("helmCharts", i, "valuesInline")
    entry = Entry(file, i, lines.get(("helmCharts", i), 1), name,
                  str(item.get("releaseName") or name),
                  str(item["namespace"]) if item.get("namespace") else None, repo, home,
                  _chart_dir(root, home, name, version, repo), None,
                  merge=str(item.get("valuesMerge") or "override"))
    entry.values_file = _local_file(root, item.get("valuesFile"), entry.missing)
    extra = item.get("additionalValuesFiles")
    for ref in extra if isinstance(extra, list) else []:
        path = _local_file(root, ref, entry.missing)
        if path:
            entry.additional.append(path)
    if isinstance(item.get("valuesInline"), dict):
        entry.inline = item["valuesInline"]
        entry.inline_lines = {p[len(prefix):]: n for p, n in lines.items()
                              if p[:len(prefix)] == prefix}
    return entry


def entries(file: str, read: Read) -> list[Entry]:
    """The `helmCharts` entries of one kustomization file, with their lines."""
    text = read(file) or ""
    if "helmCharts" not in text:
        return []
    key = (os.path.abspath(file), hash(text))
    if key not in _parsed:
        if len(_parsed) >= _MAX_PARSED:
            _parsed.clear()
        docs, _ = values_tree.parse(file, text)
        _parsed[key] = docs[0] if docs and isinstance(docs[0][0], dict) else ({}, {})
    doc, lines = _parsed[key]
    glob = doc.get("helmGlobals")
    home = str(glob.get("chartHome") or DEFAULT_HOME) if isinstance(glob, dict) else DEFAULT_HOME
    items = doc.get("helmCharts")
    return [_entry(file, i, item, home, lines)
            for i, item in enumerate(items if isinstance(items, list) else [])
            if isinstance(item, dict) and item.get("name")]


def inputs(file: str, read: Read) -> list[str]:
    """Files the kustomization's charts read: every file of a local chart and the values files
    (a build is gated on them, and they are not scanned again after it)."""
    out: list[str] = []
    for e in entries(file, read):
        if e.chart is not None:
            for here, _, names in os.walk(e.chart):
                out += sorted(os.path.join(here, n) for n in names)
        out += ([e.values_file] if e.values_file else []) + e.additional
    return out


def local_charts(files: list[str], read: Read) -> set[str]:
    """Chart directories (absolute) that kustomizations inflate: rendered with their entry's
    values, not again on their own."""
    return {os.path.abspath(e.chart) for f in files for e in entries(f, read) if e.chart}


def documents(e: Entry, read: Read, diags: list[Diagnostic]) -> list[tuple[Any, Any, str]]:
    """The entry's own values documents (tree, lines, file) in kustomize's order: `valuesFile`
    and `valuesInline` as `valuesMerge` says, then `additionalValuesFiles`."""
    inline = [(e.file, e.inline, e.inline_lines)] if e.inline else []
    given = [(f, None, None) for f in ([e.values_file] if e.values_file else [])]
    layers: list[tuple[str, Any, Any]] = inline if e.merge == "replace" else \
        inline + given if e.merge == "merge" else given + inline
    out = []
    for path, tree, lines in layers + [(f, None, None) for f in e.additional]:
        if tree is not None:
            out.append((tree, lines, path))
            continue
        text = read(path) if os.path.isfile(path) else None
        docs, problems = values_tree.parse(path, text) if text else ([], [])
        diags.extend(problems)
        out += [(t, where, path) for t, where in docs if isinstance(t, dict)]
    return out


def values_of(e: Entry, read: Read, diags: list[Diagnostic]) -> tuple[Values, Values]:
    """(chart values + the entry's, the entry's alone), with the file and line of each path."""
    full, over = Values(), Values()
    if e.chart:
        chart = os.path.join(e.chart, "values.yaml")
        text = read(chart) if os.path.isfile(chart) else None
        docs, problems = values_tree.parse(chart, text) if text else ([], [])
        diags.extend(problems)
        for tree, where in docs:
            values_tree.add(full, chart, tree, where)
    for tree, where, path in documents(e, read, diags):
        values_tree.add(full, path, tree, where)
        values_tree.add(over, path, tree, where)
    return full, over
