"""The Terraform built-in functions that real infrastructure code uses, as pure functions.

Each takes the list of evaluated arguments. Functions listed in `expressions._UNKNOWN_AWARE`
receive Unknown values and decide themselves; the others never see an Unknown.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform import bounds
from gpulint.terraform.files import yaml_decode
from gpulint.terraform.name_functions import NAME_FUNCTIONS
from gpulint.terraform.text_functions import (
    FunctionError,
    format_,
    join,
    regex_,
    replace,
)
from gpulint.terraform.text_functions import to_str as _str


def _unknown_in(values: Any) -> Unknown | None:
    for v in values:
        if isinstance(v, Unknown):
            return v
    return None


def _try(thunks: list[Callable[[], Any]]) -> Any:
    reason = "no argument could be evaluated"
    for thunk in thunks:
        value = thunk()
        if not isinstance(value, Unknown):
            return value
        reason = value.reason
    # try() catches errors, but a value unknown before apply stays unknown.
    return Unknown(reason)


def _can(thunks: list[Callable[[], Any]]) -> Any:
    value = thunks[0]()
    if isinstance(value, Unknown):
        if "not found" in value.reason or "out of range" in value.reason:
            return False
        return value
    return True


def _merge(args: list[Any]) -> Any:
    out: dict[str, Any] = {}
    for a in args:
        if isinstance(a, Unknown):
            return a
        if a is None:
            continue
        if not isinstance(a, dict):
            raise FunctionError("arguments must be maps or objects")
        out.update(a)
    return out


def _lookup(args: list[Any]) -> Any:
    m, key = args[0], args[1]
    if isinstance(m, Unknown):
        return m
    if isinstance(key, Unknown):
        return key
    if isinstance(m, dict) and _str(key) in m:
        return m[_str(key)]
    if len(args) > 2:
        return args[2]
    raise FunctionError(f"key {key!r} not found and no default")


def _coalesce(args: list[Any]) -> Any:
    for a in args:
        if isinstance(a, Unknown):
            return a  # an earlier unknown could be the non-null answer
        if a is not None and a != "":
            return a
    raise FunctionError("no non-null argument")


def _concat(args: list[Any]) -> Any:
    out: list[Any] = []
    for a in args:
        if isinstance(a, Unknown):
            return a
        bounds.need(len(out) + len(a), "list")
        out.extend(a)
    return out


def _on_known(fn: Callable[[Any], Any]) -> Callable[[list[Any]], Any]:
    """A one-argument function that passes an unknown collection through unchanged."""
    def run(args: list[Any]) -> Any:
        return args[0] if isinstance(args[0], Unknown) else fn(args[0])
    return run


_length = _on_known(len)
_keys = _on_known(lambda v: sorted(v.keys()))
_values = _on_known(lambda v: [v[k] for k in sorted(v.keys())])
_tolist = _on_known(list)


def _unique(items: list[Any]) -> list[Any]:
    """`items` without repeats, in first-seen order: by hash for scalars, so 100,000 numbers
    take linear time; pairwise only for a short list of collections."""
    if all(isinstance(i, (str, int, float, type(None))) for i in items):
        seen: set[tuple[bool, Any]] = set()
        out = []
        for item in items:
            key = (isinstance(item, bool), item)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out
    if len(items) > 1_000:
        raise FunctionError(f"{len(items):,} collections to compare pairwise (gpulint's limit "
                            "is 1,000)")
    bounds.charge(len(items) ** 2 // 2)
    unique: list[Any] = []
    for item in items:
        if item not in unique:
            unique.append(item)
    return unique


def _toset(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    unknown = _unknown_in(v)
    if unknown:
        return unknown
    out = _unique(list(v))
    return sorted(out, key=lambda x: _str(x)) if all(isinstance(i, str) for i in out) else out


def _tomap(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown) or isinstance(v, dict):
        return v
    raise FunctionError("argument is not a map")


def _element(args: list[Any]) -> Any:
    lst, idx = args
    if isinstance(lst, Unknown):
        return lst
    if isinstance(idx, Unknown):
        return idx
    if not lst:
        raise FunctionError("cannot use element() on an empty list")
    return lst[int(idx) % len(lst)]


def _contains(args: list[Any]) -> Any:
    coll, value = args
    if isinstance(coll, Unknown):
        return coll
    if isinstance(value, Unknown):
        return value
    if value in coll:
        return True
    unknown = _unknown_in(coll)
    return unknown if unknown else False


# Hostile input must not make one call build a huge value (docs/performance.md).
MAX_RANGE = 100_000


def _range(args: list[Any]) -> list[int]:
    r = range(*(int(x) for x in args))
    if len(r) > MAX_RANGE:
        raise FunctionError(f"{len(r):,} elements exceed gpulint's limit of {MAX_RANGE:,}")
    return list(r)


def _flatten(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    out: list[Any] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            bounds.charge(1)  # nested lists may share one list many times over
            if isinstance(item, list):
                walk(item)
            else:
                out.append(item)
                bounds.need(len(out), "list")

    walk(v)
    return out


def _num_list(args: list[Any]) -> list[float]:
    return [float(a) if isinstance(a, str) else a for a in args]


def _minmax(fn: Callable[..., Any]) -> Callable[[list[Any]], Any]:
    def run(args: list[Any]) -> Any:
        if not args:
            raise FunctionError("needs at least one argument")
        return fn(_num_list(args))
    return run


def _jsonencode(args: list[Any]) -> Any:
    v = args[0]

    def has_unknown(x: Any) -> Unknown | None:
        if isinstance(x, Unknown):
            return x
        if isinstance(x, dict):
            return _unknown_in(has_unknown(i) for i in x.values())
        if isinstance(x, list):
            return _unknown_in(has_unknown(i) for i in x)
        return None

    bounds.need(bounds.deep_size(v, bounds.MAX_STRING), "string")  # before walking it all
    unknown = has_unknown(v)
    if unknown:
        return unknown
    return json.dumps(v, separators=(",", ":"), sort_keys=True)


def _zipmap(args: list[Any]) -> Any:
    keys, values = args
    unknown = _unknown_in((keys, values))
    if unknown:
        return unknown
    return {_str(k): v for k, v in zip(keys, values, strict=False)}


def _one(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    if len(v) > 1:
        raise FunctionError("must be a list with at most one element")
    return v[0] if v else None


def _compact(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    return [x for x in v if x not in (None, "")]


def _distinct(args: list[Any]) -> Any:
    v = args[0]
    return v if isinstance(v, Unknown) else _unique(list(v))


FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "try": _try,
    "can": _can,
    "merge": _merge,
    "lookup": _lookup,
    "coalesce": _coalesce,
    "concat": _concat,
    "format": format_,
    "element": _element,
    "length": _length,
    "keys": _keys,
    "values": _values,
    "tomap": _tomap,
    "tolist": _tolist,
    "toset": _toset,
    "upper": lambda a: _str(a[0]).upper(),
    "lower": lambda a: _str(a[0]).lower(),
    "title": lambda a: _str(a[0]).title(),
    "trimspace": lambda a: _str(a[0]).strip(),
    "replace": replace,
    "contains": _contains,
    "max": _minmax(max),
    "min": _minmax(min),
    "abs": lambda a: abs(a[0]),
    "ceil": lambda a: math.ceil(float(a[0])),
    "floor": lambda a: math.floor(float(a[0])),
    "tostring": lambda a: _str(a[0]),
    "tonumber": lambda a: a[0] if isinstance(a[0], (int, float)) \
    and not isinstance(a[0], bool) else bounds.parse_number(_str(a[0])),
    "tobool": lambda a: a[0] if isinstance(a[0], bool) else _str(a[0]) == "true",
    "join": join,
    "split": lambda a: _str(a[1]).split(_str(a[0])),
    "substr": lambda a: _str(a[0])[int(a[1]):(None if int(a[2]) < 0 else int(a[1]) + int(a[2]))],
    "startswith": lambda a: _str(a[0]).startswith(_str(a[1])),
    "endswith": lambda a: _str(a[0]).endswith(_str(a[1])),
    "flatten": _flatten,
    "compact": _compact,
    "distinct": _distinct,
    "zipmap": _zipmap,
    "one": _one,
    "jsonencode": _jsonencode,
    "jsondecode": lambda a: _jsondecode(a),
    "yamldecode": lambda a: yaml_decode(_str(a[0])),
    "yamlencode": lambda a: _yamlencode(a),
    "formatlist": lambda a: [format_([a[0], *row]) for row in zip(*a[1:], strict=False)],
    "range": lambda a: _range(a),
    "sum": lambda a: sum(a[0]),
    "regex": regex_,
    **NAME_FUNCTIONS,
}


def _jsondecode(args: list[Any]) -> Any:
    try:
        return json.loads(_str(args[0]))
    except RecursionError:
        raise FunctionError("JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        raise FunctionError(f"not valid JSON ({e.msg}, line {e.lineno})") from None


def _yamlencode(args: list[Any]) -> Any:
    # Terraform writes YAML; JSON is YAML, and the text is only ever decoded again or scanned.
    return _jsonencode(args)
