"""Operators whose semantics need a few lines of code beyond generic reading: an AIBrix
RayClusterFleet (replicas of a whole RayCluster) and an NVIDIA NIMPipeline (a list of NIMService
specs, each switched on or off). docs/kubernetes.md lists the fields.
"""

from __future__ import annotations

from typing import Any

from gpulint.facts.kubernetes.kinds import (
    READERS as BUILT_IN,
)
from gpulint.facts.kubernetes.kinds import (
    Context,
    PodGroup,
    _count,
    as_dict,
    as_list,
    dig,
)
from gpulint.facts.kubernetes.serving_kinds import READERS as SERVING
from gpulint.model import Unknown


def _times(a: Any, b: Any) -> Any:
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return a if isinstance(a, Unknown) else b
    return a * b


def _ray_fleet(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """`spec.template.spec` is a RayCluster spec; the fleet runs `spec.replicas` of them."""
    fleet = _count(dig(doc, "spec", "replicas"), 1, "replicas")
    cluster = {"apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": doc.get("metadata"),
               "spec": as_dict(dig(doc, "spec", "template", "spec"))}
    groups = BUILT_IN["ray"](cluster, ctx)
    for g in groups:
        for attr in ("desired", "minimum", "maximum"):
            value = getattr(g, attr)
            if value is not None:
                setattr(g, attr, _times(value, fleet))
    return groups


def _nim_pipeline(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Each enabled `spec.services[]` entry is a NIMService named `name`."""
    groups: list[PodGroup] = []
    for svc in as_list(dig(doc, "spec", "services")):
        svc = as_dict(svc)
        if svc.get("enabled") is False:
            continue  # the operator creates nothing for it
        inner = {"apiVersion": "apps.nvidia.com/v1alpha1", "kind": "NIMService",
                 "metadata": doc.get("metadata"), "spec": as_dict(svc.get("spec"))}
        for g in SERVING["nim-service"](inner, ctx):
            g.suffix = str(svc.get("name") or "service")
            groups.append(g)
    return groups


READERS = {"ray-fleet": _ray_fleet, "nim-pipeline": _nim_pipeline}
