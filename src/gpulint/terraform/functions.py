"""The Terraform built-in functions that real infrastructure code uses, as pure functions.

Each takes the list of evaluated arguments. Functions listed in `expressions._UNKNOWN_AWARE`
receive Unknown values and decide themselves; the others never see an Unknown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.files import yaml_decode


class FunctionError(Exception):
    pass


def _unknown_in(values: Any) -> Unknown | None:
    for v in values:
        if isinstance(v, Unknown):
            return v
    return None


def _str(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dict, list)):
        raise FunctionError("expected a string")
    return "" if v is None else str(v)


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


def _toset(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    unknown = _unknown_in(v)
    if unknown:
        return unknown
    out: list[Any] = []
    for item in v:
        if item not in out:
            out.append(item)
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
MAX_FORMAT_WIDTH = 10_000


def _range(args: list[Any]) -> list[int]:
    r = range(*(int(x) for x in args))
    if len(r) > MAX_RANGE:
        raise FunctionError(f"{len(r):,} elements exceed gpulint's limit of {MAX_RANGE:,}")
    return list(r)


def _format(args: list[Any]) -> Any:
    spec, rest = _str(args[0]), list(args[1:])

    def repl(m: re.Match[str]) -> str:
        if m.group(0) == "%%":
            return "%"
        width = re.match(r"[-+ 0#]?(\d*)", m.group(1))
        if width and width.group(1) and int(width.group(1)) > MAX_FORMAT_WIDTH:
            raise FunctionError(f"width {width.group(1)} exceeds gpulint's limit")
        if not rest:
            raise FunctionError("not enough arguments for format string")
        value = rest.pop(0)
        verb = m.group(2)
        if verb == "d":
            return f"%{m.group(1)}d" % int(value)
        if verb in "fFeEgG":
            return f"%{m.group(1)}{verb}" % float(value)
        if verb == "q":
            return json.dumps(_str(value))
        if verb in "vs":
            return f"%{m.group(1)}s" % _str(value) if m.group(1) else _str(value)
        if verb == "t":
            return _str(bool(value))
        return _str(value)

    return re.sub(r"%%|%([-+ 0#]?\d*(?:\.\d+)?)([a-zA-Z])", repl, spec)


def _replace(args: list[Any]) -> Any:
    s, old, new = (_str(a) for a in args)
    if len(old) > 1 and old.startswith("/") and old.endswith("/"):
        # Terraform regex syntax uses $1 for groups; Python uses \1.
        return re.sub(old[1:-1], re.sub(r"\$(\d+)", r"\\\1", new), s)
    return s.replace(old, new)


def _flatten(args: list[Any]) -> Any:
    v = args[0]
    if isinstance(v, Unknown):
        return v
    out: list[Any] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                out.append(item)

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

    unknown = has_unknown(v)
    return unknown if unknown else json.dumps(v, separators=(",", ":"), sort_keys=True)


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
    if isinstance(v, Unknown):
        return v
    out: list[Any] = []
    for x in v:
        if x not in out:
            out.append(x)
    return out


FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "try": _try,
    "can": _can,
    "merge": _merge,
    "lookup": _lookup,
    "coalesce": _coalesce,
    "concat": _concat,
    "format": _format,
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
    "replace": _replace,
    "contains": _contains,
    "max": _minmax(max),
    "min": _minmax(min),
    "abs": lambda a: abs(a[0]),
    "ceil": lambda a: math.ceil(float(a[0])),
    "floor": lambda a: math.floor(float(a[0])),
    "tostring": lambda a: _str(a[0]),
    "tonumber": lambda a: float(a[0]) if "." in _str(a[0]) else int(a[0]),
    "tobool": lambda a: a[0] if isinstance(a[0], bool) else _str(a[0]) == "true",
    "join": lambda a: _str(a[0]).join(_str(x) for x in a[1]),
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
    "formatlist": lambda a: [_format([a[0], *row]) for row in zip(*a[1:], strict=False)],
    "range": lambda a: _range(a),
    "sum": lambda a: sum(a[0]),
    "regex": lambda a: _regex(a),
    "can_regex": lambda a: re.search(_str(a[0]), _str(a[1])) is not None,
}


def _regex(args: list[Any]) -> Any:
    m = re.search(_str(args[0]), _str(args[1]))
    if not m:
        raise FunctionError("pattern did not match")
    if m.groupdict():
        return m.groupdict()
    if m.groups():
        return list(m.groups())
    return m.group(0)


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
