"""Module calls gpulint does not follow, reported once per module source.

A repository calls the same registry modules (VPC, IAM, buckets) many times; one line per
source, with the number of calls, says what `terraform init` would change without burying the
rest of the report. A local source whose directory is missing is a broken path, not a remote
module, and is named as such.
"""

from __future__ import annotations

import os
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.module import ModuleCallNote, RemoteCall


def _is_local(source: Any) -> bool:
    return isinstance(source, str) and source.startswith(("./", "../"))


def _key(call: RemoteCall) -> tuple[str, str]:
    """Calls with one key are one line: the directory a local source names, else the source."""
    if _is_local(call.source):
        return "local", os.path.normpath(os.path.join(os.path.dirname(call.path), call.source))
    if isinstance(call.source, Unknown):
        return "unknown", call.source.reason
    return ("remote", call.source) if isinstance(call.source, str) else ("none", "")


def _calls(n: int) -> str:
    return "1 call" if n == 1 else f"{n} calls"


def _reason(call: RemoteCall, n: int) -> str:
    kind, _ = _key(call)
    if kind == "local":
        return f"local module directory {call.source} does not exist ({_calls(n)})"
    if kind == "unknown":
        assert isinstance(call.source, Unknown)
        return f"module source unknown, {call.source.reason} ({_calls(n)})"
    if kind == "none":
        return f"module call without a source ({_calls(n)})"
    return (f"module source {call.source!r} is not local and not downloaded under "
            f".terraform/modules ({_calls(n)})")


def grouped_notes(calls: list[tuple[int, RemoteCall]]) -> list[tuple[int, RemoteCall,
                                                                      ModuleCallNote]]:
    """One note per source, at its first call (by load order `index`): (index, call, note)."""
    groups: dict[tuple[str, str], list[tuple[int, RemoteCall]]] = {}
    for index, call in sorted(calls, key=lambda item: item[0]):
        groups.setdefault(_key(call), []).append((index, call))
    out = []
    for members in groups.values():
        index, first = members[0]
        out.append((index, first, ModuleCallNote(first.address, first.path, first.line,
                                                 _reason(first, len(members)))))
    return out
