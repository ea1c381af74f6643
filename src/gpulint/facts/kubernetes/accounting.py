"""Every piece of accelerator evidence in a Kubernetes object ends somewhere: in a GPU resource
built from the object, in a documented non-workload (the kind table's `not_workload`, a node
agent DaemonSet), or in a "could not evaluate" note naming what was seen and what is missing.

Notes are grouped in the report by their cause (the text after the last `: `), so a repository
with a hundred objects of one unread kind gets one line, not a hundred.
"""

from __future__ import annotations

from typing import Any

from gpulint.facts.kubernetes import registry
from gpulint.facts.kubernetes.kinds import PodGroup, api_group, as_dict, scalar
from gpulint.load.evidence import Evidence, EvidenceNote, find
from gpulint.load.kubernetes import K8sObject

# Outcomes, for the coverage benchmark and the fixture test.
RESOURCE, NON_WORKLOAD, NAMED = "resource", "non-workload", "named"


def address_of(obj: K8sObject) -> str:
    meta = as_dict(obj.doc.get("metadata"))
    name = scalar(meta.get("name")) or scalar(meta.get("generateName")) or "?"
    ns = scalar(meta.get("namespace"))
    kind = str(obj.doc.get("kind"))
    return obj.address or (f"{kind}/{ns}/{name}" if ns else f"{kind}/{name}")


def evidence(obj: K8sObject) -> list[Evidence]:
    from gpulint.facts.kubernetes.generic import unwrapped

    return find(unwrapped(obj.doc))


def non_workload(obj: K8sObject, found: list[Evidence]) -> str | None:
    """Why the object runs no accelerator workload of its own, if it is documented not to."""
    entry = registry.entry(obj.doc)
    if entry is not None and entry.not_workload:
        return entry.not_workload
    if obj.doc.get("kind") == "DaemonSet" and all(e.sort == "selector" for e in found):
        # Device plugins, drivers and exporters select GPU nodes but request no GPU.
        return "a node agent DaemonSet (device plugin, driver, exporter): selects GPU nodes, " \
               "requests no GPU"
    return None


def _cause(obj: K8sObject, groups: list[PodGroup], found: list[Evidence]) -> str:
    kind, group = str(obj.doc.get("kind")), api_group(obj.doc) or "core"
    known = registry.entry(obj.doc) is not None
    if not groups and known and all(e.sort == "profile" for e in found):
        return ("a resource profile whose definition (per-unit accelerators, node selector) is "
                "not in the scan; scan the chart values that define it")
    if not groups:
        where = "" if known else f", and kind {kind} ({group}) is not in gpulint's kind table"
        return ("accelerators named where no pod template is: the pods are built by an "
                f"operator from fields gpulint does not read{where}")
    if all(e.sort == "selector" for e in found):
        return ("pods select accelerator nodes but request no accelerator resource (the "
                "accelerators per pod are unknown)")
    return "accelerator fields outside the pod templates gpulint reads (their pods are unknown)"


def account(obj: K8sObject, groups: list[PodGroup], built: int) -> tuple[str | None,
                                                                         EvidenceNote | None]:
    """The outcome of the object's evidence (None: it holds none) and its note, if named."""
    found = evidence(obj)
    if not found:
        return None, None
    if built:
        return RESOURCE, None
    if non_workload(obj, found):
        return NON_WORKLOAD, None
    shown = found[0].describe()
    more = f" and {len(found) - 1} more" if len(found) > 1 else ""
    reason = f"{shown}{more}: {_cause(obj, groups, found)}"
    return NAMED, EvidenceNote(address_of(obj), obj.path, obj.line, reason)


def describe_all(found: list[Any]) -> str:
    return ", ".join(e.describe() for e in found)
