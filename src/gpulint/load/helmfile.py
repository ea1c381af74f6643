"""helmfile.yaml releases: which chart, which values, which release name and namespace.

Helmfile files and `.gotmpl` values files are Go templates. They are read without executing
them: the default environment's values (`environments.default.values`: files and inline maps)
are gathered first, then `{{ .Environment.Name }}` becomes `default` and a plain reference to
the environment's values (`{{ .Values.a.b }}`, `{{ .Environment.Values.a.b }}`,
`{{ .StateValues.a.b }}`, optionally `| quote` or `| default X`) becomes its value. Lines that
are only another action (`{{ if … }}`, `{{ end }}`) are dropped and other inline actions blanked,
keeping the line count, so the static part of a release (name, chart, values files, inline
values) is read as written; a note counts what was not evaluated. Other environments are named,
not read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpulint.load import containment, values_tree
from gpulint.load.values_tree import Path
from gpulint.model import Diagnostic

HELMFILE_NAMES = ("helmfile.yaml", "helmfile.yml", "helmfile.yaml.gotmpl")
_ACTION_LINE = re.compile(r"^[ \t]*\{\{.*\}\}[ \t]*$", re.MULTILINE)
_ACTION = re.compile(r"\{\{.*?\}\}")
_ENV_NAME = re.compile(r"\{\{-?\s*\.Environment\.Name\s*-?\}\}")
_VALUE_REF = re.compile(r"\{\{-?\s*\.(?:Values|Environment\.Values|StateValues)((?:\.[\w-]+)+)"
                        r"\s*(\|\s*quote\s*|\|\s*default\s+(\"[^\"]*\"|[\w.-]+)\s*)?-?\}\}")
Inline = tuple[dict[str, Any], dict[Path, int], str]  # a values map, its lines, its file


@dataclass
class Release:
    name: str
    namespace: str | None
    chart: str  # as written
    local_chart: str | None  # directory of a local chart in the scan, else None
    values_files: list[str] = field(default_factory=list)  # files in the scan, in order
    inline: list[Inline] = field(default_factory=list)  # inline maps and rendered .gotmpl
    templates: list[str] = field(default_factory=list)  # .gotmpl values files read as inline
    path: str = ""  # the helmfile
    line: int = 1


def render(text: str, env: dict[str, Any]) -> tuple[str, int]:
    """A Go template read without executing it: environment references substituted, other
    actions dropped (the line count kept); also how many actions were not evaluated."""
    text = _ENV_NAME.sub("default", text)

    def value(m: re.Match[str]) -> str:
        node: Any = env
        for key in m.group(1).strip(".").split("."):
            node = node.get(key) if isinstance(node, dict) else None
        if node is None and m.group(3):
            node = m.group(3).strip('"')
        if isinstance(node, (dict, list)) or node is None:
            return m.group(0)  # left for the count below
        out = str(node).lower() if isinstance(node, bool) else str(node)
        return f'"{out}"' if m.group(2) and "quote" in m.group(2) else out

    text = _VALUE_REF.sub(value, text)
    left = len(_ACTION.findall(text))
    return _ACTION.sub("", _ACTION_LINE.sub("", text)), left


def _environment(doc: Any, base: str, files: set[str],
                 read: Callable[[str], str | None]) -> tuple[dict[str, Any], list[str]]:
    """The default environment's merged values, and the names of the other environments."""
    envs = doc.get("environments") if isinstance(doc, dict) else None
    if not isinstance(envs, dict):
        return {}, []
    merged: dict[str, Any] = {}
    default = envs.get("default")
    entries = default.get("values") if isinstance(default, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str) and os.path.abspath(os.path.join(base, entry)) in files:
            text = read(os.path.join(base, entry))
            docs, _ = values_tree.parse(entry, render(text or "", merged)[0])
            entry = docs[0][0] if docs else None
        if isinstance(entry, dict):
            merged = values_tree.merge_into(merged, entry)
    return merged, sorted(str(k) for k in envs if k != "default")


def read(path: str, text: str, files: set[str], charts: set[str],
         read_text: Callable[[str], str | None]) -> tuple[list[Release], list[Diagnostic]]:
    """Releases of one helmfile. `files` and `charts` are the scan's files and chart directories
    (absolute): values files and charts outside the scan are not read."""
    base = os.path.dirname(path)
    first, _ = values_tree.parse(path, render(text, {})[0])
    env: dict[str, Any] = {}
    others: list[str] = []
    for doc, _ in first:
        found, names = _environment(doc, base, files, read_text)
        env, others = values_tree.merge_into(env, found), others + names
    body, left = render(text, env)
    docs, diags = values_tree.parse(path, body)
    if others or left:
        diags.append(Diagnostic(path, None, "read for the default environment" +
                                (f" (not {', '.join(others)})" if others else "") +
                                (f"; {left} template action{'s' if left != 1 else ''} not "
                                 "evaluated" if left else ""), "info"))
    out: list[Release] = []
    for doc, lines in docs:
        releases = doc.get("releases") if isinstance(doc, dict) else None
        for i, rel in enumerate(releases if isinstance(releases, list) else []):
            if isinstance(rel, dict) and rel.get("chart"):
                out.append(_release(path, i, rel, lines, files, charts, env, read_text, diags))
    return out, diags


def _release(path: str, i: int, rel: dict[str, Any], lines: dict[Path, int], files: set[str],
             charts: set[str], env: dict[str, Any], read_text: Callable[[str], str | None],
             diags: list[Diagnostic]) -> Release:
    base = os.path.dirname(path)
    chart = str(rel["chart"])
    local = os.path.abspath(os.path.normpath(os.path.join(base, chart)))
    release = Release(str(rel.get("name") or os.path.basename(chart)),
                      str(rel["namespace"]) if rel.get("namespace") else None, chart,
                      local if local in charts else None, path=path,
                      line=lines.get(("releases", i), 1))
    for j, entry in enumerate(rel.get("values") or []):
        prefix = ("releases", i, "values", j)
        if isinstance(entry, dict):
            own = {p[len(prefix):]: line for p, line in lines.items()
                   if p[:len(prefix)] == prefix}
            release.inline.append((entry, own, path))
            continue
        if not isinstance(entry, str):
            continue
        file = os.path.normpath(os.path.join(base, entry))
        where = lines.get(prefix, release.line)
        if file.endswith(".gotmpl") and os.path.isfile(file) and not containment.escapes(file):
            _gotmpl(release, file, env, read_text, diags)  # not a file the scan discovers
        elif os.path.abspath(file) not in files:
            diags.append(Diagnostic(path, where, f"release {release.name}: values file {entry} "
                                    "is not in the scan, not read", "info"))
        else:
            release.values_files.append(file)
    return release


def _gotmpl(release: Release, file: str, env: dict[str, Any],
            read_text: Callable[[str], str | None], diags: list[Diagnostic]) -> None:
    """A values template, read as its static text with the environment's values."""
    body, left = render(read_text(file) or "", env)
    docs, problems = values_tree.parse(file, body)
    diags.extend(problems)
    release.templates.append(file)  # not read again on its own
    for tree, where in docs:
        if isinstance(tree, dict):
            release.inline.append((tree, where, file))
    if left:
        diags.append(Diagnostic(file, None, f"release {release.name}: values template read "
                                f"without executing it; {left} template action"
                                f"{'s' if left != 1 else ''} not evaluated", "info"))
