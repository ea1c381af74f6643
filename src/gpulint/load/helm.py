"""Render a local Helm chart with the real engine: the `helm` binary, else Helm's Go SDK.

The binary is used when it is on PATH (`helm template`). Without it, the optional Python package
`helm-python-sdk` (import `helm_python`, installed by `pip install 'gpulint[helm]'`) renders the
chart in-process through Helm's own Go SDK, offline: `lookup` returns nothing and no repository
is contacted. Either way the result is the manifest text of each template, keyed by its
`<chart>/templates/...` path, or the reason it could not be rendered.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

RENDER_TIMEOUT_S = 120
_SOURCE = re.compile(r"^# Source: (\S+)\s*$", re.MULTILINE)
_DOC_SPLIT = re.compile(r"^---[ \t]*$", re.MULTILINE)


@dataclass
class Rendered:
    renderer: str  # e.g. "helm v3.15.0" or "Helm SDK v4.2.3 (helm-python-sdk 0.2.2)"
    templates: dict[str, str] | None  # template path → manifests; None when rendering failed
    error: str = ""


def run(argv: list[str], timeout: float = RENDER_TIMEOUT_S) -> tuple[str | None, str]:
    """Standard output, or None and the last line of the error."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return None, lines[-1] if lines else f"exit status {done.returncode}"
    return done.stdout, ""


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
    name = f"Helm SDK {sdk.helm_sdk_version()}"
    try:
        with sdk.Chart.load(root) as chart:
            out = chart.render(values, name=release, namespace=namespace or "default")
    except Exception as e:
        detail = str(getattr(e, "detail", "") or e).strip().splitlines()
        return Rendered(name, None, detail[-1] if detail else type(e).__name__)
    return Rendered(name, {k: v for k, v in out.items()
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
