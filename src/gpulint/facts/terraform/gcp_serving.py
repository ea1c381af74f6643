"""Google serving resources with GPUs: Cloud Run services and Vertex AI dedicated resources.

Vertex AI runs prediction nodes on Compute Engine machine types (`machine_spec`); the catalog
has Compute Engine prices only, so a node is priced at the rate of the same machine and
accelerators, and the basis says it is a lower bound (Vertex AI charges more). Cloud Run bills
GPU instances by the second at its own rates (pricing/cloud_run.py): the facts carry what they
are applied to, the instance's GPUs, vCPUs, memory and zonal redundancy (cost.service_shape).
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.kubernetes.accelerators import quantity
from gpulint.facts.model_decl import ModelDecl, declare, declared_model
from gpulint.facts.terraform.common import EMPTY, base, capacity, fixed_count, scaling, shutdown
from gpulint.facts.terraform.gcp import gpu
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import ResourceInstance

_VERTEX_NOTE = ("Vertex AI {machine} priced at the Compute Engine rate of the same machine and "
                "accelerators; Vertex AI charges more, so this is a lower bound")


def _machine(res: Resource, spec: Any) -> None:
    """A Vertex machine_spec: a machine type plus accelerator_type/accelerator_count."""
    machine = spec.get("machine_type")
    atype, count = spec.get("accelerator_type"), spec.get("accelerator_count", 1)
    attached = [{"type": atype, "count": count}] if atype not in (
        None, "", "ACCELERATOR_TYPE_UNSPECIFIED") else []
    gpu(res, machine, ValueView({"guest_accelerator": attached}))
    if isinstance(machine, str):
        res.facts["cost.note"] = _VERTEX_NOTE.format(machine=machine)


def _dedicated(inst: ResourceInstance, dedicated: Any, location: Any,
               labels: Any = None) -> Resource:
    res = base(inst, "gcp", labels if labels is not None else inst.view.get("labels", {}),
               location, workload="inference")
    _machine(res, dedicated.first("machine_spec") or EMPTY)
    spot = dedicated.get("spot", False)
    res.set_fact("capacity", capacity(spot if isinstance(spot, Unknown) else bool(spot)))
    low = dedicated.get("min_replica_count", 1)
    scaling(res, low, dedicated.get("max_replica_count", low), low)
    shutdown(res)
    return res


def google_vertex_ai_deployment_resource_pool(inst: ResourceInstance) -> Resource | None:
    dedicated = inst.view.first("dedicated_resources")
    if dedicated is None:
        return None
    return _dedicated(inst, dedicated, inst.view.get("region"))


def _declared_model(view: Any) -> ModelDecl | None:
    """hugging_face_model_id, else the Model Garden name: publishers/P/models/M@VERSION."""
    hf = view.get("hugging_face_model_id")
    if isinstance(hf, str) and hf:
        return ModelDecl(hf, "hugging_face_model_id", purpose="inference")
    name = view.get("publisher_model_name")
    m = re.match(r"publishers/([^/]+)/models/([^@]+)(?:@(.+))?$", name) \
        if isinstance(name, str) else None
    if m:
        return ModelDecl(f"{m.group(1)}/{m.group(3) or m.group(2)}", "publisher_model_name",
                         purpose="inference")
    return None


def google_vertex_ai_endpoint_with_model_garden_deployment(
        inst: ResourceInstance) -> Resource:
    deploy = inst.view.first("deploy_config") or EMPTY
    dedicated = deploy.first("dedicated_resources")
    if dedicated is not None:
        res = _dedicated(inst, dedicated, inst.view.get("location"), {})
    else:
        # Model Garden deploys on the model's recommended machine, usually a GPU one.
        res = base(inst, "gcp", {}, inst.view.get("location"), workload="inference")
        why = Unknown("no dedicated_resources: the endpoint runs on Model Garden's default "
                      "machine for the model, which the code does not show")
        res.set_fact("instance.type", why)
        for name in ("gpu.model", "gpu.count", "gpu.memory_gib"):
            res.facts_by_name[name] = why
        res.facts["capacity"] = "on-demand"
        fixed_count(res, 1)
        shutdown(res)
    declare(res, declared_model(res) or _declared_model(inst.view))
    return res


def _cloud_run_gpus(template: Any) -> tuple[Any, Any, dict[str, Any]]:
    """(accelerator name, GPUs per instance, the limits of the container holding the GPU) of a
    service template; (None, None, {}) without."""
    selector = template.first("node_selector") or EMPTY
    accelerator = selector.get("accelerator")
    count: Any = None
    found: dict[str, Any] = {}
    for container in template.blocks("containers"):
        resources = container.first("resources") or EMPTY
        limits = resources.get("limits", {})
        if isinstance(limits, dict) and limits.get("nvidia.com/gpu") is not None:
            count, found = limits["nvidia.com/gpu"], limits
    return accelerator, count, found


def _limit(limits: dict[str, Any], key: str) -> float | None:
    """A container's cpu ("8", "8000m") or memory ("32Gi") limit, None when unset or unread
    (the price then takes the GPU minimum and says so)."""
    value = limits.get(key)
    if value is None or isinstance(value, Unknown):
        return None
    got = quantity(value, key == "memory")
    return None if isinstance(got, Unknown) else float(got)


def google_cloud_run_v2_service(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    template = v.first("template") or EMPTY
    accelerator, count, limits = _cloud_run_gpus(template)
    if accelerator is None and count is None:
        return None  # a CPU service
    res = base(inst, "gcp", v.get("labels", {}), v.get("location"), workload="inference")
    if isinstance(accelerator, Unknown):
        why = Unknown(f"GPU type: {accelerator.reason}")
        res.set_fact("instance.type", why)
        res.facts["gpu.model"] = why
        res.set_fact("gpu.count", _count(count))
    else:
        name = str(accelerator or "nvidia-l4")  # Cloud Run's GPU when none is selected
        spec = catalog.gcp_accelerator(name)
        res.facts["instance.type"] = f"cloud-run-{name}"
        res.set_fact("gpu.model", spec.gpu_model if spec else
                     Unknown(f"accelerator {name!r} is not in the gcp catalog"))
        res.facts["gpu.memory_gib"] = spec.gpu_memory_gib if spec else None
        res.set_fact("gpu.count", _count(count))
        res.facts["accelerator.kind"] = "gpu"
        zonal = template.get("gpu_zonal_redundancy_disabled", False)
        res.facts["cost.service_shape"] = {
            "service": "cloud-run", "accelerator": name, "gpus": res.facts.get("gpu.count"),
            "vcpu": _limit(limits, "cpu"), "memory_gib": _limit(limits, "memory"),
            # Zonal redundancy is on unless disabled; an unread setting prices the dearer rate.
            "zonal_redundancy": zonal is not True}
    res.facts["capacity"] = "on-demand"
    scale = template.first("scaling") or v.first("scaling") or EMPTY
    low = scale.get("min_instance_count", 0)
    scaling(res, low, scale.get("max_instance_count", Unknown(
        "max_instance_count not set: Cloud Run's default maximum applies, which the code "
        "does not show")), low)
    shutdown(res)
    return res


def _count(value: Any) -> Any:
    if value is None:
        return 1
    if isinstance(value, Unknown):
        return value
    try:
        return int(str(value))
    except ValueError:
        return Unknown(f"nvidia.com/gpu limit {value!r} is not a whole number")


BUILDERS = {
    "google_cloud_run_v2_service": google_cloud_run_v2_service,
    "google_vertex_ai_deployment_resource_pool": google_vertex_ai_deployment_resource_pool,
    "google_vertex_ai_endpoint_with_model_garden_deployment":
        google_vertex_ai_endpoint_with_model_garden_deployment,
}
