"""helmfile.yaml releases: which chart, which values, which release name and namespace.

Helmfile files are Go templates themselves; lines that are only a template action
(`{{ if … }}`, `{{ end }}`) are dropped and inline actions blanked before reading, so the static
part of a release (name, chart, values files, inline values) is read as written.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from gpulint.load import values_tree
from gpulint.load.values_tree import Path
from gpulint.model import Diagnostic

HELMFILE_NAMES = ("helmfile.yaml", "helmfile.yml", "helmfile.yaml.gotmpl")
_ACTION_LINE = re.compile(r"^[ \t]*\{\{.*\}\}[ \t]*$", re.MULTILINE)
_ACTION = re.compile(r"\{\{.*?\}\}")


@dataclass
class Release:
    name: str
    namespace: str | None
    chart: str  # as written
    local_chart: str | None  # directory of a local chart in the scan, else None
    values_files: list[str] = field(default_factory=list)  # files in the scan, in order
    inline: list[tuple[dict[str, Any], dict[Path, int]]] = field(default_factory=list)
    path: str = ""  # the helmfile
    line: int = 1


def _untemplated(text: str) -> str:
    # Keep the line count: findings point at the helmfile's own lines.
    text = _ACTION_LINE.sub("", text)
    return _ACTION.sub("", text)


def read(path: str, text: str, files: set[str],
         charts: set[str]) -> tuple[list[Release], list[Diagnostic]]:
    """Releases of one helmfile. `files` and `charts` are the scan's files and chart directories
    (absolute): values files and charts outside the scan are not read."""
    docs, diags = values_tree.parse(path, _untemplated(text))
    base = os.path.dirname(path)
    out: list[Release] = []
    for doc, lines in docs:
        releases = doc.get("releases") if isinstance(doc, dict) else None
        for i, rel in enumerate(releases if isinstance(releases, list) else []):
            if not isinstance(rel, dict) or not rel.get("chart"):
                continue
            chart = str(rel["chart"])
            local = os.path.normpath(os.path.join(base, chart))
            release = Release(str(rel.get("name") or os.path.basename(chart)),
                              str(rel["namespace"]) if rel.get("namespace") else None, chart,
                              os.path.abspath(local) if os.path.abspath(local) in charts else None,
                              path=path, line=lines.get(("releases", i), 1))
            for j, entry in enumerate(rel.get("values") or []):
                if isinstance(entry, dict):
                    prefix = ("releases", i, "values", j)
                    own = {p[len(prefix):]: line for p, line in lines.items()
                           if p[:len(prefix)] == prefix}
                    release.inline.append((entry, own))
                elif isinstance(entry, str):
                    file = os.path.normpath(os.path.join(base, entry))
                    if os.path.abspath(file) in files:
                        release.values_files.append(file)
                    else:
                        diags.append(Diagnostic(path, lines.get(prefix_of(i, j), release.line),
                                                f"release {release.name}: values file {entry} is "
                                                "not in the scan, not read", "info"))
            out.append(release)
    return out, diags


def prefix_of(i: int, j: int) -> Path:
    return ("releases", i, "values", j)
