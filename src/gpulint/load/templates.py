"""Helm charts and kustomizations: render them with the real tool when it is on PATH.

A directory with Chart.yaml is rendered with `helm template`, one with kustomization.yaml with
`kustomize build` (or `kubectl kustomize`). Rendered objects are reported at the file and line
they came from when that can be found (Helm's `# Source:` comment, or the kustomization's own
resource files), else at the chart/kustomization file. Without the tool a chart is skipped with a
warning; a kustomization's plain files are still scanned one by one, without its patches.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Callable

from gpulint.model import Diagnostic, SourceFile
from gpulint.load.kubernetes import K8sObject, load_documents

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
RENDER_TIMEOUT_S = 120
_SOURCE = re.compile(r"^# Source: (\S+)\s*$", re.MULTILINE)
_DOC_SPLIT = re.compile(r"^---[ \t]*$", re.MULTILINE)


@dataclass
class TemplatePlan:
    objects: list[K8sObject] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    skip: set[str] = field(default_factory=set)  # files not to parse one by one


def _under(path: str, root: str) -> bool:
    return os.path.commonpath([os.path.abspath(path), os.path.abspath(root)]) == os.path.abspath(root)


def _run(argv: list[str]) -> tuple[str | None, str]:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=RENDER_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return None, lines[-1] if lines else f"exit status {done.returncode}"
    return done.stdout, ""


def _kind_line(path: str, kind: str, read: Callable[[str], str | None]) -> int:
    """Line of the first `kind: <Kind>` in a template, so a finding points near its object."""
    text = read(path) or ""
    m = re.search(rf"^[ \t]*kind:[ \t]*[\"']?{re.escape(kind)}[\"']?[ \t]*$", text, re.MULTILINE)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def _helm(root: str, values: list[str], plan: TemplatePlan,
          read: Callable[[str], str | None]) -> bool:
    """True when rendered; False leaves the chart's plain files (outside templates/ and
    charts/) to be scanned one by one."""
    chart_file = os.path.join(root, "Chart.yaml")
    helm = shutil.which("helm")
    if helm is None:
        plan.diagnostics.append(Diagnostic(chart_file, None, "skipped a template: Helm chart not "
                                           "rendered because helm is not on PATH", "warning"))
        return False
    argv = [helm, "template", os.path.basename(os.path.abspath(root)) or "release", root]
    for v in values:
        argv += ["--values", v]
    out, err = _run(argv)
    if out is None:
        plan.diagnostics.append(Diagnostic(chart_file, None, f"skipped a template: helm template "
                                           f"failed: {err}", "warning"))
        return False
    for chunk in _DOC_SPLIT.split(out):
        m = _SOURCE.search(chunk)
        # "# Source: <chart>/templates/x.yaml": the part after the chart name is inside root.
        source = os.path.join(root, m.group(1).split("/", 1)[1]) \
            if m and "/" in m.group(1) else chart_file
        objects, diags = load_documents(source, chunk)
        plan.diagnostics.extend(Diagnostic(chart_file, None, f"rendered chart: {d.message}",
                                           d.severity) for d in diags)
        for obj in objects:
            line = _kind_line(source, str(obj.doc["kind"]), read) if source != chart_file else 1
            plan.objects.append(K8sObject(source, line, obj.doc))
    return True


def _kustomize(root: str, files: list[str], plan: TemplatePlan,
               read: Callable[[str], str | None]) -> bool:
    """True when rendered; False leaves the plain files to be scanned one by one."""
    name = next(os.path.join(root, n) for n in KUSTOMIZATION_FILES
                if os.path.exists(os.path.join(root, n)))
    tool = shutil.which("kustomize")
    kubectl = shutil.which("kubectl")
    if tool is None and kubectl is None:
        plan.diagnostics.append(Diagnostic(name, None, "skipped a template: kustomization not built "
                                           "because neither kustomize nor kubectl is on PATH; its "
                                           "files are scanned as they are, without patches",
                                           "warning"))
        return False
    out, err = _run([tool, "build", root] if tool else [str(kubectl), "kustomize", root])
    if out is None:
        plan.diagnostics.append(Diagnostic(name, None, f"skipped a template: kustomize build "
                                           f"failed: {err}; files scanned as they are", "warning"))
        return False
    # Point each rendered object at the file that declares it, when it is under the root.
    origin: dict[tuple[str, str], tuple[str, int]] = {}
    for path in files:
        text = read(path)
        for obj in load_documents(path, text)[0] if text else []:
            meta = obj.doc.get("metadata") if isinstance(obj.doc.get("metadata"), dict) else {}
            origin.setdefault((str(obj.doc["kind"]), str(meta.get("name"))), (path, obj.line))
    objects, diags = load_documents(name, out)
    plan.diagnostics.extend(Diagnostic(name, d.line, f"kustomize output: {d.message}", d.severity)
                            for d in diags)
    for obj in objects:
        meta = obj.doc.get("metadata") if isinstance(obj.doc.get("metadata"), dict) else {}
        path, line = origin.get((str(obj.doc["kind"]), str(meta.get("name"))), (name, 1))
        plan.objects.append(K8sObject(path, line, obj.doc))
    return True


def plan(files: list[SourceFile], helm_values: list[str],
         read: Callable[[str], str | None]) -> TemplatePlan:
    """Render every chart and kustomization among the discovered files."""
    out = TemplatePlan()
    paths = [f.path for f in files]
    charts = sorted({os.path.dirname(p) or "." for p in paths if os.path.basename(p) == "Chart.yaml"})
    kusts = sorted({os.path.dirname(p) or "." for p in paths
                    if os.path.basename(p) in KUSTOMIZATION_FILES})
    for root in charts:
        if any(_under(root, other) and root != other for other in charts):
            continue  # a subchart is rendered by its parent
        inside = [p for p in paths if _under(p, root)]
        if _helm(root, helm_values, out, read):
            out.skip.update(inside)
        else:
            # Unrendered: templates and subcharts are skipped; plain manifests elsewhere in the
            # chart (examples, CRDs, static files) are scanned as they are.
            hidden = [os.path.join(root, d) for d in ("templates", "charts")]
            out.skip.update(p for p in inside if any(_under(p, h) for h in hidden)
                            or os.path.basename(p).startswith("values"))
    for root in kusts:
        if any(_under(root, c) for c in charts):
            continue
        inside = [p for p in paths if _under(p, root) and p not in out.skip]
        if _kustomize(root, inside, out, read):
            out.skip.update(inside)
    return out
