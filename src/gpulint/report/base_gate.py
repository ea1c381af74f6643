"""The gate belongs to the base branch: gating settings read from a base commit's configuration.

A pull request can edit `.gpulint.yaml` or `[tool.gpulint]`; if its own copy decided `fail_on`,
`ignore` or `exclude`, it could pass its own check. Here the base commit's configuration file
(read with `git show`, never from the work tree) is validated by the normal loader and its
gating keys replace the head's; every other setting (pricing, regions, models…) stays the head's.
A base without a configuration file gates with the defaults.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from typing import Any

from gpulint.config.load import CONFIG_FILES, PYPROJECT, Config, ConfigError, load
from gpulint.report.git_base import GitError, _git, repo_root, resolve

# What decides pass or fail. `baseline` is listed for configurations that carry one.
GATING_KEYS = ("fail_on", "strict", "select", "ignore", "exclude", "rules", "thresholds",
               "baseline", "suppressions")


def _blob(commit: str, rel: str, root: str) -> str | None:
    try:
        return _git(["show", f"{commit}:{rel}"], root)
    except GitError:
        return None  # absent in the base


def _base_config(commit: str, rel: str, root: str, head_path: str) -> Config | None:
    """The base's file at ``rel`` loaded and validated like any configuration, or None."""
    text = _blob(commit, rel, root)
    if text is None or (os.path.basename(rel) == PYPROJECT and "tool.gpulint" not in text):
        return None
    with tempfile.TemporaryDirectory(prefix="gpulint-gate-") as tmp:
        path = os.path.join(tmp, os.path.basename(rel))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            config = load(path)
        except ConfigError as e:
            if "no [tool.gpulint] section" in str(e):
                return None
            raise ConfigError(str(e).replace(path, f"{commit[:12]}:{rel}")) from None
    # Paths in it (exclude globs) are relative to where the file sits in the head tree.
    return Config(head_path, config.data, config.lines)


def _candidates(explicit: str | None, paths: Iterable[str], root: str) -> list[str]:
    """Work-tree paths where the base's configuration would be, nearest first, searched as
    discovery searches the work tree (a PR that moves its file does not escape)."""
    if explicit:
        return [os.path.abspath(explicit)]
    dirs = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    current = os.path.realpath(os.path.commonpath(dirs) if dirs else os.getcwd())
    out: list[str] = []
    while current == root or current.startswith(root + os.sep):
        out += [os.path.join(current, n) for n in (*CONFIG_FILES, PYPROJECT)]
        if current == root:
            break
        current = os.path.dirname(current)
    return out


def gating(data: dict[str, Any]) -> dict[str, Any]:
    return {k: data[k] for k in GATING_KEYS if k in data}


def overlay(head: Config | None, ref: str, paths: Iterable[str],
            explicit: str | None = None) -> tuple[Config | None, list[str]]:
    """The head's configuration with the gating keys of ``ref``'s configuration, and one line
    per gating setting the head changes (not applied). Raises GitError or ConfigError."""
    paths = list(paths)
    root = repo_root(os.path.dirname(os.path.abspath(head.path)) if head else ".")
    commit = resolve(ref, root)
    base: Config | None = None
    for candidate in _candidates(explicit, paths, root):
        rel = os.path.relpath(os.path.realpath(candidate), root).replace(os.sep, "/")
        base = _base_config(commit, rel, root, candidate)
        if base is not None:
            break
    head_gate = gating(head.data) if head else {}
    base_gate = gating(base.data) if base else {}
    changes = [f"{k} {_shown(base_gate.get(k))} → {_shown(head_gate.get(k))}"
               for k in GATING_KEYS if head_gate.get(k) != base_gate.get(k)]
    if head is None and base is None:
        return None, changes
    data = {k: v for k, v in (head.data if head else {}).items() if k not in GATING_KEYS}
    data.update(base_gate)
    path = head.path if head else (base.path if base else "")
    lines = {**(head.lines if head else {}), **(base.lines if base else {})}
    return Config(path, data, lines), changes


def _shown(value: Any) -> str:
    return "(unset)" if value is None else str(value)
