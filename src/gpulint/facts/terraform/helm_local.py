"""A Terraform `helm_release` of a chart in the scanned tree, rendered as Terraform installs it.

The Helm provider installs a local chart when `chart` is a path (`./charts/inference`,
`"${path.module}/charts/vllm"`, relative to the directory Terraform runs in) and no
`repository` is set. Such a chart is rendered by gpulint's Helm renderer (render/helm.py) with the
release's values (`values`, then `set`, `set_list` and the readable `set_sensitive` entries),
`name` and `namespace`; each object is reported at its template's `kind:` line. When it cannot
be rendered (no renderer, a template error), the chart's values and the release's are read by
the values reader instead, and a note gives the reason. The chart's own render with default
values (templates.py renders every chart directory it finds) is replaced by this one.
"""

from __future__ import annotations

import os
from typing import Any

from gpulint.facts.terraform.helm_tf import ReadText, Release, to_values
from gpulint.load.kubernetes import K8sObject
from gpulint.model import CHART_RENDER, Diagnostic, Unknown
from gpulint.render import helm, values_tree
from gpulint.render import values as values_reader
from gpulint.render.values_tree import Values

_LOCAL = ("./", "../", "/")


def chart_dir(view: Any) -> str | None:
    """The directory of a release's local chart in the scanned tree (as the scan names its
    files, not resolved), else None."""
    chart, repo = view.get("chart"), view.get("repository")
    files = view.scope.file_access()
    if not isinstance(chart, str) or files is None or (isinstance(repo, str) and repo) \
            or "://" in chart:
        return None
    if not chart.startswith(_LOCAL) and "/" not in chart:
        return None  # `chart = "nginx"` names a chart of a repository
    found = files.exists(os.path.join(chart, "Chart.yaml"))
    if isinstance(found, Unknown) or not found:
        return None
    return os.path.normpath(os.path.join(files.cwd, chart))


def _objects(root: str, release: Release, templates: dict[str, str],
             read: ReadText) -> tuple[list[K8sObject], list[Diagnostic]]:
    chart_file = os.path.join(root, "Chart.yaml")
    out: list[K8sObject] = []
    diags: list[Diagnostic] = []
    for template, text in sorted(templates.items()):
        source = helm.source_path(root, template) or chart_file
        objects, problems = helm.parse(source, text)
        diags += [Diagnostic(chart_file, None, f"rendered chart: {d.message}", d.severity,
                             CHART_RENDER) for d in problems]
        for obj in objects:
            line = helm.kind_line(source, str(obj.doc["kind"]), read) \
                if source != chart_file else 1
            out.append(K8sObject(source, line, helm.in_namespace(obj.doc, release.namespace)))
    return out, diags


def _with_chart_values(root: str, values: Values, read: ReadText,
                       diags: list[Diagnostic]) -> Values:
    """The chart's values.yaml with the release's values over it, each path's line kept."""
    full = Values()
    path = os.path.join(root, "values.yaml")
    text = read(path) if os.path.isfile(path) else None
    docs, problems = values_tree.parse(path, text) if text else ([], [])
    diags += problems
    for tree, where in docs:
        values_tree.add(full, path, tree, where)
    full.tree = values_tree.merge_into(full.tree, values.tree)
    full.where.update(values.where)
    return full


def render(release: Release, root: str,
           read: ReadText) -> tuple[list[K8sObject], list[Diagnostic]]:
    """The release's objects from its chart rendered, else read from the values, with notes."""
    values, diags = to_values(release, read)
    rendered = helm.render(root, release.name, release.namespace, [], values.tree)
    chart = os.path.relpath(os.path.realpath(root),
                            os.path.dirname(os.path.realpath(release.path)))
    if rendered is not None and rendered.templates is not None:
        objects, problems = _objects(root, release, rendered.templates, read)
        helm.flush()
        note = f"chart {chart} rendered with {rendered.renderer} for {release.label} " \
            f"(release {release.name})"
        return objects, [*diags, *problems, Diagnostic(release.path, release.line, note, "info")]
    why = rendered.reason() if rendered is not None else \
        "no Helm renderer: put helm on PATH or pip install 'gpulint[helm]'"
    full = _with_chart_values(root, values, read, diags)
    objects = values_reader.read(full, release.name, release.namespace) if full.tree else []
    note = f"{release.label}: chart {chart} not rendered ({why}); read " \
        f"{values_reader.describe(objects)} from its values"
    severity = (rendered.severity if rendered is not None else None) or "info"
    return objects, [*diags, Diagnostic(release.path, release.line, note, severity)]


def replaces(root: str, path: str | None) -> bool:
    """Whether an object or note of the scan comes from the chart's own render (or values) at
    `root`, which the release's render replaces."""
    if not path:
        return False
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top + os.sep)
