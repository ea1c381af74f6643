"""Blocks given as plain values, read through the same interface as `BlockView`.

Terraform plan JSON gives each resource's attributes as values (nested blocks are lists of
objects) and community-module inputs evaluate to maps; the fact builders read both exactly as
they read HCL blocks, so there is one builder per resource type, not one per input format.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.syntax import Expr, GetAttr, Var


class ValueView:
    """Attributes from a mapping; `unknown` mirrors it with True where a value is known only
    after apply (plan JSON `after_unknown`); `config` holds plan `expressions` for references."""

    block = None

    def __init__(self, values: Any, line: int = 1, unknown: Any = None, config: Any = None,
                 unknown_reason: str | None = None) -> None:
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
        return [ValueView(item, self.line, _nth(unk, i), _nth(cfg, i))
                for i, item in enumerate(items) if isinstance(item, dict)]

    def first(self, type_: str) -> ValueView | None:
        found = self.blocks(type_)
        return found[0] if found else None

    def refs(self, name: str) -> list[tuple[str, str]]:
        """Resources an attribute refers to, from plan `expressions.<name>.references`."""
        entry = self.config.get(name)
        out = []
        for ref in entry.get("references", []) if isinstance(entry, dict) else []:
            parts = str(ref).split(".")
            if len(parts) >= 2 and parts[0] not in {"var", "local", "module", "data", "each",
                                                     "count", "path"}:
                out.append((parts[0], parts[1].split("[", 1)[0]))
        return list(dict.fromkeys(out))

    def raw_strings(self, name: str) -> list[str]:
        value = self.get(name)
        return [value] if isinstance(value, str) else []


def _nth(value: Any, i: int) -> Any:
    if isinstance(value, list) and i < len(value):
        return value[i]
    return value if isinstance(value, dict) else None


_NOT_RESOURCES = {"var", "local", "module", "data", "each", "count", "path", "self",
                  "terraform"}


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


def expression_refs(expr: Expr | None) -> list[tuple[str, str]]:
    """(type, name) of every resource an HCL expression refers to, read syntactically, because
    a reference such as `TYPE.NAME.id` to a launch template has no value before apply."""
    return [(t, n) for t, n in _traversals(expr) if t not in _NOT_RESOURCES]


def module_refs(expr: Any) -> set[str]:
    """Names of the module calls whose outputs an expression uses (`module.sizes.x`)."""
    return {n for t, n in _traversals(expr) if t == "module"}


def expression_strings(expr: Expr | None) -> list[str]:
    """Every literal string inside an expression (file names, inline script text)."""
    return [n for n in _nodes(expr) if isinstance(n, str)]
