"""Every helmfile of the scan, read once per environment it deploys to.

A helmfile that another helmfile of the scan names under `helmfiles:` is read as part of it
(with the environment and the values it is given), not on its own; the others are read for
each environment they declare (`environments:`, their bases' included), each environment a
variant of its own, so its resources are addressed `…@<environment>` and the bill has one copy
per environment. A helmfile that declares no environment but `default` is read for `default`,
addressed as written. `helm.helmfile.environments` in the configuration restricts which
declared environments are read.

A nested helmfile is read for its parent's environment; one that does not declare it (and is
given no values) is skipped, as helmfile skips it. A nested helmfile named again with the same
environment, values and selectors (17 helmfiles each naming the next six times would be 6^16
reads) is taken once, and one top-level read takes at most MAX_VISITS nested helmfiles: the
rest is a warning.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from typing import Any

from gpulint.model import Diagnostic
from gpulint.render import helmfile
from gpulint.render.helmfile import Release, Scan
from gpulint.render.helmfile_names import is_helmfile

MAX_DEPTH = 16  # nested helmfiles inside each other
MAX_VISITS = 1_000  # nested helmfiles taken under one top-level helmfile and environment


@dataclass
class Deployed:
    release: Release
    variant: str | None  # the environment, when the helmfile declares several


@dataclass
class Result:
    releases: list[Deployed] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    consumed: set[str] = field(default_factory=set)  # files read with a helmfile (absolute)
    # (helmfile, environment, passed values, selectors) taken, per top-level read
    visited: set[tuple[str, str, str, str]] = field(default_factory=set)
    visits: int = 0


def _references(path: str, scan: Scan) -> set[str]:
    """Helmfiles of the scan that `path` names under `helmfiles:` in any environment it
    declares (absolute)."""
    envs = helmfile.read(path, scan).environments or ["default"]
    out: set[str] = set()
    for env in envs:
        for nested in helmfile.read(path, scan, env).nested:
            if not helmfile.remote(nested.path):
                out.update(os.path.abspath(f) for f in helmfile.resolve(
                    nested.path, os.path.dirname(nested.source), scan))
    return out


def read_all(paths: list[str], scan: Scan, selected: tuple[str, ...] | None) -> Result:
    """Releases of every helmfile among `paths`, each with the environment it is read for."""
    out = Result()
    found = [p for p in paths if is_helmfile(p)]
    named: set[str] = set()
    for path in found:
        named |= _references(path, scan) - {os.path.abspath(path)}
    for path in found:
        if os.path.abspath(path) not in named:
            _top(path, scan, selected, out)
    for path in found:  # helmfiles that only name each other: the first one read is the top
        if os.path.abspath(path) not in out.consumed:
            _top(path, scan, selected, out)
    seen: set[tuple[str, int | None, str, str]] = set()
    unique = []
    for d in out.diagnostics:
        key = (d.path, d.line, d.message, d.severity)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    out.diagnostics = unique
    return out


def _top(path: str, scan: Scan, selected: tuple[str, ...] | None, out: Result) -> None:
    out.consumed.add(os.path.abspath(path))
    first = helmfile.read(path, scan)
    declared = first.environments
    if not [e for e in declared if e != "default"]:
        out.visited, out.visits = set(), 0
        _take(path, first, "default", None, scan, out, (os.path.abspath(path),))
        if first.left:
            out.diagnostics.append(Diagnostic(path, None, "read for the default environment; "
                                              f"{_actions(first.left)} not evaluated", "info"))
        return
    envs = [e for e in declared if selected is None or e in selected]
    if not envs:
        hint = [m for e in selected or () for m in declared
                if m.startswith(e) or e.startswith(m)] or \
            [m for e in selected or () for m in difflib.get_close_matches(e, declared, 1)]
        out.diagnostics.append(Diagnostic(
            path, None, f"declares environments {', '.join(declared)}; none is in "
            f"helm.helmfile.environments ({', '.join(selected or ())})"
            + (f" (did you mean {hint[0]!r}?)" if hint else "") + ", not read", "info"))
    skipped = [e for e in declared if e not in envs]
    for env in skipped:  # their files belong to the helmfile: not read on their own either
        unread = Result()
        _take(path, helmfile.read(path, scan, env), env, env, scan, unread,
              (os.path.abspath(path),))
        out.consumed |= unread.consumed | {os.path.abspath(f) for d in unread.releases
                                           for f in d.release.values_files + d.release.templates}
    if not envs:
        return
    out.diagnostics.append(Diagnostic(
        path, None, f"read for environments {', '.join(envs)}: one copy of each release per "
        "environment, addressed @<environment>"
        + (f" ({', '.join(skipped)} not in helm.helmfile.environments)" if skipped else ""),
        "info"))
    for env in envs:
        state = helmfile.read(path, scan, env)
        out.visited, out.visits = set(), 0
        _take(path, state, env, env, scan, out, (os.path.abspath(path),))
        if state.left:
            out.diagnostics.append(Diagnostic(path, None, f"environment {env}: "
                                              f"{_actions(state.left)} not evaluated", "info"))


def _actions(n: int) -> str:
    return f"{n} template action{'s' if n != 1 else ''}"


def selected(labels: dict[str, str], selectors: list[str] | None) -> bool:
    """helmfile's label selectors: `k=v,k2!=v2` (all must hold) in any one of the strings."""
    return not selectors or any(all(_holds(term.strip(), labels) for term in s.split(",")
                                    if term.strip()) for s in selectors)


def _holds(term: str, labels: dict[str, str]) -> bool:
    if "!=" in term:
        key, _, value = term.partition("!=")
        return labels.get(key.strip()) != value.strip()
    key, _, value = term.partition("=")
    return labels.get(key.strip()) == value.strip()


def _take(path: str, state: helmfile.State, env: str, variant: str | None, scan: Scan,
          out: Result, stack: tuple[str, ...], selectors: list[str] | None = None) -> None:
    """One helmfile's releases for one environment (those its parent selects), then its
    nested helmfiles."""
    prefix = f"environment {env}: " if variant else ""
    out.diagnostics += [Diagnostic(d.path, d.line, d.message if not prefix or
                                   f"environment {env}" in d.message else prefix + d.message,
                                   d.severity) for d in state.diagnostics]
    out.consumed |= state.consumed
    for release in state.releases:
        if selected(release.labels, selectors):
            out.releases.append(Deployed(release, variant))
        else:  # its files are the release's all the same: not read on their own
            out.consumed |= {os.path.abspath(f) for f in release.values_files
                             + release.templates}
            out.diagnostics.append(Diagnostic(release.path, release.line, f"{prefix}release "
                                              f"{release.name}: not selected by "
                                              f"{' or '.join(selectors or ())}, not read",
                                              "info"))
    for nested in state.nested:
        base = os.path.dirname(nested.source)
        children = [] if helmfile.remote(nested.path) else helmfile.resolve(nested.path, base,
                                                                              scan)
        if not children:
            why = "remote" if helmfile.remote(nested.path) else "not in the scan"
            out.diagnostics.append(Diagnostic(nested.source, nested.line, f"nested helmfile "
                                              f"{nested.path} is {why}, not read", "info"))
            continue
        holder = helmfile.State()
        passed = helmfile.merged_values([(v, nested.source) for v in nested.values], env, scan,
                                        holder)
        out.diagnostics += holder.diagnostics
        out.consumed |= holder.consumed
        chosen = nested.selectors if nested.selectors is not None else selectors
        for child in children:
            _child(child, nested, env, variant, passed, scan, out, stack, chosen)


def _child(child: str, nested: helmfile.Nested, env: str, variant: str | None,
           passed: dict[str, Any], scan: Scan, out: Result, stack: tuple[str, ...],
           selectors: list[str] | None) -> None:
    if os.path.abspath(child) in stack or len(stack) > MAX_DEPTH:
        out.diagnostics.append(Diagnostic(nested.source, nested.line, f"nested helmfile "
                                          f"{nested.path} includes itself, not read again",
                                          "info"))
        return
    seen = (os.path.abspath(child), env, helmfile.passed_key(passed),
            ",".join(selectors) if selectors is not None else "\0")
    if seen in out.visited:
        return  # the same helmfile, environment, values and selectors: its releases are in
    out.visited.add(seen)
    out.visits += 1
    if out.visits > MAX_VISITS:
        if out.visits == MAX_VISITS + 1:
            out.diagnostics.append(Diagnostic(stack[0], None, f"more than {MAX_VISITS} nested "
                                              "helmfiles under this one, the rest not read",
                                              "warning"))
        return
    out.consumed.add(os.path.abspath(child))
    state = helmfile.read(child, scan, env, passed)
    if env != "default" and env not in state.environments and not nested.values:
        out.diagnostics.append(Diagnostic(nested.source, nested.line, f"nested helmfile "
                                          f"{nested.path} does not declare environment {env}: "
                                          "not deployed with it", "info"))
        return
    _take(child, state, env, variant, scan, out, (*stack, os.path.abspath(child)), selectors)
