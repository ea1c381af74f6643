"""The instances `count` and `for_each` make of a resource or module call, with their keys.

Shared by the loader (which expands resources and calls) and by references between resources
(`TYPE.NAME[each.key]` names one instance of another resource), so both agree on the keys.
"""

from __future__ import annotations

import json
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import Block

# Bound on expansion, so `count = 1e9` cannot exhaust memory: instances per resource or call.
MAX_INSTANCES = 10_000


def instance_keys(block: Block, scope: Scope) -> list[tuple[Any, Scope]] | Unknown:
    """(key, scope) per instance: an int for count, a string for for_each, None for a block
    with neither; or why they are unknown."""
    if "count" in block.attributes:
        n = evaluate(block.attributes["count"].expr, scope)
        if isinstance(n, Unknown):
            return Unknown(f"count: {n.reason}")
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n) or n < 0:
            # Terraform rejects these at plan time; say so instead of guessing an instance count.
            return Unknown(f"count must be a whole number of 0 or more, got {n!r}")
        n = int(n)
        if n > MAX_INSTANCES:
            return Unknown(f"count = {n:,} exceeds gpulint's limit of {MAX_INSTANCES:,} instances")
        return [(i, scope.child(count={"index": i})) for i in range(max(n, 0))]
    if "for_each" in block.attributes:
        coll = evaluate(block.attributes["for_each"].expr, scope)
        if isinstance(coll, Unknown):
            return Unknown(f"for_each: {coll.reason}")
        if isinstance(coll, list):
            coll = {_key_text(v): v for v in coll}
        if not isinstance(coll, dict):
            return Unknown("for_each is not a map or set")
        if len(coll) > MAX_INSTANCES:
            return Unknown(f"for_each over {len(coll):,} items exceeds gpulint's limit of "
                           f"{MAX_INSTANCES:,} instances")
        return [(str(k), scope.child(each={"key": k, "value": v})) for k, v in coll.items()]
    return [(None, scope)]


def _key_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def address_suffix(key: Any) -> str:
    """`[0]`, `["gpu"]` or "" as Terraform writes an instance's key in its address."""
    if key is None:
        return ""
    return f"[{key}]" if isinstance(key, int) else f"[{json.dumps(key)}]"


def same_key(instance_key: Any, wanted: Any) -> bool:
    """Whether an index written in a reference names this instance (`[0]` and `["0"]` both
    name count instance 0; for_each keys are strings)."""
    if isinstance(instance_key, int):
        try:
            return not isinstance(wanted, bool) and int(wanted) == instance_key
        except (TypeError, ValueError):
            return False
    return isinstance(instance_key, str) and _key_text(wanted) == instance_key
