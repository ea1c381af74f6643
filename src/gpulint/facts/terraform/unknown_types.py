"""Node pools and instances whose machine type cannot be read, and nothing else says GPU.

Most such pools are CPU pools whose type comes from a variable left unset. Listing each in the
GPU table would guess ("GPU count unknown" beside a CPU pool); dropping them would hide a GPU
pool. They are named instead, one "could not evaluate" item per cause and kind, at the first
one, with how many there are and what would settle it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from gpulint.fact_types import Resource
from gpulint.model import Unknown
from gpulint.terraform.module import ModuleCallNote


@dataclass
class GroupNote(ModuleCallNote):
    """A note that stands for several resources: each one's (address, path, line)."""

    members: tuple[tuple[str, str, int], ...] = ()

# Resource types that are groups of nodes rather than single machines.
_POOL_WORDS = ("node_pool", "node_group", "nodepool", "nodegroup", "cluster", "scale_set",
               "autoscaling_group", "instance_group", "instance_pool", "fleet")


def _noun(res: Resource, n: int) -> str:
    pool = any(w in res.type for w in _POOL_WORDS)
    word = "node pool" if pool else "instance"
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _why(res: Resource) -> tuple[str, str]:
    """The unknown type's root cause and what follows it. The text report groups by the part
    before the first '; ' and after the last ': ' (a function's name, a resource's address);
    what follows may name its own fix (`set by prod.tfvars (not auto-loaded): pass …`)."""
    value = res.facts.get("instance.type")
    reason = value.reason if isinstance(value, Unknown) else "no machine type is set"
    first, _, rest = reason.partition("; ")
    return first.rsplit(": ", 1)[-1].strip(), rest


def notes(pools: list[Resource]) -> list[GroupNote]:
    """One note per module directory, kind and root cause, at the first pool in the order
    they were built: what one directory declares never changes another's note."""
    groups: dict[tuple[str, bool, str], list[Resource]] = {}
    for res in pools:
        pool = any(w in res.type for w in _POOL_WORDS)
        groups.setdefault((os.path.dirname(res.path), pool, _why(res)[0]), []).append(res)
    out = []
    for (_, pool, cause), members in groups.items():
        first = members[0]
        rest = _why(first)[1]
        out.append(GroupNote(
            first.address, first.path, first.line,
            f"{_noun(first, len(members))} of unknown machine type, might be GPU "
            f"{'pools' if pool else 'instances'} ({cause})" + (f"; {rest}" if rest else ""),
            tuple((r.address, r.path, r.line) for r in members)))
    return out
