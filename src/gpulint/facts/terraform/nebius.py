"""Nebius AI Cloud (nebius/nebius provider) Terraform resources → GPU facts.

A machine is a platform and a preset (`resources = { platform = "gpu-h100-sxm", preset =
"8gpu-128vcpu-1600gb" }`); the catalog names it "<platform>_<preset>", as SkyPilot's Nebius
table does. Nebius lists one price per machine for every region, and its resources name a
project (`parent_id`), not a region. `preemptible = {...}` is its spot capacity; `labels` are the
cost labels, and a node group's `template.metadata.labels` are its nodes' Kubernetes labels.
"""

from __future__ import annotations

from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import clean_tags, set_instance
from gpulint.facts.terraform.common import base, capacity, fixed_count, node_pool, scaling, shutdown
from gpulint.model import Unknown
from gpulint.terraform.views import ResourceInstance

_TAINT_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute",
                  "PREFER_NO_SCHEDULE": "PreferNoSchedule"}


def _part(value: Any, key: str) -> Any:
    """A key of an object attribute that may be unknown or absent."""
    if isinstance(value, Unknown):
        return value
    return value.get(key) if isinstance(value, dict) else None


def machine(resources: Any) -> Any:
    """"gpu-h100-sxm_8gpu-128vcpu-1600gb" from a `resources` object, or why not."""
    platform, preset = _part(resources, "platform"), _part(resources, "preset")
    for name, value in (("platform", platform), ("preset", preset)):
        if isinstance(value, Unknown):
            return Unknown(f"resources.{name}: {value.reason}")
        if not isinstance(value, str) or not value:
            return Unknown(f"resources sets no {name}")
    return f"{platform}_{preset}"


def _spot(holder: Any) -> Any:
    """Preemptible when a `preemptible` object is set."""
    value = _part(holder, "preemptible")
    return value if isinstance(value, Unknown) else value is not None


def nebius_compute_v1_instance(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "nebius", v.get("labels", {}))
    set_instance(res, "nebius", machine(v.get("resources")))
    res.set_fact("capacity", capacity(_spot({"preemptible": v.get("preemptible")})))
    fixed_count(res, 1)
    shutdown(res)
    return res


def nebius_mk8s_v1_node_group(inst: ResourceInstance) -> Resource:
    v = inst.view
    template = v.get("template", {})
    res = base(inst, "nebius", v.get("labels", {}))
    set_instance(res, "nebius", machine(_part(template, "resources")))
    res.set_fact("capacity", capacity(_spot(template)))
    autoscaling = v.get("autoscaling")
    if isinstance(autoscaling, Unknown):
        scaling(res, autoscaling, autoscaling)
    elif isinstance(autoscaling, dict):
        scaling(res, autoscaling.get("min_node_count", 0), autoscaling.get("max_node_count"))
    else:
        fixed_count(res, v.get("fixed_node_count", 1))
    shutdown(res)
    labels = _part(_part(template, "metadata"), "labels")
    raw = _part(template, "taints")
    taints = [{"key": t.get("key"), "value": t.get("value"),
               "effect": _TAINT_EFFECTS.get(str(t.get("effect")), t.get("effect"))}
              for t in (raw if isinstance(raw, list) else []) if isinstance(t, dict)]
    node_pool(res, clean_tags(labels), taints, {})
    return res


BUILDERS = {
    "nebius_compute_v1_instance": nebius_compute_v1_instance,
    "nebius_mk8s_v1_node_group": nebius_mk8s_v1_node_group,
}
