"""Helm values files as trees with line numbers, merged the way Helm merges them.

A values file is not a Kubernetes object: it is read with the same safety bounds as a manifest
(alias bombs, depth), and each key and list item keeps the file and line that set it, so a GPU
request read from merged values is reported where the winning file wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from gpulint.files.safe_yaml import MAX_NESTING_DEPTH, _Loader, node_graph_problem, too_deep_line
from gpulint.model import Diagnostic

Path = tuple[Any, ...]  # keys and list indexes from the root


@dataclass
class Values:
    """Merged values and where each path was set (the last file that set it wins)."""

    tree: dict[str, Any] = field(default_factory=dict)
    where: dict[Path, tuple[str, int]] = field(default_factory=dict)

    def locate(self, path: Path) -> tuple[str, int]:
        """File and line of a path, else of its nearest located ancestor."""
        for n in range(len(path), -1, -1):
            if path[:n] in self.where:
                return self.where[path[:n]]
        return next(iter(self.where.values()), ("", 1))


def _lines(node: Any, path: Path, out: dict[Path, int], seen: set[int]) -> None:
    if id(node) in seen:  # an alias: its lines are those of its anchor
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                here = (*path, key.value)
                out.setdefault(here, key.start_mark.line + 1)
                _lines(value, here, out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out.setdefault((*path, i), item.start_mark.line + 1)
            _lines(item, (*path, i), out, seen)


def parse(path: str, text: str) -> tuple[list[tuple[Any, dict[Path, int]]], list[Diagnostic]]:
    """Every document of a YAML file with the line of each path in it."""
    docs: list[tuple[Any, dict[Path, int]]] = []
    deep = too_deep_line(text)  # before libyaml's composer recurses (and overflows the stack)
    if deep is not None:
        return docs, [Diagnostic(path, deep, f"values not read: nested deeper than "
                                             f"{MAX_NESTING_DEPTH} levels", "info")]
    loader = _Loader(text)
    try:
        while True:
            try:
                if not loader.check_node():
                    break
                node = loader.get_node()
            except (yaml.YAMLError, ValueError) as e:
                mark = getattr(e, "problem_mark", None)
                return docs, [Diagnostic(path, mark.line + 1 if mark else None,
                                         f"values not read: YAML parse error: "
                                         f"{getattr(e, 'problem', None) or e}", "info")]
            if node is None:
                continue
            problem = node_graph_problem(node, "&" in text)
            if problem:
                return docs, [Diagnostic(path, node.start_mark.line + 1,
                                         f"values not read: {problem}", "info")]
            try:
                value = loader.construct_document(node)
            except (yaml.YAMLError, ValueError, OverflowError) as e:
                return docs, [Diagnostic(path, node.start_mark.line + 1,
                                         f"values not read: YAML error: {e}", "info")]
            lines: dict[Path, int] = {(): node.start_mark.line + 1}
            _lines(node, (), lines, set())
            docs.append((value, lines))
    finally:
        loader.dispose()
    return docs, []


def merge_into(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Helm's coalescing of values: maps merge key by key, anything else replaces, and null
    deletes the key."""
    out = dict(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_into(out[key], value)
        else:
            out[key] = value
    return out


def add(values: Values, path: str, tree: Any, lines: dict[Path, int]) -> None:
    """Merge one values document (a mapping) over `values`, recording its lines."""
    if not isinstance(tree, dict):
        return
    values.tree = merge_into(values.tree, tree)
    for p, line in lines.items():
        values.where[p] = (path, line)
