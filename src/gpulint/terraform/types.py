"""Variable type constraints: the optional() attribute defaults Terraform fills in.

`type = map(object({ size = optional(number, 1) }))` makes `each.value.size` 1 when a caller
leaves it out, and null (not a missing attribute) for an optional() without a default. Only
that is modelled; other conversions (string "2" to number 2) are left as written.
"""

from __future__ import annotations

from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import Call, Expr, Literal, ObjectExpr, TupleExpr, Var

_EMPTY = Scope({})


def _key(expr: Expr) -> str | None:
    if isinstance(expr, Literal) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, Var):
        return expr.name
    return None


def apply_type(value: Any, type_expr: Expr | None) -> Any:
    """`value` with the optional() defaults of `type_expr` filled in, recursively."""
    if isinstance(value, Unknown) or value is None or not isinstance(type_expr, Call):
        return value
    args = type_expr.args
    name = type_expr.name
    if name == "optional" and args:
        return apply_type(value, args[0])
    if name == "object" and args and isinstance(args[0], ObjectExpr) and isinstance(value, dict):
        out = dict(value)
        for k, attr_type in args[0].items:
            key = _key(k)
            if key is None:
                continue
            if out.get(key) is None and isinstance(attr_type, Call) \
                    and attr_type.name == "optional":
                out[key] = evaluate(attr_type.args[1], _EMPTY) if len(attr_type.args) > 1 \
                    else None
            if key in out:
                out[key] = apply_type(out[key], attr_type)
        return out
    if name == "map" and args and isinstance(value, dict):
        return {k: apply_type(v, args[0]) for k, v in value.items()}
    if name in {"list", "set"} and args and isinstance(value, list):
        return [apply_type(v, args[0]) for v in value]
    if name == "tuple" and args and isinstance(args[0], TupleExpr) and isinstance(value, list):
        types = args[0].items
        return [apply_type(v, types[i]) if i < len(types) else v for i, v in enumerate(value)]
    return value
