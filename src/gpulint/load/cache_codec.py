"""The parse cache's entry format: JSON data, read back by a decoder that builds only syntax nodes,
plain values and parse outcomes, so a planted entry can run no code.

An entry names its format version, its cache key and its kind; one whose key is not the key it
is stored under (a row copied from another file) or whose shape is wrong in any way is ignored
and the file parsed again. Values JSON cannot hold as they are (YAML timestamps, `!!binary`,
`!!set`, non-string mapping keys, NaN) are written as one-key objects `{"\\u0000": [tag, …]}`,
and an entry says whether it holds any, so the common entry is loaded by the JSON parser alone.

Terraform nodes are arrays `[code, field…]` in the dataclass's field order; the decoder knows
what each field holds, so user data can never be read as a node or a node as user data.
"""

from __future__ import annotations

import base64
import datetime
import json
import math
from dataclasses import fields
from typing import Any

from gpulint.load.source import Parsed
from gpulint.terraform import syntax as s

FORMAT = 1
_TAG = "\u0000"


class EntryError(ValueError):
    """An entry that is not one this version wrote: the file is parsed again."""


# ---- plain values (YAML documents, Terraform literals) -------------------------------------

def _tagged(tag: str, *payload: Any) -> dict[str, Any]:
    return {_TAG: [tag, *payload]}


def _enc_value(v: Any, flags: list[bool]) -> Any:
    if v is None or isinstance(v, (bool, str, int)):
        return v
    if isinstance(v, float):
        if math.isfinite(v):
            return v
        flags[0] = True
        return _tagged("float", repr(v))
    if isinstance(v, list):
        return [_enc_value(x, flags) for x in v]
    if isinstance(v, dict):
        if all(isinstance(k, str) for k in v) and _TAG not in v:
            return {k: _enc_value(x, flags) for k, x in v.items()}
        flags[0] = True
        return _tagged("map", [[_enc_value(k, flags), _enc_value(x, flags)]
                               for k, x in v.items()])
    flags[0] = True
    if isinstance(v, tuple):
        return _tagged("tuple", [_enc_value(x, flags) for x in v])
    if isinstance(v, (set, frozenset)):
        return _tagged("set", [_enc_value(x, flags) for x in v])
    if isinstance(v, datetime.datetime):
        return _tagged("datetime", v.isoformat())
    if isinstance(v, datetime.date):
        return _tagged("date", v.isoformat())
    if isinstance(v, (bytes, bytearray)):
        return _tagged("bytes", base64.b64encode(v).decode())
    raise EntryError(f"a {type(v).__name__} cannot be cached")


def _dec_tag(tag: Any, payload: list[Any]) -> Any:
    if tag == "float" and payload[0] in ("nan", "inf", "-inf"):
        return float(payload[0])
    if tag == "map":
        return {_hashable(_dec_value(k)): _dec_value(x) for k, x in payload[0]}
    if tag == "tuple":
        return tuple(_dec_value(x) for x in payload[0])
    if tag == "set":
        return {_hashable(_dec_value(x)) for x in payload[0]}
    if tag == "datetime":
        return datetime.datetime.fromisoformat(_str(payload[0]))
    if tag == "date":
        return datetime.date.fromisoformat(_str(payload[0]))
    if tag == "bytes":
        return base64.b64decode(_str(payload[0]), validate=True)
    raise EntryError(f"unknown value tag {tag!r}")


def _dec_value(v: Any) -> Any:
    if isinstance(v, list):
        return [_dec_value(x) for x in v]
    if isinstance(v, dict):
        if _TAG in v:
            tagged = v[_TAG]
            if len(v) != 1 or not isinstance(tagged, list) or len(tagged) != 2:
                raise EntryError("malformed tagged value")
            return _dec_tag(tagged[0], tagged[1:])
        return {k: _dec_value(x) for k, x in v.items()}
    return v


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, dict, set)):
        raise EntryError("unhashable mapping key")
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise EntryError("expected a string")
    return v


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise EntryError("expected an integer")
    return v


def _opt_int(v: Any) -> int | None:
    return None if v is None else _int(v)


# ---- Terraform syntax trees ----------------------------------------------------------------

# Node code → class; each field is decoded by the reader its annotation names (_FIELD_READERS).
_NODES: dict[str, type[Any]] = {
    "L": s.Literal, "T": s.Template, "V": s.Var, "G": s.GetAttr, "I": s.Index, "S": s.Splat,
    "C": s.Call, "?": s.Conditional, "B": s.BinOp, "U": s.UnaryOp, "[": s.TupleExpr,
    "{": s.ObjectExpr, "F": s.ForExpr, "X": s.Unsupported,
}
_CODES = {cls: code for code, cls in _NODES.items()}


def _enc_expr(e: Any, flags: list[bool]) -> list[Any]:
    code = _CODES.get(type(e))
    if code is None:
        raise EntryError(f"not a syntax node: {type(e).__name__}")
    out: list[Any] = [code]
    for f in fields(e):
        out.append(_ENCODERS[str(f.type)](getattr(e, f.name), flags))
    return out


def _enc_part(p: Any, flags: list[bool]) -> Any:
    return p if isinstance(p, str) else _enc_expr(p, flags)


def _enc_step(step: tuple[str, Any], flags: list[bool]) -> list[Any]:
    kind, what = step
    return [kind, what if kind == "attr" else _enc_expr(what, flags)]


# Field annotations (as written in terraform/syntax.py) → encoder.
_ENCODERS: dict[str, Any] = {
    "Any": _enc_value, "str": lambda v, f: v, "bool": lambda v, f: v, "str | None": lambda v, f: v,
    "Expr": _enc_expr, "Expr | None": lambda v, f: None if v is None else _enc_expr(v, f),
    "tuple[str | Expr, ...]": lambda v, f: [_enc_part(p, f) for p in v],
    "tuple[tuple[str, Any], ...]": lambda v, f: [_enc_step(p, f) for p in v],
    "tuple[Expr, ...]": lambda v, f: [_enc_expr(p, f) for p in v],
    "tuple[tuple[Expr, Expr], ...]": lambda v, f: [[_enc_expr(a, f), _enc_expr(b, f)]
                                                   for a, b in v],
}

# Decoding is written out per node: a warm run decodes ~70,000 nodes per 1,000 files, and a
# generic field-by-field decoder took seven times as long as this.
_SCALARS = (str, int, float, bool, type(None))


def _dec_expr(v: Any) -> Any:
    if type(v) is not list or not v:
        raise EntryError("expected a syntax node")
    arity, build = _DECODE.get(v[0], (0, None))
    if build is None or len(v) != arity:
        raise EntryError("unknown syntax node, or wrong number of fields")
    return build(v)


def _opt_expr(v: Any) -> Any:
    return None if v is None else _dec_expr(v)


def _exprs(v: Any) -> tuple[Any, ...]:
    if type(v) is not list:
        raise EntryError("expected a list of nodes")
    return tuple([_dec_expr(x) for x in v])


def _parts(v: Any) -> tuple[Any, ...]:
    if type(v) is not list:
        raise EntryError("expected template parts")
    return tuple([x if type(x) is str else _dec_expr(x) for x in v])


def _step(v: Any) -> tuple[str, Any]:
    if type(v) is not list or len(v) != 2 or v[0] not in ("attr", "index"):
        raise EntryError("malformed splat step")
    return (v[0], _str(v[1]) if v[0] == "attr" else _dec_expr(v[1]))


def _pair(v: Any) -> tuple[Any, Any]:
    if type(v) is not list or len(v) != 2:
        raise EntryError("malformed object item")
    return _dec_expr(v[0]), _dec_expr(v[1])


def _bool(v: Any) -> bool:
    if type(v) is not bool:
        raise EntryError("expected true or false")
    return v


def _literal(v: list[Any]) -> s.Literal:
    x = v[1]
    return s.Literal(x if type(x) in _SCALARS else _dec_value(x))


def _seq(item: Any, v: Any) -> tuple[Any, ...]:
    if type(v) is not list:
        raise EntryError("expected a list")
    return tuple([item(x) for x in v])


# Node code → (array length, builder); tests check each against the dataclass's fields.
_DECODE: dict[str, tuple[int, Any]] = {
    "L": (2, _literal),
    "T": (2, lambda v: s.Template(_parts(v[1]))),
    "V": (2, lambda v: s.Var(_str(v[1]))),
    "G": (3, lambda v: s.GetAttr(_dec_expr(v[1]), _str(v[2]))),
    "I": (3, lambda v: s.Index(_dec_expr(v[1]), _dec_expr(v[2]))),
    "S": (3, lambda v: s.Splat(_dec_expr(v[1]), _seq(_step, v[2]))),
    "C": (4, lambda v: s.Call(_str(v[1]), _exprs(v[2]), _bool(v[3]))),
    "?": (4, lambda v: s.Conditional(_dec_expr(v[1]), _dec_expr(v[2]), _dec_expr(v[3]))),
    "B": (4, lambda v: s.BinOp(_str(v[1]), _dec_expr(v[2]), _dec_expr(v[3]))),
    "U": (3, lambda v: s.UnaryOp(_str(v[1]), _dec_expr(v[2]))),
    "[": (2, lambda v: s.TupleExpr(_exprs(v[1]))),
    "{": (2, lambda v: s.ObjectExpr(_seq(_pair, v[1]))),
    "F": (8, lambda v: s.ForExpr(None if v[1] is None else _str(v[1]), _str(v[2]),
                                 _dec_expr(v[3]), _dec_expr(v[4]), _opt_expr(v[5]),
                                 _opt_expr(v[6]), _bool(v[7]))),
    "X": (2, lambda v: s.Unsupported(_str(v[1]))),
}


def _enc_block(b: s.Block, flags: list[bool]) -> list[Any]:
    attrs = [[a.name, _enc_expr(a.expr, flags), a.line] for a in b.attributes.values()]
    return [b.type, list(b.labels), b.line, b.end_line, attrs,
            [_enc_block(c, flags) for c in b.blocks]]


def _dec_block(v: Any) -> s.Block:
    if not isinstance(v, list) or len(v) != 6 or not isinstance(v[1], list) \
            or not isinstance(v[4], list) or not isinstance(v[5], list):
        raise EntryError("malformed block")
    attrs: dict[str, s.Attribute] = {}
    for a in v[4]:
        if type(a) is not list or len(a) != 3 or type(a[0]) is not str:
            raise EntryError("malformed attribute")
        attrs[a[0]] = s.Attribute(a[0], _dec_expr(a[1]), _int(a[2]))
    return s.Block(_str(v[0]), [_str(x) for x in v[1]], _int(v[2]), _int(v[3]), attrs,
                   [_dec_block(c) for c in v[5]])


# ---- entries -------------------------------------------------------------------------------

def encode(key: str, value: Parsed | str) -> bytes:
    """The entry for `value` stored under `key`; raises EntryError when it cannot be cached."""
    flags = [False]
    entry: dict[str, Any] = {"format": FORMAT, "key": key}
    if isinstance(value, str):
        entry["text"] = value
    else:
        entry.update(kind=value.kind, diags=[list(d) for d in value.diags],
                     root=None if value.root is None else _enc_block(value.root, flags),
                     docs=[[line, _enc_value(doc, flags)] for line, doc in value.docs])
    entry["tagged"] = flags[0]
    try:
        return json.dumps(entry, ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode()
    except (ValueError, RecursionError) as e:  # integers beyond the digit limit, deep values
        raise EntryError(str(e)) from None


def decode(key: str, blob: bytes) -> Parsed | str:
    """The value an entry holds; raises EntryError for anything this version did not write
    under this key."""
    try:
        entry = json.loads(blob, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise EntryError(f"not JSON: {e}") from None
    if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
        raise EntryError("another format, or stored under another key")
    try:
        if "text" in entry:
            return _str(entry["text"])
        return _dec_parsed(entry)
    except (TypeError, ValueError, KeyError, IndexError, RecursionError) as e:
        raise EntryError(str(e)) from None


def _no_constant(name: str) -> Any:
    raise EntryError(f"{name} in an entry")  # this version writes NaN and infinity tagged


def _dec_parsed(entry: dict[str, Any]) -> Parsed:
    diags = []
    for d in entry["diags"]:
        if not isinstance(d, list) or len(d) != 3:
            raise EntryError("malformed diagnostic")
        diags.append((_opt_int(d[0]), _str(d[1]), _str(d[2])))
    tagged = entry["tagged"] is True
    docs = []
    for item in entry["docs"]:
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], dict):
            raise EntryError("malformed document")
        docs.append((_int(item[0]), _dec_value(item[1]) if tagged else item[1]))
    root = entry["root"]
    return Parsed(_str(entry["kind"]), root=None if root is None else _dec_block(root),
                  docs=docs, diags=diags)
