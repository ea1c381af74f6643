"""The one kind table: data/kinds.yaml, validated against schemas/kinds.schema.json, with the
Python readers it names. Nothing registers on import; a kind is read exactly one way.

A kind in the table is read by its reader, generically with the entry's hints, or not at all
(a documented non-workload). A kind outside the table is read generically: an object with a pod
template anywhere in its spec is a workload (generic.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from gpulint.facts.kubernetes import (
    batch_kinds,
    generic,
    kinds,
    operator_kinds,
    sagemaker_kinds,
    serving_kinds,
)
from gpulint.facts.kubernetes.kinds import Context, PodGroup, Reader, api_group
from gpulint.files.safe_yaml import safe_load

READERS: dict[str, Reader] = {**kinds.READERS, **serving_kinds.READERS, **batch_kinds.READERS,
                              **operator_kinds.READERS, **sagemaker_kinds.READERS}


@dataclass(frozen=True)
class Entry:
    group: str
    kind: str
    reader: str | None = None
    hints: generic.Hints | None = None
    not_workload: str | None = None
    workload: str | None = None
    referenced: bool = False


class KindTableError(ValueError):
    pass


def _text(name: str) -> str:
    return resources.files("gpulint").joinpath(name).read_text(encoding="utf-8")


def problems(data: Any, schema: bool = True) -> list[str]:
    """What is wrong with a kind table: schema errors (checked by the tests and when asked;
    a scan does not import jsonschema), unknown readers, duplicate keys."""
    out: list[str] = []
    if schema:
        from jsonschema import Draft202012Validator

        checker = Draft202012Validator(json.loads(_text("schemas/kinds.schema.json")))
        out = [f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
               for e in checker.iter_errors(data)]
        if out:
            return out
    seen: set[tuple[str, str]] = set()
    for i, item in enumerate(data["kinds"]):
        if "reader" in item and item["reader"] not in READERS:
            out.append(f"kinds[{i}]: reader {item['reader']!r} does not exist")
        for group in item.get("groups") or [item.get("group")]:
            for kind in item["kinds"]:
                if (group, kind) in seen:
                    out.append(f"kinds[{i}]: {group or 'core'}/{kind} is listed twice")
                seen.add((group, kind))
    return out


def build(data: Any, schema: bool = True) -> dict[tuple[str, str], Entry]:
    found = problems(data, schema)
    if found:
        raise KindTableError("; ".join(found))
    table: dict[tuple[str, str], Entry] = {}
    for item in data["kinds"]:
        hints = None
        if "generic" in item:
            g = item["generic"]
            hints = generic.Hints(list(g.get("templates", [])), list(g.get("replicas", [])),
                                  g.get("bare_resource", "nvidia.com/gpu"), bool(g.get("unit")),
                                  g.get("wrapped"), item.get("workload"), bool(g.get("flat")),
                                  g.get("per_node"), list(g.get("parameters", [])))
        for group in item.get("groups") or [item.get("group")]:
            for kind in item["kinds"]:
                table[(group, kind)] = Entry(group, kind, item.get("reader"), hints,
                                             item.get("not_workload"), item.get("workload"),
                                             bool(item.get("referenced")))
    return table


@cache
def table() -> dict[tuple[str, str], Entry]:
    # The shipped table is schema-checked by tests/test_kind_table.py.
    return build(safe_load(_text("data/kinds.yaml")), schema=False)


def entry(doc: dict[str, Any]) -> Entry | None:
    return table().get((api_group(doc), str(doc.get("kind"))))


def referenced(doc: dict[str, Any]) -> bool:
    found = entry(doc)
    return bool(found and found.referenced)


def pod_groups(doc: dict[str, Any], ctx: Context | None = None) -> list[PodGroup]:
    """The pod groups of any object: its kind's reader, generic reading with the kind's hints,
    or (kinds outside the table) generic reading unaided; none for non-workloads."""
    ctx = ctx or Context()
    found = entry(doc)
    if found is not None and found.not_workload:
        return []
    if found is not None and found.reader:
        return READERS[found.reader](doc, ctx)
    hints = found.hints if found is not None and found.hints else generic.Hints()
    groups = generic.read(doc, ctx, hints, pod_groups)
    if found is None:  # a kind gpulint has no entry for: say so on each resource
        for g in groups:
            g.read_as = (g.read_as or "").replace("read generically",
                                                  "(not in gpulint's kind table) read generically")
    return groups
