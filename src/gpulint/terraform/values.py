"""Blocks given as plain values, read through the same interface as `BlockView`.

Terraform plan JSON gives each resource's attributes as values (nested blocks are lists of
objects) and community-module inputs evaluate to maps; the fact builders read both exactly as
they read HCL blocks, so there is one builder per resource type, not one per input format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from gpulint.model import Unknown
from gpulint.terraform.syntax import Expr, GetAttr, Index, Splat, Var


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


# A reference without an index (`TYPE.NAME.id`), and one to every instance (`TYPE.NAME[*]`).
WHOLE = _Marker("WHOLE")
SPLAT = _Marker("SPLAT")


class Ref(NamedTuple):
    """A reference to another resource: its type, name and which instance — the index as
    evaluated in the referring instance's scope (a string or number, or Unknown), WHOLE or
    SPLAT."""

    type: str
    name: str
    key: Any = WHOLE


class ValueView:
    """Attributes from a mapping; `unknown` mirrors it with True where a value is known only
    after apply (plan JSON `after_unknown`); `config` holds plan `expressions` for references."""

    block = None

    def __init__(self, values: Any, line: int = 1, unknown: Any = None, config: Any = None,
                 unknown_reason: str | None = None, key: Any = None) -> None:
        self.key = key  # the instance's own count index or for_each key (plan JSON)
        if isinstance(values, Unknown):
            unknown_reason, values = values.reason, {}
        self.values = values if isinstance(values, dict) else {}
        self.line = line
        self.unknown = unknown if isinstance(unknown, dict) else {}
        self.config = config if isinstance(config, dict) else {}
        self.unknown_reason = unknown_reason

    def has(self, name: str) -> bool:
        return self.values.get(name) is not None

    def get(self, name: str, default: Any = None) -> Any:
        if self.unknown_reason is not None:
            return Unknown(self.unknown_reason)
        if self.unknown.get(name) is True:
            if self.config and name not in self.config:
                # Not set in the code: the provider computes it (a node group's instance types
                # when a launch template gives the type); the code's own default applies, as in
                # HCL.
                return default
            return Unknown(f"{name} is known only after apply")
        value = self.values.get(name)
        return default if value is None else value

    def blocks(self, type_: str) -> list[ValueView]:
        if self.unknown_reason is not None:
            return [ValueView({}, self.line, unknown_reason=self.unknown_reason)]
        if self.unknown.get(type_) is True:
            return [ValueView({}, self.line, unknown_reason=f"{type_} is known only after apply")]
        raw = self.values.get(type_)
        items = raw if isinstance(raw, list) else ([raw] if isinstance(raw, dict) else [])
        unk = self.unknown.get(type_)
        cfg = self.config.get(type_)
        return [ValueView(item, self.line, _nth(unk, i), _nth(cfg, i), key=self.key)
                for i, item in enumerate(items) if isinstance(item, dict)]

    def first(self, type_: str) -> ValueView | None:
        found = self.blocks(type_)
        return found[0] if found else None

    def refs(self, name: str) -> list[Ref]:
        """Resources an attribute refers to, from plan `expressions.<name>.references`: an
        index written as a constant (`TYPE.NAME["gpu"]`) names that instance; `[each.key]` or
        `[count.index]` (Terraform lists them as references of their own) name the instance
        with the referring instance's own key."""
        entry = self.config.get(name)
        raw = [str(r) for r in entry.get("references", [])] if isinstance(entry, dict) else []
        found: dict[tuple[str, str], Any] = {}
        for ref in raw:
            m = _PLAN_REF.match(ref)
            if m is None or m.group(1) in _NOT_RESOURCES:
                continue
            key: Any = WHOLE
            if m.group(3) is not None:
                try:
                    key = json.loads(m.group(3))
                except ValueError:
                    key = Unknown(f"index {m.group(3)} is not a constant")
            if found.get((m.group(1), m.group(2)), WHOLE) is WHOLE:
                found[(m.group(1), m.group(2))] = key
        own = ("each.key" in raw or "count.index" in raw) and self.key is not None
        return [Ref(t, n, self.key if key is WHOLE and own else key)
                for (t, n), key in found.items()]

    def raw_strings(self, name: str) -> list[str]:
        value = self.get(name)
        return [value] if isinstance(value, str) else []


def _nth(value: Any, i: int) -> Any:
    if isinstance(value, list) and i < len(value):
        return value[i]
    return value if isinstance(value, dict) else None


_NOT_RESOURCES = {"var", "local", "module", "data", "each", "count", "path", "self",
                  "terraform"}
# TYPE.NAME, then an optional constant index: `TYPE.NAME["key"].id`.
_PLAN_REF = re.compile(r'^([A-Za-z_][\w-]*)\.([A-Za-z_][\w-]*)(?:\[("(?:[^"\\]|\\.)*"|\d+)\])?')


def _nodes(expr: Any) -> Iterator[Any]:
    """Every node of an expression tree, strings included, depth first."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if hasattr(node, "__dataclass_fields__"):
            stack.extend(reversed([getattr(node, f) for f in node.__dataclass_fields__]))
        elif isinstance(node, (tuple, list)):
            stack.extend(reversed(node))


def _traversals(expr: Any) -> list[tuple[str, str]]:
    """Every `root.name` an expression starts a traversal with, read syntactically."""
    return list(dict.fromkeys((n.target.name, n.name) for n in _nodes(expr)
                              if isinstance(n, GetAttr) and isinstance(n.target, Var)))


def expression_refs(expr: Expr | None,
                    key_of: Callable[[Expr], Any] | None = None) -> list[Ref]:
    """Every resource an HCL expression refers to, read syntactically, because a reference
    such as `TYPE.NAME.id` to a launch template has no value before apply. `key_of` evaluates
    an index (`[each.key]`) in the referring scope; without it an index is Unknown."""
    consumed: set[int] = set()
    out: list[Ref] = []
    for node in _nodes(expr):
        target = getattr(node, "target", None)
        if isinstance(node, (Index, Splat)) and isinstance(target, GetAttr) \
                and _resource_traversal(target):
            assert isinstance(target.target, Var)
            consumed.add(id(target))
            if isinstance(node, Splat):
                key: Any = SPLAT
            else:
                key = key_of(node.key) if key_of else Unknown("index not evaluated")
                if not isinstance(key, (str, int, float, Unknown)):
                    key = Unknown(f"index {key!r} is not a string or a number")
            out.append(Ref(target.target.name, target.name, key))
        elif _resource_traversal(node) and id(node) not in consumed:
            out.append(Ref(node.target.name, node.name, WHOLE))
    return list(dict.fromkeys(out))


def _resource_traversal(node: Any) -> bool:
    return isinstance(node, GetAttr) and isinstance(node.target, Var) and \
        node.target.name not in _NOT_RESOURCES


def module_refs(expr: Any) -> set[str]:
    """Names of the module calls whose outputs an expression uses (`module.sizes.x`)."""
    return {n for t, n in _traversals(expr) if t == "module"}


def expression_nodes(expr: Expr | None) -> Iterator[Any]:
    """Every node of an expression tree, strings included."""
    return _nodes(expr)


def expression_strings(expr: Expr | None) -> list[str]:
    """Every literal string inside an expression (file names, inline script text)."""
    return [n for n in _nodes(expr) if isinstance(n, str)]
