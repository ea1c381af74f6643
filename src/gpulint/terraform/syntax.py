"""HCL syntax tree of our own: expression nodes and blocks with their lines.

`lark_tree.py` builds these from python-hcl2's Lark parse tree; `expressions.py` evaluates them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class HclSyntaxError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


class _Node:
    """Pickled as (class, field values) rather than pickle's default for a dataclass (a new
    object, then its __dict__ filled from a dict of names): worker processes send these trees
    back, about 40,000 nodes per 1,000 files; this way they are 28 % smaller and load 1.25×
    faster, with fewer objects for the garbage collector to track (docs/performance.md). The
    parse cache stores them as JSON data instead (load/cache_codec.py)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return type(self), tuple([getattr(self, name) for name in self.__dataclass_fields__])  # type: ignore[attr-defined]


# ---- expression nodes -------------------------------------------------------------------

@dataclass(frozen=True)
class Literal(_Node):
    value: Any


@dataclass(frozen=True)
class Template(_Node):
    parts: tuple[str | Expr, ...]


@dataclass(frozen=True)
class Var(_Node):
    name: str  # a root name: var, local, each, count, module, data, or a resource type


@dataclass(frozen=True)
class GetAttr(_Node):
    target: Expr
    name: str


@dataclass(frozen=True)
class Index(_Node):
    target: Expr
    key: Expr


@dataclass(frozen=True)
class Splat(_Node):
    target: Expr
    steps: tuple[tuple[str, Any], ...]  # ("attr", name) | ("index", Expr)


@dataclass(frozen=True)
class Call(_Node):
    name: str
    args: tuple[Expr, ...]
    expand_last: bool = False


@dataclass(frozen=True)
class Conditional(_Node):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class BinOp(_Node):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class UnaryOp(_Node):
    op: str
    operand: Expr


@dataclass(frozen=True)
class TupleExpr(_Node):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class ObjectExpr(_Node):
    items: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True)
class ForExpr(_Node):
    key_var: str | None
    value_var: str
    collection: Expr
    value: Expr
    key: Expr | None  # set for object results
    cond: Expr | None
    group: bool = False


@dataclass(frozen=True)
class Unsupported(_Node):
    what: str


Expr = (Literal | Template | Var | GetAttr | Index | Splat | Call | Conditional | BinOp | UnaryOp
        | TupleExpr | ObjectExpr | ForExpr | Unsupported)


# ---- structure --------------------------------------------------------------------------

@dataclass
class Attribute(_Node):
    name: str
    expr: Expr
    line: int


@dataclass
class Block(_Node):
    type: str
    labels: list[str]
    line: int
    end_line: int
    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)

    def children(self, type_: str) -> list[Block]:
        return [b for b in self.blocks if b.type == type_]
