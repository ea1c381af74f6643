"""YAML from files gpulint does not trust: a loader that reads application tags as plain
values and keeps scalars that only look like dates or huge integers as text; nesting checked
before libyaml's composer recurses; alias bombs and recursive structures refused on the node
graph before Python objects are built. `load_one` reads one document of configuration or
rules; the manifest loader (load/kubernetes.py) uses the same loader and checks."""

from __future__ import annotations

from typing import Any

import yaml

try:  # libyaml is several times faster; fall back to the pure-Python loader without it.
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

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


class YamlProblem(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def load_one(text: str) -> tuple[Any, Any]:
    """(value, node) of the single document in `text` ((None, None) when empty); YamlProblem
    with the line when it cannot be read safely."""
    deep = too_deep_line(text)
    if deep is not None:
        raise YamlProblem(f"nested deeper than {MAX_NESTING_DEPTH} levels", deep)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        problem = node_graph_problem(node, "&" in text)
        if problem:
            raise YamlProblem(problem, node.start_mark.line + 1)
        return loader.construct_document(node), node
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise YamlProblem(str(e.problem or e), mark.line + 1 if mark else None) from None
    except (yaml.YAMLError, ValueError, OverflowError) as e:
        raise YamlProblem(str(e), None) from None
    finally:
        loader.dispose()
