"""Load Kubernetes manifests: multi-document YAML (or JSON) with each document's first line."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from gpulint.files.safe_yaml import (
    MAX_NESTING_DEPTH,
    _items_nodes,
    _Loader,
    _reset,
    node_graph_problem,
    too_deep_line,
)
from gpulint.model import Diagnostic


@dataclass(frozen=True)
class K8sObject:
    path: str
    line: int
    doc: dict[str, Any]
    # Objects not read from a manifest: an address instead of Kind/namespace/name (read from
    # Helm values), the resource type to report, and the kustomize overlay that rendered it.
    address: str | None = None
    type: str | None = None
    variant: str | None = None


def is_manifest(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("apiVersion"), str) \
        and isinstance(doc.get("kind"), str)


def load_documents(path: str, text: str) -> tuple[list[K8sObject], list[Diagnostic]]:
    """Every Kubernetes object in the text, `kind: List` items expanded, with line numbers."""
    objects: list[K8sObject] = []
    diags: list[Diagnostic] = []
    deep = too_deep_line(text)
    if deep is not None:
        return [], [Diagnostic(path, deep, f"YAML file skipped: nested deeper than "
                                           f"{MAX_NESTING_DEPTH} levels")]
    loader = _Loader(text)
    has_anchors = "&" in text
    try:
        while True:
            try:
                if not loader.check_node():
                    break
                node = loader.get_node()
            except yaml.MarkedYAMLError as e:
                mark = e.problem_mark or e.context_mark
                line = mark.line + 1 if mark else None
                diags.append(Diagnostic(path, line, f"YAML parse error: {e.problem or e}"))
                break
            except yaml.reader.ReaderError as e:  # a control character, before any parsing
                line = text.count("\n", 0, e.position) + 1 if isinstance(e.position, int) else None
                char = e.character
                code = char if isinstance(char, int) else ord(str(char)[:1] or " ")
                diags.append(Diagnostic(path, line, f"YAML parse error: character U+{code:04X} "
                                                    "is not allowed in YAML"))
                break
            if node is None:
                continue
            problem = node_graph_problem(node, has_anchors)
            if problem:
                diags.append(Diagnostic(path, node.start_mark.line + 1,
                                        f"YAML document skipped: {problem}"))
                continue
            try:
                doc = loader.construct_document(node)
            except (yaml.YAMLError, ValueError, OverflowError) as e:
                diags.append(Diagnostic(path, node.start_mark.line + 1, f"YAML error: {e}"))
                _reset(loader)
                continue
            line = node.start_mark.line + 1
            if not is_manifest(doc):
                continue
            if doc["kind"] == "List" and isinstance(doc.get("items"), list):
                item_nodes = _items_nodes(node)
                for i, item in enumerate(doc["items"]):
                    if is_manifest(item):
                        item_line = (item_nodes[i].start_mark.line + 1 if i < len(item_nodes)
                                     else line)
                        objects.append(K8sObject(path, item_line, item))
                continue
            objects.append(K8sObject(path, line, doc))
    finally:
        loader.dispose()
    return objects, diags


def separators(text: str) -> list[tuple[int, int]]:
    """(start, end of line) of each line that starts a document (`---`, then a space, a tab or
    the line's end). str.find instead of a multi-line regular expression: operators' CRD bundles
    are megabytes, which such an expression walks ten times slower."""
    found = []
    at = text.find("---")
    while at >= 0:
        after = text[at + 3:at + 4]
        if (at == 0 or text[at - 1] == "\n") and after in ("", " ", "\t", "\n"):
            end = text.find("\n", at)
            found.append((at, len(text) if end < 0 else end))
        at = text.find("---", at + 3)
    return found


def _documents(text: str) -> list[str]:
    """The text cut before each separator line (the pieces join back to the text)."""
    starts = [0, *(a for a, _ in separators(text) if a > 0)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def without_templated_documents(
        text: str, templated_line: Callable[[str], int | None]) -> tuple[str, list[int]]:
    """The text with every document that holds a Go template action blanked (line numbers kept),
    and the first template line of each: a chart file may mix plain and templated documents."""
    parts = _documents(text)
    out: list[str] = []
    lines: list[int] = []
    offset = 0
    for part in parts:
        line = templated_line(part)
        if line is None:
            out.append(part)
        else:
            lines.append(offset + line)
            out.append("\n" * part.count("\n"))
        offset += part.count("\n")
    return "".join(out), lines


_CRD = re.compile(r"^kind:[ \t]*[\"']?CustomResourceDefinition[\"']?[ \t]*(#.*)?$", re.MULTILINE)


def without_crds(text: str) -> str:
    """The text with its CustomResourceDefinition documents blanked (line numbers kept): they
    declare no workload and nothing reads them, and operator bundles ship megabytes of them,
    which would otherwise be most of a scan's YAML parsing."""
    if "CustomResourceDefinition" not in text:
        return text
    parts = _documents(text)
    return "".join("\n" * p.count("\n") if _CRD.search(p) else p for p in parts)


def looks_like_kubernetes(text: str) -> bool:
    """Cheap test before a full parse: manifests name both apiVersion and kind."""
    return "apiVersion" in text and "kind" in text
