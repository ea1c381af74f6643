"""Render a local Helm chart with the real engine: the `helm` binary, else Helm's Go SDK.

The binary is used when it is on PATH (`helm template`). Without it, the optional Python package
`helm-python-sdk` (import `helm_python`, installed by `pip install 'gpulint[helm]'`) renders the
chart through Helm's own Go SDK, offline: `lookup` returns nothing and no repository is
contacted. Either renderer runs in a confined child process (confine.py; the SDK in
helm_child.py) over a staged copy of the chart made of files gpulint read itself
(chart_stage.py), and is given the merged values as one file. The result is the manifest text of
each template, keyed by its `<chart>/templates/...` path, or the reason it could not be rendered.

A render's answer (its templates, or the template error it stopped at) is cached by the content
of every input: the chart's files, the values, release, namespace and the renderer's identity,
so a warm re-run starts no renderer. An answer cut short by a limit is never cached.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from importlib.util import find_spec
from typing import Any

from gpulint.load.kubernetes import K8sObject, load_documents
from gpulint.load.source import Parsed
from gpulint.model import Diagnostic
from gpulint.render import chart_stage, confine

RENDER_TIMEOUT_S = 60  # one chart render or kustomize build
RENDER_BUDGET_S = 180  # every render and build of one scan together
_FORMAT = "helm-render-2"  # the cached answer's shape and the staging rules
_budget_end = 0.0
_cache: Any = None


def took_longer(seconds: float, what: str = "stopped") -> str:
    return f"took longer than {seconds:.0f} s, {what}" if seconds >= 1 else \
        f"took longer than {seconds:.1f} s, {what}"
_SOURCE = re.compile(r"^# Source: (\S+)\s*$", re.MULTILINE)
_DOC_SPLIT = re.compile(r"^---[ \t]*$", re.MULTILINE)


@dataclass
class Rendered:
    renderer: str  # e.g. "helm" or "Helm SDK v4.2.3"
    templates: dict[str, str] | None  # template path → manifests; None when rendering failed
    error: str = ""
    refused: bool = False  # the chart was not handed to the renderer (chart_stage.py)
    stopped: bool = False  # the render broke a limit (time, memory, output) and was stopped

    @property
    def severity(self) -> str | None:
        """A hostile chart's note is a warning; None: the caller's usual severity."""
        return "warning" if self.refused or self.stopped else None

    def reason(self) -> str:
        return self.error if self.refused else f"{self.renderer} failed: {self.error}"


def start_budget() -> None:
    """Start the scan's render budget: renders and builds after it is spent do not run."""
    global _budget_end
    _budget_end = time.monotonic() + RENDER_BUDGET_S


def use_cache(cache: Any) -> None:
    """The scan's parse cache (load/cache.py), or None: where renders are kept."""
    global _cache
    _cache = cache


def time_left(limit: float | None = None) -> float:
    """Seconds the next render may take: its own limit, within what is left of the budget."""
    limit = RENDER_TIMEOUT_S if limit is None else limit
    return min(limit, _budget_end - time.monotonic()) if _budget_end else limit


def spent() -> str:
    return (f"the scan's render budget ({RENDER_BUDGET_S} s for all charts and kustomizations) "
            "is spent")


def run(argv: list[str], timeout: float | None = None) -> tuple[str | None, str]:
    """Standard output, or None and the last line of the error; confined, within the budget."""
    timeout = time_left(timeout)
    if timeout <= 0:
        return None, spent()
    out, err, _ = confine.run(argv, timeout, took_longer=took_longer)
    return out, err


def _sdk_dirs() -> list[str] | None:
    """Where the SDK child imports gpulint and helm_python from (without importing the SDK
    here: loading Helm's Go library is the child's business), or None when it is absent."""
    try:
        spec = find_spec("helm_python")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    ours = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    theirs = os.path.dirname(os.path.dirname(spec.origin))
    return list(dict.fromkeys([ours, theirs]))


def _sdk_identity() -> str:
    try:
        version = metadata.version("helm-python-sdk")
    except metadata.PackageNotFoundError:
        version = "unknown"
    dirs = _sdk_dirs() or []
    lib = os.path.join(dirs[-1], "helm_python", "lib") if dirs else ""
    stamp = [f"{n} {os.stat(os.path.join(lib, n)).st_size}" for n in sorted(os.listdir(lib))] \
        if os.path.isdir(lib) else []
    return f"helm-python-sdk {version} {' '.join(stamp)}"


def binary_identity(tool: str) -> str:
    """A binary's identity for cache keys: its real path, size and modification time."""
    real = os.path.realpath(tool)
    try:
        st = os.stat(real)
    except OSError:
        return real
    return f"{real} {st.st_size} {st.st_mtime_ns}"


def available() -> str | None:
    """The renderer that would run (its identity), or None when there is none."""
    tool = shutil.which("helm")
    if tool:
        return f"helm {binary_identity(tool)}"
    return f"Helm SDK ({_sdk_identity()})" if _sdk_dirs() is not None else None


def _split(out: str) -> dict[str, str]:
    """`helm template` output → template path → its documents (by the `# Source:` comments)."""
    by_source: dict[str, str] = {}
    for chunk in _DOC_SPLIT.split(out):
        m = _SOURCE.search(chunk)
        key = m.group(1) if m else ""
        by_source[key] = by_source.get(key, "") + "\n---\n" + chunk
    return by_source


def _with_binary(helm: str, copy: str, release: str, namespace: str | None, values: str,
                 timeout: float) -> tuple[Rendered, bool]:
    values_file = os.path.join(os.path.dirname(copy), "gpulint-values.json")
    with open(values_file, "w", encoding="utf-8") as fh:
        fh.write(values)
    argv = [helm, "template", release, copy, "--values", values_file]
    if namespace:
        argv += ["--namespace", namespace]
    out, err, stable = confine.run(argv, timeout, took_longer=took_longer)
    return Rendered("helm", _split(out) if out is not None else None, err,
                    stopped=out is None and not stable), stable


def _with_sdk(dirs: list[str], copy: str, release: str, namespace: str | None, values: str,
              timeout: float) -> tuple[Rendered, bool]:
    request = f'{{"chart": {json.dumps(copy)}, "release": {json.dumps(release)}, ' \
        f'"namespace": {json.dumps(namespace)}, "timeout": {timeout}, "values": {values}}}'
    out, err, _ = confine.run([sys.executable, "-s", "-m", "gpulint.render.helm_child"],
                              timeout, request.encode(), {"PYTHONPATH": os.pathsep.join(dirs),
                                                          "PYTHONDONTWRITEBYTECODE": "1"},
                              took_longer=took_longer)
    try:
        answer = json.loads(out) if out is not None else None
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        return Rendered("Helm SDK", None, err or "no answer from the renderer",
                        stopped=True), False
    name = str(answer.get("renderer") or "Helm SDK")
    templates = answer.get("templates")
    if not isinstance(templates, dict):
        return Rendered(name, None, str(answer.get("error") or "no output")), True
    return Rendered(name, {str(k): str(v) for k, v in templates.items()
                           if not str(k).endswith("NOTES.txt") and str(v).strip()}), True


def render(root: str, release: str, namespace: str | None, values_files: list[str],
           values: dict[str, Any]) -> Rendered | None:
    """Render the chart at `root` with the merged `values` (`values_files` are their sources,
    already in `values`); None when no renderer is available."""
    del values_files  # read into `values` by the caller, through the confined reader
    helm = shutil.which("helm")
    dirs = None if helm else _sdk_dirs()
    if helm is None and dirs is None:
        return None
    name = "helm" if helm else "Helm SDK"
    try:
        chart = chart_stage.stage(root)
    except chart_stage.Refused as e:
        return Rendered(name, None, f"not handed to {name}: {e}", refused=True)
    payload = json.dumps(values, sort_keys=True, default=str)
    ident = f"{_FORMAT}\n{available()}\n{chart.digest()}\n{release}\n{namespace}\n"
    key = _cache.key("helm-render", (ident + payload).encode()) if _cache is not None else ""
    hit = _cached(key)
    if hit is not None:
        return hit
    timeout = time_left()
    if timeout <= 0:
        return Rendered(name, None, spent(), stopped=True)
    with tempfile.TemporaryDirectory(prefix="gpulint-chart-") as tmp:
        copy = chart.write(os.path.join(tmp, "chart"))
        rendered, stable = _with_binary(helm, copy, release, namespace, payload, timeout) \
            if helm else _with_sdk(dirs or [], copy, release, namespace, payload, timeout)
    if stable and key:
        _store(key, rendered)
    return rendered


def parse(source: str, text: str) -> tuple[list[K8sObject], list[Diagnostic]]:
    """A template's rendered text as objects (load_documents), cached by its text: on a warm
    re-run of charts with large CRDs this parse is most of the time."""
    key = _cache.key("helm-rendered-yaml", f"{source}\0{text}".encode()) \
        if _cache is not None else ""
    entry = _cache.get(key) if key else None
    if isinstance(entry, Parsed) and entry.kind == "kubernetes":
        return ([K8sObject(source, line, doc) for line, doc in entry.docs],
                [Diagnostic(source, line, msg, sev) for line, msg, sev in entry.diags])
    objects, diags = load_documents(source, text)
    if key:
        _cache.put(key, Parsed("kubernetes", docs=[(o.line, o.doc) for o in objects],
                               diags=[(d.line, d.message, d.severity) for d in diags]))
    return objects, diags


def flush() -> None:
    """Write the queued cache entries (one transaction)."""
    if _cache is not None:
        _cache.flush()


def _cached(key: str) -> Rendered | None:
    if not key:
        return None
    entry = _cache.get(key)
    try:
        data = json.loads(entry) if isinstance(entry, str) else None
        if not isinstance(data, dict):
            return None
        templates = data["templates"]
        return Rendered(str(data["renderer"]), None if templates is None else
                        {str(k): str(v) for k, v in templates.items()}, str(data["error"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _store(key: str, rendered: Rendered) -> None:
    _cache.put(key, json.dumps({"renderer": rendered.renderer, "templates": rendered.templates,
                                "error": rendered.error}))
    _cache.flush()


def source_path(root: str, template: str) -> str | None:
    """`<chart>/templates/x.yaml` → the file under the chart root (subcharts included)."""
    if "/" not in template:
        return None
    path = os.path.join(root, *template.split("/")[1:])
    return path if os.path.isfile(path) else None


def kind_line(path: str, kind: str, read: Callable[[str], str | None]) -> int:
    """Line of the first `kind: <Kind>` in a template, so a finding points near its object."""
    text = read(path) or ""
    m = re.search(rf"^[ \t]*kind:[ \t]*[\"']?{re.escape(kind)}[\"']?[ \t]*$", text, re.MULTILINE)
    return text.count("\n", 0, m.start()) + 1 if m else 1


_CLUSTER_KINDS = frozenset({"Namespace", "NodePool", "EC2NodeClass", "AKSNodeClass", "NodeClass",
                            "CustomResourceDefinition", "PriorityClass", "StorageClass",
                            "PersistentVolume", "RuntimeClass"})


def in_namespace(doc: dict[str, Any], namespace: str | None) -> dict[str, Any]:
    """A rendered namespaced object without a namespace is installed in the release's."""
    meta = doc.get("metadata")
    kind = str(doc.get("kind"))
    if not namespace or not isinstance(meta, dict) or meta.get("namespace") \
            or kind in _CLUSTER_KINDS or kind.startswith("Cluster"):
        return doc
    return {**doc, "metadata": {**meta, "namespace": namespace}}
