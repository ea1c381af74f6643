"""Checks of the `clusters:` section that a schema cannot make (config/load.py runs them with
the schema's): unique names, well-formed taints."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_TAINT = re.compile(r"^(?P<key>[^=:\s]+)(=(?P<value>[^:\s]*))?:(?P<effect>NoSchedule|"
                    r"PreferNoSchedule|NoExecute)$")


def parse_taint(text: str) -> dict[str, str | None] | None:
    """`key=value:Effect` or `key:Effect`, as kubectl and AKS write taints."""
    m = _TAINT.match(text)
    return {"key": m["key"], "value": m["value"], "effect": m["effect"]} if m else None


def problems(data: Mapping[str, Any], lines: Mapping[tuple[Any, ...], int]
             ) -> list[tuple[tuple[Any, ...], str, int | None]]:
    """What the schema cannot say: names are unique, taints are well formed."""
    found: list[tuple[tuple[Any, ...], str, int | None]] = []
    seen: set[str] = set()
    clusters = data.get("clusters")
    for i, c in enumerate(clusters if isinstance(clusters, list) else ()):
        if not isinstance(c, dict):
            continue
        name = c.get("name")
        if isinstance(name, str) and name in seen:
            keys: tuple[Any, ...] = ("clusters", i, "name")
            found.append((keys, f"cluster {name!r} is declared twice", lines.get(keys)))
        seen.add(str(name))
        pools = c.get("node_pools")
        for j, p in enumerate(pools if isinstance(pools, list) else ()):
            taints = p.get("taints") if isinstance(p, dict) else None
            for k, t in enumerate(taints if isinstance(taints, list) else ()):
                if isinstance(t, str) and parse_taint(t) is None:
                    keys = ("clusters", i, "node_pools", j, "taints", k)
                    found.append((keys, f"taint {t!r} is not key=value:Effect or key:Effect "
                                        "(Effect: NoSchedule, PreferNoSchedule or NoExecute)",
                                  lines.get(keys)))
    return found
