"""Helm's `--set name=value`, as helm_release `set` blocks and helmfile `set:` entries pass it:
the name's path into the values and the value's type, read as Helm's strvals parser reads them
(helm/helm pkg/strvals/parser.go). Dots separate keys (`\\.` is a dot) and `[i]` indexes a list;
Helm refuses an index above 65,536 and a name nested more than 30 levels, and so does gpulint (an
index of 900,000,000 grew a list until the machine ran out of memory). A value is true or false,
null, a whole number not written with a leading zero, or else text; typed "string", always text.
"""

from __future__ import annotations

import re
from typing import Any

MAX_INDEX = 65_536  # strvals.MaxIndex
MAX_NESTED = 30  # strvals.MaxNestedNameLevel
_INT64 = (-(2**63), 2**63 - 1)


class Refused(ValueError):
    """A name Helm would refuse; the message says why."""


def path(name: str) -> tuple[Any, ...]:
    """The keys and list indexes a `--set` name walks."""
    out: list[Any] = []
    parts = re.split(r"(?<!\\)\.", name)
    if len(parts) - 1 > MAX_NESTED:
        raise Refused(f"nested more than {MAX_NESTED} levels, as Helm refuses")
    for part in parts:
        m = re.fullmatch(r"(.*?)((?:\[\d+\])*)", part.replace("\\.", "."))
        key, indexes = (m.group(1), m.group(2)) if m else (part, "")
        if key:
            out.append(key)
        for i in re.findall(r"\[(\d+)\]", indexes):
            if int(i) > MAX_INDEX:
                raise Refused(f"index {i} is above {MAX_INDEX:,}, as Helm refuses")
            out.append(int(i))
    return tuple(out)


def put(tree: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """`tree` with `value` at `keys`, lists grown with nulls up to an index."""
    if not keys:
        return value
    head, rest = keys[0], keys[1:]
    if isinstance(head, int):
        items = list(tree) if isinstance(tree, list) else []
        items += [None] * (head + 1 - len(items))
        items[head] = put(items[head], rest, value)
        return items
    node = dict(tree) if isinstance(tree, dict) else {}
    node[head] = put(node.get(head), rest, value)
    return node


def scalar(value: Any, as_string: bool = False) -> Any:
    """A value as Helm types it: only text is read; a list's items one by one."""
    if isinstance(value, list):
        return [scalar(v, as_string) for v in value]
    if not isinstance(value, str) or as_string:
        return value
    lowered = value.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "null":
        return None
    if value == "0":
        return 0
    whole = len(value) <= 20 and re.fullmatch(r"[+-]?\d+", value) and value[0] != "0"
    if whole and _INT64[0] <= int(value) <= _INT64[1]:
        return int(value)
    return value
