"""One helmfile read for one environment: its releases (chart, values, release name, namespace),
whether each is installed there, and the nested helmfiles it names.

A helmfile (and each of its `.gotmpl` values files) is a Go template, read without executing it
(render/gotmpl.py). Its `bases:` come first, in order, each with its own bases. The environment's
values (`environments.<env>.defaults` and `values`: files and inline maps of the helmfile and
its bases, merged in order, `.gotmpl` files rendered with the values before them, then the
values a parent helmfile passes down) fill `{{ .Values.x }}`, `{{ .Environment.Values.x }}` and
`{{ .StateValues.x }}`, and `{{ .Environment.Name }}` is the environment's name. A release with
`installed: false`, or whose `condition: x.enabled` is not true in the environment's values,
is not installed there.

Only files in the scan are read: a base, values file or nested helmfile elsewhere (outside the
scanned tree, or remote: `git::…`, `https://…`) is a note naming it.
"""

from __future__ import annotations

import fnmatch
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpulint.files import containment
from gpulint.model import Diagnostic
from gpulint.render import gotmpl, helmfile_release, values_tree
from gpulint.render.values_tree import Path

Inline = tuple[dict[str, Any], dict[Path, int], str]  # a values map, its lines, its file
Read = Callable[[str], "str | None"]


@dataclass
class Release:
    name: str
    namespace: str | None
    chart: str  # as written
    local_chart: str | None  # directory of a local chart in the scan, else None
    values_files: list[str] = field(default_factory=list)  # files passed as they are (none)
    # Every values entry in order: inline maps, values files and rendered .gotmpl files
    inline: list[Inline] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)  # the files read into `inline`
    path: str = ""  # the helmfile (or base) that declares it
    line: int = 1
    labels: dict[str, str] = field(default_factory=dict)  # with name, namespace and chart


@dataclass
class Nested:
    """A `helmfiles:` entry: the helmfile (as written) and the values it is given."""

    path: str
    values: list[Any]  # files (relative to `source`) and inline maps
    source: str
    line: int
    selectors: list[str] | None = None  # label selectors; None: inherited


@dataclass
class Scan:
    """What the scan holds: its files and chart directories (absolute), and how to read."""

    files: set[str]
    charts: set[str]
    read: Read
    # Helmfiles already read, by (path, environment, values a parent passes them)
    states: dict[tuple[str, str, str], State] = field(default_factory=dict)
    # YAML already parsed, by file and text: environments re-read the same files
    parsed: dict[tuple[str, str], tuple[list[Any], list[Diagnostic]]] = field(
        default_factory=dict)

    def parse(self, file: str, text: str) -> tuple[list[Any], list[Diagnostic]]:
        """values_tree.parse, once per file and text (the trees are not changed after)."""
        if (file, text) not in self.parsed:
            self.parsed[(file, text)] = values_tree.parse(file, text)
        return self.parsed[(file, text)]


@dataclass
class State:
    releases: list[Release] = field(default_factory=list)
    nested: list[Nested] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    consumed: set[str] = field(default_factory=set)  # bases and values files read (absolute)
    environments: list[str] = field(default_factory=list)  # declared, in order
    left: int = 0  # template actions not evaluated


def render(text: str, env: dict[str, Any], name: str = "default") -> tuple[str, int]:
    """A Go template read for environment `name` with values `env` (render/gotmpl.py)."""
    return gotmpl.render(text, env, name)


def remote(entry: str) -> bool:
    return "::" in entry or "://" in entry


def resolve(entry: str, base: str, scan: Scan, fallback: str | None = None) -> list[str]:
    """Files of the scan an entry names, relative to `base` (a glob may name several), else
    relative to `fallback` (a base's entries: helmfile versions differ on which applies)."""
    if fallback and fallback != base:
        return resolve(entry, base, scan) or resolve(entry, fallback, scan)
    joined = os.path.normpath(os.path.join(base, entry))
    if any(c in entry for c in "*?["):
        pattern = os.path.abspath(joined)
        return sorted(os.path.relpath(f) if not os.path.isabs(joined) else f
                      for f in scan.files if fnmatch.fnmatchcase(f, pattern))
    return [joined] if os.path.abspath(joined) in scan.files else []


def layers(path: str, scan: Scan, diags: list[Diagnostic],
           seen: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(file, text) of the helmfile's bases, recursively and in order, then the helmfile."""
    text = scan.read(path) or ""
    out: list[tuple[str, str]] = []
    docs, _ = scan.parse(path, render(text, {})[0])
    for doc, lines in docs:
        bases = doc.get("bases") if isinstance(doc, dict) else None
        for i, entry in enumerate(bases if isinstance(bases, list) else []):
            where = lines.get(("bases", i))
            found = resolve(str(entry), os.path.dirname(path), scan)
            if not isinstance(entry, str) or remote(entry) or not found:
                why = "remote" if isinstance(entry, str) and remote(entry) else "not in the scan"
                diags.append(Diagnostic(path, where, f"base {entry} is {why}, not read", "info"))
                continue
            for base in found:
                if os.path.abspath(base) in seen or os.path.abspath(base) == os.path.abspath(path):
                    diags.append(Diagnostic(path, where, f"base {entry} includes itself, not "
                                            "read again", "info"))
                    continue
                out += layers(base, scan, diags, (*seen, os.path.abspath(path)))
    return [*out, (path, text)]


def environments(parts: list[tuple[str, str]], scan: Scan) -> dict[str, list[tuple[Any, str]]]:
    """Each declared environment's values entries (defaults first), with the file naming each."""
    out: dict[str, list[tuple[Any, str]]] = {}
    for file, text in parts:
        docs, _ = scan.parse(file, render(text, {})[0])
        for doc, _ in docs:
            envs = doc.get("environments") if isinstance(doc, dict) else None
            for name, spec in (envs.items() if isinstance(envs, dict) else ()):
                entries = out.setdefault(str(name), [])
                for key in ("defaults", "values"):
                    given = spec.get(key) if isinstance(spec, dict) else None
                    entries += [(e, file) for e in (given if isinstance(given, list) else [])]
    return out


def merged_values(entries: list[tuple[Any, str]], name: str, scan: Scan, state: State,
                  home: str | None = None) -> dict[str, Any]:
    """Values entries merged in order: files of the scan (rendered with the values before
    them) and inline maps; a file is relative to the file naming it, else to `home`."""
    merged: dict[str, Any] = {}
    for entry, source in entries:
        if isinstance(entry, dict):
            merged = values_tree.merge_into(merged, entry)
            continue
        found = resolve(str(entry), os.path.dirname(source), scan, home) \
            if isinstance(entry, str) and not remote(entry) else []
        if not found:
            why = "remote" if isinstance(entry, str) and remote(entry) else "not in the scan"
            state.diagnostics.append(Diagnostic(source, None, f"environment {name}: values "
                                                f"{entry} {why}, not read", "info"))
        for file in found:
            state.consumed.add(os.path.abspath(file))
            docs, problems = scan.parse(file, render(scan.read(file) or "", merged,
                                                            name)[0])
            state.diagnostics.extend(problems)
            for tree, _ in docs:
                if isinstance(tree, dict):
                    merged = values_tree.merge_into(merged, tree)
    return merged


def read(path: str, scan: Scan, env: str = "default",
         passed: dict[str, Any] | None = None) -> State:
    """The helmfile at `path` for environment `env`, with values `passed` down by a parent
    helmfile over its own."""
    key = (os.path.abspath(path), env, passed_key(passed))  # each read once, values included
    if key not in scan.states:
        scan.states[key] = _read(path, scan, env, passed or {})
    return scan.states[key]


def passed_key(passed: dict[str, Any] | None) -> str:
    return json.dumps(passed, sort_keys=True, default=str) if passed else ""


def _read(path: str, scan: Scan, env: str, passed: dict[str, Any]) -> State:
    state = State()
    parts = layers(path, scan, state.diagnostics)
    state.consumed.update(os.path.abspath(f) for f, _ in parts[:-1])
    declared = environments(parts, scan)
    state.environments = list(declared)
    values = merged_values(declared.get(env, []), env, scan, state, os.path.dirname(path))
    values = values_tree.merge_into(values, passed)
    parsed: list[tuple[str, Any, dict[Path, int]]] = []
    for file, text in parts:
        body, left = render(text, values, env)
        state.left += left
        docs, problems = scan.parse(file, body)
        state.diagnostics.extend(problems)
        parsed += [(file, doc, lines) for doc, lines in docs if isinstance(doc, dict)]
    known = helmfile_release.templates([doc for _, doc, _ in parsed])
    for file, doc, lines in parsed:
        _document(file, doc, lines, _Context(values, env, scan, state, os.path.dirname(path),
                                             known))
    return state


@dataclass
class _Context:
    """What reading one document of a helmfile for one environment needs."""

    values: dict[str, Any]
    env: str
    scan: Scan
    state: State
    home: str  # the helmfile's directory (paths in a base may be relative to it)
    templates: dict[str, dict[str, Any]]


def _document(file: str, doc: dict[str, Any], lines: dict[Path, int], ctx: _Context) -> None:
    """One document of the helmfile or of one of its bases."""
    state = ctx.state
    releases = doc.get("releases")
    for i, rel in enumerate(releases if isinstance(releases, list) else []):
        if not isinstance(rel, dict):
            continue
        rel, missing = helmfile_release.inherit(rel, ctx.templates)
        rel, left = helmfile_release.evaluate(rel, ctx.values, ctx.env)
        state.left += left
        where = lines.get(("releases", i), 1)
        if missing:
            state.diagnostics.append(Diagnostic(file, where, f"release {rel.get('name')}: "
                                                f"template {', '.join(missing)} is not "
                                                "declared, not inherited", "info"))
        if not rel.get("chart"):
            state.diagnostics.append(Diagnostic(file, where, f"release {rel.get('name')}: no "
                                                "chart, not read", "info"))
            continue
        release = _release(file, i, rel, lines, ctx)
        if _installed(release, rel, ctx.values, ctx.env, state):
            state.releases.append(release)
    nested = doc.get("helmfiles")
    for i, entry in enumerate(nested if isinstance(nested, list) else []):
        where = lines.get(("helmfiles", i), 1)
        if isinstance(entry, str):
            state.nested.append(Nested(entry, [], file, where))
        elif isinstance(entry, dict) and isinstance(entry.get("path"), str):
            given = entry.get("values")
            chosen = entry.get("selectors")
            state.nested.append(Nested(entry["path"], given if isinstance(given, list) else [],
                                       file, where, [str(c) for c in chosen]
                                       if isinstance(chosen, list) else None))


def _installed(release: Release, rel: dict[str, Any], values: dict[str, Any], env: str,
               state: State) -> bool:
    """False (with a note) when the release is not installed in this environment."""
    where = f"release {release.name}"
    installed = rel.get("installed", True)
    if isinstance(installed, str) and installed.lower() in ("true", "false"):
        installed = installed.lower() == "true"
    if installed is False:
        state.diagnostics.append(Diagnostic(release.path, release.line, f"{where}: not "
                                            f"installed in environment {env} (installed: "
                                            "false), not read", "info"))
        return False
    if installed is not True:
        state.diagnostics.append(Diagnostic(release.path, release.line, f"{where}: installed "
                                            f"could not be evaluated ({installed!r}); read as "
                                            "installed", "info"))
    condition = rel.get("condition")
    if not condition:
        return True
    keys = str(condition).split(".")
    node: Any = values
    for key in keys[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    if keys[-1] != "enabled" or not isinstance(node, dict):
        why = "it does not end in .enabled" if keys[-1] != "enabled" else \
            f"environment {env} does not set {'.'.join(keys[:-1])}"
        state.diagnostics.append(Diagnostic(release.path, release.line, f"{where}: condition "
                                            f"{condition} cannot be evaluated ({why}); read "
                                            "as installed", "info"))
        return True
    if node.get("enabled") is True:
        return True
    state.diagnostics.append(Diagnostic(release.path, release.line, f"{where}: not installed "
                                        f"in environment {env} (condition {condition} is "
                                        f"{_shown(node.get('enabled'))}), not read", "info"))
    return False


def _shown(value: Any) -> str:
    return "not set" if value is None else str(value).lower() if isinstance(value, bool) \
        else repr(value)


def _release(path: str, i: int, rel: dict[str, Any], lines: dict[Path, int],
             ctx: _Context) -> Release:
    env, name, scan, state, home = ctx.values, ctx.env, ctx.scan, ctx.state, ctx.home
    base = os.path.dirname(path)
    chart = str(rel["chart"])
    local = next((d for d in (os.path.abspath(os.path.join(b, chart)) for b in (base, home))
                  if d in scan.charts), None)
    release = Release(str(rel.get("name") or os.path.basename(chart)),
                      str(rel["namespace"]) if rel.get("namespace") else None, chart,
                      local, path=path,
                      line=lines.get(("releases", i), 1))
    given_labels = rel.get("labels")
    release.labels = {**{str(k): str(v) for k, v in (given_labels.items() if isinstance(
        given_labels, dict) else ())}, "name": release.name, "chart": chart,
        "namespace": release.namespace or ""}
    given = rel.get("values")
    for j, entry in enumerate(given if isinstance(given, list) else []):
        prefix = ("releases", i, "values", j)
        if isinstance(entry, dict):
            own = {p[len(prefix):]: line for p, line in lines.items()
                   if p[:len(prefix)] == prefix} or {(): release.line}  # from a template
            release.inline.append((entry, own, path))
            continue
        if not isinstance(entry, str):
            continue
        file = os.path.normpath(os.path.join(base, entry))
        if not os.path.exists(file) and home != base:
            file = os.path.normpath(os.path.join(home, entry))
        where = lines.get(prefix, release.line)
        if file.endswith(".gotmpl") and os.path.isfile(file) and not containment.escapes(file):
            _gotmpl(release, file, env, name, scan, state)  # not a file the scan discovers
        elif os.path.abspath(file) not in scan.files:
            state.diagnostics.append(Diagnostic(path, where, f"release {release.name}: values "
                                                f"file {entry} is not in the scan, not read",
                                                "info"))
        else:
            _values_file(release, file, scan.read(file) or "", scan, state)
    overrides, refused = helmfile_release.sets(rel, lines, i, release.line)
    state.diagnostics.extend(Diagnostic(path, line, f"release {release.name}: {why}", "warning")
                             for line, why in refused)
    if overrides is not None:
        release.inline.append((*overrides, path))
    return release


def _values_file(release: Release, file: str, text: str, scan: Scan, state: State) -> None:
    """A values file, kept in order with the release's inline maps and templates (later
    entries win, whichever their kind)."""
    docs, problems = scan.parse(file, text)
    state.diagnostics.extend(problems)
    release.templates.append(file)  # not read again on its own
    for tree, where in docs:
        if isinstance(tree, dict):
            release.inline.append((tree, where, file))


def _gotmpl(release: Release, file: str, env: dict[str, Any], name: str, scan: Scan,
            state: State) -> None:
    """A values template, read as its static text with the environment's values."""
    body, left = render(scan.read(file) or "", env, name)
    _values_file(release, file, body, scan, state)
    if left:
        state.diagnostics.append(Diagnostic(file, None, f"release {release.name}: values "
                                            f"template read without executing it; {left} "
                                            f"template action{'s' if left != 1 else ''} not "
                                            "evaluated", "info"))
