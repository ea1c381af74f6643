"""Load Kubernetes manifests: multi-document YAML (or JSON) with each document's first line."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

try:  # libyaml is several times faster; fall back to the pure-Python loader without it.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

from gpulint.model import Diagnostic

_SafeLoader = _BaseLoader  # safe_load: standard tags only, as yaml.safe_load


class _Loader(_BaseLoader):
    """The safe loader, reading application tags (CloudFormation's `!Ref`, `!Sub`…) as plain
    values: such files are not manifests and must not fail the scan as YAML errors."""


def _untagged(loader: Any, suffix: str, node: Any) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)


_Loader.add_multi_constructor("!", _untagged)


def _timestamp(loader: Any, node: Any) -> Any:
    """A date or time; a scalar shaped like one that is not (`2020-13-45`) stays a string,
    as Kubernetes reads it, instead of failing the whole file."""
    try:
        return _BaseLoader.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)


def _int(loader: Any, node: Any) -> Any:
    """An integer; one past Python's 4,300-digit conversion limit stays a string."""
    try:
        return _BaseLoader.construct_yaml_int(loader, node)
    except ValueError:
        return loader.construct_scalar(node)


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", _int)

# Bounds on one YAML document, checked on the node graph before Python objects are built.
# Anchors are shared by reference, but anything that walks the document (facts, reports) sees
# every alias expanded: `&a [*b, *b, ...]` nine levels deep is a billion nodes from 1 KiB.
MAX_ALIAS_EXPANSION = 100_000  # nodes added by expanding aliases, per document
MAX_NESTING_DEPTH = 200  # mappings and sequences inside each other


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


# Nesting the event pass need not check: libyaml's composer recurses once per level in C and
# overflows the stack (a segmentation fault) some ten thousand levels down.
_SURELY_SHALLOW = 2_000


def too_deep_line(text: str) -> int | None:
    """Line where the text nests more than MAX_NESTING_DEPTH levels, found from the parser's
    events (libyaml's parser keeps an explicit stack; its composer would recurse), or None.
    Depth is at most the flow brackets plus the longest line (block levels need a deeper indent
    or a `- ` each), so ordinary files skip the event pass."""
    longest = max(map(len, text.splitlines()), default=0)
    if text.count("[") + text.count("{") + longest <= _SURELY_SHALLOW:
        return None
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_NESTING_DEPTH:
                    mark = event.start_mark
                    return mark.line + 1 if mark is not None else 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.MarkedYAMLError as e:
        # PyYAML 6.0.4 and later stop at a nesting limit of their own (1,000 flow levels) while
        # scanning, ahead of the events: the same hostile nesting, reported with gpulint's bound.
        if "maximum nesting depth" in str(e.problem or ""):
            return e.problem_mark.line + 1 if e.problem_mark is not None else 1
        return None  # reported with its line by the loader, which stops at the same place
    except yaml.YAMLError:
        return None
    return None


class TooDeep(yaml.YAMLError):
    """YAML nested beyond MAX_NESTING_DEPTH, found before any composer recursed."""


def safe_load(text: str) -> Any:
    """One YAML document of repository text read outside the manifest loader (a Chart.yaml, a
    kustomization, a values string), with the same depth bound checked first: libyaml's
    composer would overflow the C stack, the pure-Python one the recursion limit."""
    line = too_deep_line(text)
    if line is not None:
        raise TooDeep(f"nested deeper than {MAX_NESTING_DEPTH} levels (line {line})")
    return yaml.load(text, Loader=_SafeLoader)


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


def _reset(loader: Any) -> None:
    """Forget a document whose construction failed halfway, so the next one starts clean."""
    loader.constructed_objects = {}
    loader.recursive_objects = {}
    loader.state_generators = []


def _children(node: Any) -> list[Any]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _nested_too_deep(root: Any) -> bool:
    """Depth of an alias-free document (a tree); only collections are visited, not scalars."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING_DEPTH:
            return True
        cls = node.__class__
        if cls is yaml.MappingNode:
            for key, value in node.value:
                if key.__class__ is not yaml.ScalarNode:
                    stack.append((key, depth + 1))
                if value.__class__ is not yaml.ScalarNode:
                    stack.append((value, depth + 1))
        elif cls is yaml.SequenceNode:
            for value in node.value:
                if value.__class__ is not yaml.ScalarNode:
                    stack.append((value, depth + 1))
    return False


def node_graph_problem(root: Any, has_anchors: bool = True) -> str | None:
    """Why a composed YAML document is unsafe to walk (alias bomb, recursion, depth), or None.

    Iterative and linear in the number of distinct nodes: each node's expanded size is computed
    once from its children's, so a bomb is measured without being expanded. Without anchors
    (`&name`) there can be no alias, and only the depth is checked.
    """
    if not has_anchors:
        return f"nested deeper than {MAX_NESTING_DEPTH} levels" if _nested_too_deep(root) else None
    size: dict[int, int] = {}
    on_path: set[int] = set()
    distinct = 0
    stack: list[tuple[Any, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in _children(node))
            distinct += 1
            if size[key] - distinct > MAX_ALIAS_EXPANSION:
                return (f"aliases expand to more than {MAX_ALIAS_EXPANSION:,} extra nodes "
                        "(a YAML alias bomb?)")
            continue
        if key in size:
            continue
        if key in on_path:
            return "an alias refers to a node that contains it (recursive structure)"
        if depth > MAX_NESTING_DEPTH:
            return f"nested deeper than {MAX_NESTING_DEPTH} levels"
        on_path.add(key)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) not in size:
                stack.append((child, depth + 1, False))
    return None


def _items_nodes(node: Any) -> list[Any]:
    if not isinstance(node, yaml.MappingNode):
        return []
    for key, value in node.value:
        if getattr(key, "value", None) == "items" and isinstance(value, yaml.SequenceNode):
            return list(value.value)
    return []


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
