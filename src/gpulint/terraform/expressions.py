"""Evaluate HCL expressions the way Terraform would, as far as static analysis allows.

Values are plain Python values; anything that cannot be known before `apply` (other resources'
attributes, data sources, unset variables) evaluates to `Unknown` with the reason, and unknown
propagates through every operator and function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform import bounds
from gpulint.terraform.access import get_attr, index, type_name
from gpulint.terraform.functions import FUNCTIONS
from gpulint.terraform.reading import FILE_FUNCTIONS
from gpulint.terraform.reading import Template as ReadTemplate
from gpulint.terraform.syntax import (
    BinOp,
    Call,
    Conditional,
    Expr,
    ForExpr,
    GetAttr,
    Index,
    Literal,
    ObjectExpr,
    Splat,
    Template,
    TupleExpr,
    UnaryOp,
    Unsupported,
    Var,
)
from gpulint.terraform.text_functions import FunctionError, to_str

Resolver = Callable[[str], Any]  # root name -> value (may be Unknown)


class Scope:
    """Names visible to an expression: var, local, each, count, module outputs, and for-locals."""

    def __init__(self, roots: dict[str, Any] | None = None, resolver: Resolver | None = None,
                 parent: Scope | None = None, files: Any = None) -> None:
        self.roots = roots or {}
        self.resolver = resolver
        self.parent = parent
        self.files = files  # a files.FileAccess for file() and the like; None: nothing read

    def file_access(self) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if scope.files is not None:
                return scope.files
            scope = scope.parent
        return None

    def child(self, **names: Any) -> Scope:
        return Scope(names, None, self)

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.roots:
                return scope.roots[name]
            if scope.resolver is not None:
                return scope.resolver(name)
            scope = scope.parent
        return Unknown(f"'{name}' is not defined here")


def first_unknown(values: Any) -> Unknown | None:
    for v in values:
        if isinstance(v, Unknown):
            return v
    return None


def evaluate(expr: Expr, scope: Scope) -> Any:
    """The value of `expr`, an Unknown with the reason when it cannot be known or is beyond
    gpulint's bounds. A call from outside evaluation gets a fresh work budget."""
    def run() -> Any:
        try:
            return _eval(expr, scope)
        except bounds.LimitExceeded as e:
            return Unknown(str(e))
    return bounds.evaluation(run)


def _eval(expr: Expr, scope: Scope) -> Any:
    if isinstance(expr, Literal):
        return bounds.check(expr.value)
    if isinstance(expr, Template):
        out = []
        size = 0
        for part in expr.parts:
            loop = _joined_loop(part)
            if loop is not None:  # a %{ for } directive: the text checked as it grows
                v = _for(loop, scope, MAX_STRING - size)
            else:
                v = part if isinstance(part, str) else _eval(part, scope)
            if isinstance(v, Unknown):
                return v
            out.append(_to_string(v))
            size += len(out[-1])
            if size > MAX_STRING:  # "${x}${x}" doubled forty times would fill the memory
                return Unknown(f"string longer than {MAX_STRING:,} characters")
        bounds.charge(1 + size // 64)
        return "".join(out)
    if isinstance(expr, Var):
        return scope.lookup(expr.name)
    if isinstance(expr, GetAttr):
        return get_attr(_eval(expr.target, scope), expr.name, expr)
    if isinstance(expr, Index):
        return index(_eval(expr.target, scope), _eval(expr.key, scope))
    if isinstance(expr, Splat):
        return _splat(expr, scope)
    if isinstance(expr, Conditional):
        cond = _eval(expr.cond, scope)
        if isinstance(cond, Unknown):
            return cond
        return _eval(expr.then if _truthy(cond) else expr.other, scope)
    if isinstance(expr, BinOp):
        return _binop(expr, scope)
    if isinstance(expr, UnaryOp):
        v = _eval(expr.operand, scope)
        if isinstance(v, Unknown):
            return v
        if expr.op == "!":
            return not _truthy(v)
        n = _number(v)
        return n if isinstance(n, Unknown) else -n
    if isinstance(expr, TupleExpr):
        return [_eval(i, scope) for i in expr.items]
    if isinstance(expr, ObjectExpr):
        obj: dict[str, Any] = {}
        for k, v in expr.items:
            key = _eval(k, scope)
            if isinstance(key, Unknown):
                return key
            obj[_to_string(key)] = _eval(v, scope)
        return obj
    if isinstance(expr, ForExpr):
        return _for(expr, scope)
    if isinstance(expr, Call):
        return _call(expr, scope)
    if isinstance(expr, Unsupported):
        return Unknown(f"{expr.what} is not evaluated")
    return Unknown("unsupported expression")


def _joined_loop(part: Any) -> ForExpr | None:
    """The loop of `join("", [for …])`, the form of a `%{ for }` directive, else None."""
    if isinstance(part, Call) and part.name == "join" and len(part.args) == 2 \
            and part.args[0] == Literal("") and isinstance(part.args[1], ForExpr) \
            and part.args[1].key is None and not part.expand_last:
        return part.args[1]
    return None


def _splat(expr: Splat, scope: Scope) -> Any:
    target = _eval(expr.target, scope)
    if isinstance(target, Unknown):
        return target
    items = target if isinstance(target, list) else ([] if target is None else [target])
    out = []
    for item in items:
        for kind, step in expr.steps:
            item = get_attr(item, step) if kind == "attr" else index(item, _eval(step, scope))
        out.append(item)
    return out


def _truthy(v: Any) -> bool:
    if isinstance(v, str):
        return v == "true"
    return bool(v)


def _number(v: Any) -> Any:
    if isinstance(v, bool):
        return Unknown("a bool is not a number")
    if isinstance(v, (int, float)):
        return bounds.check(v)
    if isinstance(v, str):
        return bounds.parse_number(v)
    return Unknown(f"{type_name(v)} is not a number")


def _to_string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if v is None:
        return ""
    return str(v)


def _binop(expr: BinOp, scope: Scope) -> Any:
    op = expr.op
    left = _eval(expr.left, scope)
    # Terraform evaluates both sides, but a known short-circuit answer is still the answer.
    if op == "&&" and not isinstance(left, Unknown) and not _truthy(left):
        return False
    if op == "||" and not isinstance(left, Unknown) and _truthy(left):
        return True
    right = _eval(expr.right, scope)
    unknown = first_unknown((left, right))
    if unknown:
        return unknown
    if op == "&&":
        return _truthy(left) and _truthy(right)
    if op == "||":
        return _truthy(left) or _truthy(right)
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    a, b = _number(left), _number(right)
    unknown = first_unknown((a, b))
    if unknown:
        return unknown
    if op == "*" and isinstance(a, int) and isinstance(b, int) \
            and a.bit_length() + b.bit_length() > bounds.MAX_INT_BITS:
        return Unknown(f"product of more than {bounds.MAX_INT_BITS:,} bits (gpulint's limit)")
    try:
        result = {
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
            "/": lambda: a / b, "%": lambda: a % b,
            "<": lambda: a < b, ">": lambda: a > b, "<=": lambda: a <= b, ">=": lambda: a >= b,
        }[op]()
    except ZeroDivisionError:
        return Unknown("division by zero")
    except OverflowError:
        return Unknown(f"the result of {op} is too large to be a number")
    result = bounds.check(result)
    if isinstance(result, float) and result.is_integer() and op != "/":
        return int(result)
    return result


# Iterations all for-expressions nested in one outermost for may run: `[for i in range(1e5) :
# [for j in range(1e5) : j]]` would otherwise build ten billion values.
MAX_FOR_ITERATIONS = 100_000
MAX_STRING = bounds.MAX_STRING
_for_work = {"depth": 0, "iterations": 0}


def _for(expr: ForExpr, scope: Scope, room: int | None = None) -> Any:
    """A for expression; with `room`, the text of `join("", [for …])` in a template (a
    `%{ for }` directive), at most `room` characters."""
    if _for_work["depth"] == 0:
        _for_work["iterations"] = 0
    _for_work["depth"] += 1
    try:
        return _for_body(expr, scope, room)
    finally:
        _for_work["depth"] -= 1


def _for_body(expr: ForExpr, scope: Scope, room: int | None) -> Any:
    coll = _eval(expr.collection, scope)
    if isinstance(coll, Unknown):
        return coll
    if isinstance(coll, dict):
        pairs = sorted(coll.items(), key=lambda kv: kv[0])  # lexical key order, as Terraform
    elif isinstance(coll, list):
        pairs = list(enumerate(coll))
    else:
        return Unknown("for expression over a value that is not a collection")
    tuple_out: list[Any] = []
    obj_out: dict[str, Any] = {}
    size = 0
    for k, v in pairs:
        bounds.charge(1)
        _for_work["iterations"] += 1
        if _for_work["iterations"] > MAX_FOR_ITERATIONS:
            return Unknown(f"for expressions iterate more than {MAX_FOR_ITERATIONS:,} times "
                           "(gpulint's limit)")
        names = {expr.value_var: v}
        if expr.key_var:
            names[expr.key_var] = k
        inner = scope.child(**names)
        if expr.cond is not None:
            c = _eval(expr.cond, inner)
            if isinstance(c, Unknown):
                return c
            if not _truthy(c):
                continue
        value = _eval(expr.value, inner)
        if room is not None:  # text, checked as it grows: nested loops cannot fill memory
            if isinstance(value, Unknown):
                return value
            try:
                tuple_out.append(to_str(value))
            except FunctionError as e:
                return Unknown(f"join(): {e}")
            size += len(tuple_out[-1])
            if size > room:
                return Unknown(f"string longer than {MAX_STRING:,} characters")
            continue
        if expr.key is None:
            tuple_out.append(value)
            continue
        key = _eval(expr.key, inner)
        if isinstance(key, Unknown):
            return key
        key = _to_string(key)
        if expr.group:
            obj_out.setdefault(key, []).append(value)
        else:
            obj_out[key] = value
    if room is not None:
        return "".join(tuple_out)
    return tuple_out if expr.key is None else obj_out


# Functions that must see unknown arguments rather than short-circuit on them.
_UNKNOWN_AWARE = {"try", "can", "coalesce", "merge", "concat", "tolist", "toset", "tomap",
                  "length", "keys", "values", "lookup", "contains", "element", "compact",
                  "flatten", "distinct", "zipmap", "jsonencode", "yamlencode", "one"}


def _call(expr: Call, scope: Scope) -> Any:
    name = expr.name.split("::")[-1]
    fn = FUNCTIONS.get(name)
    if fn is None and name not in FILE_FUNCTIONS:
        return Unknown(f"function {name}() is not evaluated by gpulint")
    if name in {"try", "can"} and fn is not None:
        return fn([lambda e=a: _attempt(e, scope) for a in expr.args])
    args = [_eval(a, scope) for a in expr.args]
    if fn is None:  # a function that reads files, through the scope's file access
        unknown = first_unknown(args)
        if unknown:
            return unknown
        read = FILE_FUNCTIONS[name](args, scope)
        # templatefile(): rendered here, with the variables it was given and nothing else.
        return _eval(read.expr, Scope(read.names)) if isinstance(read, ReadTemplate) else read
    if expr.expand_last and args:
        last = args.pop()
        if isinstance(last, Unknown):
            return last
        args.extend(last if isinstance(last, list) else list(last.values()))
    if name not in _UNKNOWN_AWARE:
        unknown = first_unknown(args)
        if unknown:
            return unknown
    try:
        bounds.charge(sum(bounds.cost(a) for a in args))
        result = fn(args)
        bounds.charge(bounds.cost(result))
    except (FunctionError, bounds.LimitExceeded) as e:
        return Unknown(f"{name}(): {e}")
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as e:
        return Unknown(f"{name}() could not be evaluated: {e}")
    return bounds.check(result)


def _attempt(expr: Expr, scope: Scope) -> Any:
    """An argument of try() or can(): an error in it is an Unknown, unless the work budget is
    spent (then the whole evaluation stops)."""
    try:
        return _eval(expr, scope)
    except bounds.LimitExceeded as e:
        if bounds.exhausted():
            raise
        return Unknown(str(e))
