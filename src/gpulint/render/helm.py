"""Render a local Helm chart with the real engine: the `helm` binary, else Helm's Go SDK.

The binary is used when it is on PATH (`helm template`). Without it, the optional Python package
`helm-python-sdk` (import `helm_python`, installed by `pip install 'gpulint[helm]'`) renders the
chart in-process through Helm's own Go SDK, offline: `lookup` returns nothing and no repository
is contacted. Either way the result is the manifest text of each template, keyed by its
`<chart>/templates/...` path, or the reason it could not be rendered.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RENDER_TIMEOUT_S = 60  # one chart render or kustomize build
RENDER_BUDGET_S = 180  # every render and build of one scan together
# A proxy on the loopback discard port: any connection a renderer tries is refused at once.
_NO_PROXY_HERE = "http://127.0.0.1:9"
_budget_end = 0.0


def took_longer(seconds: float, what: str = "stopped") -> str:
    return f"took longer than {seconds:.0f} s, {what}" if seconds >= 1 else \
        f"took longer than {seconds:.1f} s, {what}"
_SOURCE = re.compile(r"^# Source: (\S+)\s*$", re.MULTILINE)
_DOC_SPLIT = re.compile(r"^---[ \t]*$", re.MULTILINE)


@dataclass
class Rendered:
    renderer: str  # e.g. "helm v3.15.0" or "Helm SDK v4.2.3 (helm-python-sdk 0.2.2)"
    templates: dict[str, str] | None  # template path → manifests; None when rendering failed
    error: str = ""


def start_budget() -> None:
    """Start the scan's render budget: renders and builds after it is spent do not run."""
    global _budget_end
    _budget_end = time.monotonic() + RENDER_BUDGET_S


def time_left(limit: float | None = None) -> float:
    """Seconds the next render may take: its own limit, within what is left of the budget."""
    limit = RENDER_TIMEOUT_S if limit is None else limit
    return min(limit, _budget_end - time.monotonic()) if _budget_end else limit


def spent() -> str:
    return (f"the scan's render budget ({RENDER_BUDGET_S} s for all charts and kustomizations) "
            "is spent")


def offline_env() -> dict[str, str]:
    """The renderer's environment without the network: proxies point at a refused loopback
    port, git may only read local repositories, and no cluster configuration is read."""
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and not k.startswith("GIT_")}
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        env[name] = env[name.upper()] = _NO_PROXY_HERE
    env.update(no_proxy="", NO_PROXY="", GIT_ALLOW_PROTOCOL="file", GIT_TERMINAL_PROMPT="0",
               GIT_SSH_COMMAND="false", GIT_CONFIG_NOSYSTEM="1", KUBECONFIG=os.devnull,
               HELM_REPOSITORY_CONFIG=os.devnull)
    return env


def run(argv: list[str], timeout: float | None = None) -> tuple[str | None, str]:
    """Standard output, or None and the last line of the error; offline, within the budget."""
    timeout = time_left(timeout)
    if timeout <= 0:
        return None, spent()
    try:  # a session of its own: on time-out its whole process group is killed
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=offline_env(), stdin=subprocess.DEVNULL,
                                start_new_session=True)
    except OSError as e:
        return None, str(e)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, took_longer(timeout)
    if proc.returncode != 0:
        # kubectl wraps its error in `err=<` … ` >` lines: the last line that says something
        lines = [ln.strip() for ln in (err or out).splitlines() if ln.strip(" \t<>`")]
        return None, lines[-1] if lines else f"exit status {proc.returncode}"
    return out, ""


def _sdk() -> Any:
    try:
        import helm_python  # type: ignore[import-not-found, unused-ignore]
    except (ImportError, OSError):  # not installed, or no native library for this platform
        return None
    return helm_python


def available() -> str | None:
    """The renderer that would run, or None when there is none."""
    if shutil.which("helm"):
        return "helm"
    sdk = _sdk()
    return f"Helm SDK {sdk.helm_sdk_version()}" if sdk is not None else None


def _split(out: str) -> dict[str, str]:
    """`helm template` output → template path → its documents (by the `# Source:` comments)."""
    by_source: dict[str, str] = {}
    for chunk in _DOC_SPLIT.split(out):
        m = _SOURCE.search(chunk)
        key = m.group(1) if m else ""
        by_source[key] = by_source.get(key, "") + "\n---\n" + chunk
    return by_source


def _with_binary(helm: str, root: str, release: str, namespace: str | None,
                 values_files: list[str]) -> Rendered:
    argv = [helm, "template", release, root]
    if namespace:
        argv += ["--namespace", namespace]
    for v in values_files:
        argv += ["--values", v]
    out, err = run(argv)
    return Rendered("helm", _split(out) if out is not None else None, err)


def _with_sdk(sdk: Any, root: str, release: str, namespace: str | None,
              values: dict[str, Any]) -> Rendered:
    """Render in a daemon thread bounded like a binary's run: a template that loops is left
    behind (the SDK cannot be interrupted) and the scan goes on."""
    name = f"Helm SDK {sdk.helm_sdk_version()}"
    timeout = time_left()
    if timeout <= 0:
        return Rendered(name, None, spent())
    box: dict[str, Any] = {}

    def render() -> None:
        try:
            with sdk.Chart.load(root) as chart:
                box["out"] = chart.render(values, name=release, namespace=namespace or "default")
        except Exception as e:
            detail = str(getattr(e, "detail", "") or e).strip().splitlines()
            box["error"] = detail[-1] if detail else type(e).__name__

    worker = threading.Thread(target=render, name="gpulint-helm-render", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return Rendered(name, None, took_longer(timeout, "abandoned"))
    if "error" in box or not isinstance(box.get("out"), dict):
        return Rendered(name, None, str(box.get("error", "no output")))
    return Rendered(name, {k: v for k, v in box["out"].items()
                           if not k.endswith("NOTES.txt") and v.strip()})


def render(root: str, release: str, namespace: str | None, values_files: list[str],
           values: dict[str, Any]) -> Rendered | None:
    """Render with the binary (given the values files) or the SDK (given the merged values);
    None when neither is available."""
    helm = shutil.which("helm")
    if helm:
        return _with_binary(helm, root, release, namespace, values_files)
    sdk = _sdk()
    return _with_sdk(sdk, root, release, namespace, values) if sdk is not None else None


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
