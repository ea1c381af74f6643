"""Terraform resource instances → provider-neutral GPU facts, one small function per type."""

from __future__ import annotations

import re
from typing import Any, Callable

from gpulint import catalog
from gpulint.facts.common import (
    as_int, clean_tags, set_instance, shutdown_from_tags, workload_from,
)
from gpulint.facts.declared_model import from_tags
from gpulint.model import Resource, Unknown
from gpulint.terraform.module import BlockView, ResourceInstance

_ZONE_RE = re.compile(r"^([a-z]+-[a-z]+\d+)-[a-z]$")


def _region(inst: ResourceInstance, provider: str, explicit: Any = None) -> tuple[Any, str | None]:
    """Region from the resource, then its provider block, then the documented default."""
    value = explicit
    if isinstance(value, str) and value:
        m = _ZONE_RE.match(value)
        return (m.group(1) if m else value), "code"
    if isinstance(value, Unknown):
        return value, None
    cfg = inst.provider()
    if cfg is not None and isinstance(cfg.region, str) and cfg.region:
        m = _ZONE_RE.match(cfg.region)
        return (m.group(1) if m else cfg.region), "code"
    if cfg is not None and isinstance(cfg.region, Unknown):
        return Unknown(f"provider region: {cfg.region.reason}"), None
    return catalog.default_region(provider), "default"


def _tags(inst: ResourceInstance, value: Any) -> Any:
    cfg = inst.provider()
    defaults = dict(cfg.default_tags) if cfg else {}
    if isinstance(value, Unknown):
        return value
    return {**defaults, **clean_tags(value)}


def _base(inst: ResourceInstance, provider: str, tags: Any, region: Any = None) -> Resource:
    res = Resource(inst.address, inst.type, inst.path, inst.view.line, "terraform")
    res.facts["provider"] = provider
    reg, how = _region(inst, provider, region)
    res.set_fact("region", reg)
    res.facts["region.source"] = how
    res.set_fact("tags", tags)
    expansion = getattr(inst, "expansion_unknown", None)
    if expansion is not None:
        res.unknowns.append(("count", expansion.reason))
    known_tags = tags if isinstance(tags, dict) else {}
    wl = workload_from(known_tags, [inst.name, inst.address])
    res.facts["workload"] = wl[0] if wl else "unknown"
    res.facts["workload.source"] = wl[1] if wl else None
    decl = from_tags(known_tags, "tag")
    if decl:
        res.facts["model.declared"] = decl
    return res


def _capacity(spot: Any) -> Any:
    if isinstance(spot, Unknown):
        return Unknown(f"capacity: {spot.reason}")
    return "spot" if spot else "on-demand"


def _aws_instance(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    res = _base(inst, "aws", _tags(inst, v.get("tags", {})))
    set_instance(res, "aws", v.get("instance_type"))
    market = v.first("instance_market_options")
    spot: Any = False
    if market is not None:
        mt = market.get("market_type")
        spot = mt if isinstance(mt, Unknown) else (str(mt).lower() == "spot")
    res.set_fact("capacity", _capacity(spot))
    res.facts["replicas.desired"] = 1
    res.facts["shutdown"] = shutdown_from_tags(res.facts["tags"] if isinstance(res.facts["tags"], dict) else {}) or "none"
    return res


def _aws_launch_template(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    tags: dict[str, Any] = {}
    for spec in v.blocks("tag_specifications"):
        t = spec.get("tags", {})
        if isinstance(t, dict):
            tags.update(t)
    own = v.get("tags", {})
    res = _base(inst, "aws", _tags(inst, {**tags, **own} if isinstance(own, dict) else own))
    set_instance(res, "aws", v.get("instance_type"))
    market = v.first("instance_market_options")
    spot: Any = False
    if market is not None:
        mt = market.get("market_type")
        spot = mt if isinstance(mt, Unknown) else (str(mt).lower() == "spot")
    res.set_fact("capacity", _capacity(spot))
    # A template runs nothing by itself; node groups and ASGs that use it are priced instead.
    res.facts["replicas.desired"] = 0
    res.facts["shutdown"] = "none"
    return res


def _aws_eks_node_group(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    res = _base(inst, "aws", _tags(inst, v.get("tags", {})))
    labels = v.get("labels", {})
    if isinstance(labels, dict) and isinstance(res.facts["tags"], dict):
        wl = workload_from(labels, [])
        if wl and res.facts["workload"] == "unknown":
            res.facts["workload"], res.facts["workload.source"] = wl[0], f"label {wl[1][4:]}"
    types = v.get("instance_types")
    if isinstance(types, list) and types:
        itype: Any = types[0]
        res.facts["instance.alternatives"] = types[1:]
    elif isinstance(types, Unknown):
        itype = types
    else:
        itype = Unknown("instance type comes from the node group's launch template")
    set_instance(res, "aws", itype)
    ct = v.get("capacity_type", "ON_DEMAND")
    res.set_fact("capacity", _capacity(ct if isinstance(ct, Unknown) else str(ct).upper() == "SPOT"))
    scaling = v.first("scaling_config")
    _scaling(res, scaling.get("min_size") if scaling else 1, scaling.get("max_size") if scaling else 1,
             scaling.get("desired_size") if scaling else 1)
    res.facts["shutdown"] = "scale-to-zero" if res.facts.get("replicas.min") == 0 else "none"
    _node_pool(res, labels, _taint_blocks(v.blocks("taint")), {
        "eks.amazonaws.com/nodegroup": v.get("node_group_name"),
        "eks.amazonaws.com/capacityType": "SPOT" if res.facts["capacity"] == "spot" else "ON_DEMAND",
        "node.kubernetes.io/instance-type": itype})
    return res


def _scaling(res: Resource, lo: Any, hi: Any, desired: Any = None) -> None:
    res.set_fact("replicas.min", as_int(lo))
    res.set_fact("replicas.max", as_int(hi))
    res.facts["replicas.desired"] = as_int(desired) if desired is not None else as_int(lo)


_TAINT_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute",
                  "PREFER_NO_SCHEDULE": "PreferNoSchedule"}


def _node_pool(res: Resource, labels: Any, taints: list[dict[str, Any]],
               implicit: dict[str, Any]) -> None:
    """Labels and taints of the pool's nodes, for linking pods to it (gpulint.linking).
    `implicit` are the labels the cloud sets on every node of the pool."""
    known = {k: str(v) for k, v in implicit.items() if isinstance(v, (str, int))}
    res.facts["node.labels"] = {**known, **{k: str(v) for k, v in clean_tags(labels).items()}}
    res.facts["node.taints"] = taints


def _taint_blocks(blocks: list[BlockView]) -> list[dict[str, Any]]:
    out = []
    for t in blocks:
        effect = str(t.get("effect", ""))
        out.append({"key": t.get("key"), "value": t.get("value"),
                    "effect": _TAINT_EFFECTS.get(effect, effect)})
    return out


def _gcp_accelerators(view: BlockView) -> tuple[Any, Any, Any, str | None]:
    """(gpu model, count, memory, API name) from guest_accelerator blocks; Nones when absent."""
    accs = view.blocks("guest_accelerator")
    if not accs:
        return None, None, None, None
    acc = accs[0]
    atype, count = acc.get("type"), acc.get("count", 1)
    if isinstance(atype, Unknown):
        return atype, atype, atype, None
    api_name = str(atype).rsplit("/", 1)[-1]
    spec = catalog.gcp_accelerator(api_name)
    if spec is None:
        u = Unknown(f"accelerator type {atype!r} is not in the gcp catalog")
        return u, as_int(count), u, None
    return spec.gpu_model, as_int(count), spec.gpu_memory_gib, api_name


def _gcp_gpu(res: Resource, machine_type: Any, view: BlockView) -> None:
    """Bundled machine types carry their GPUs; n1 hosts take attached accelerators instead."""
    res.set_fact("instance.type", machine_type)
    model, count, mem, api_name = _gcp_accelerators(view)
    spec = catalog.instance("gcp", machine_type) if isinstance(machine_type, str) else None
    if spec is not None:
        res.facts.update({"gpu.model": spec.gpu_model, "gpu.count": spec.gpu_count,
                          "gpu.memory_gib": spec.gpu_memory_gib,
                          "accelerator.kind": spec.accelerator_kind})
        return
    if model is None:
        if isinstance(machine_type, Unknown):
            for f in ("gpu.model", "gpu.count", "gpu.memory_gib"):
                res.facts[f] = Unknown(f"machine type unknown: {machine_type.reason}")
        return
    res.set_fact("gpu.model", model)
    res.set_fact("gpu.count", count)
    res.facts["gpu.memory_gib"] = mem
    res.facts["gpu.attached"] = True
    res.facts["gpu.accelerator_type"] = api_name
    res.facts["accelerator.kind"] = "gpu"


def _gcp_spot(scheduling: BlockView | None) -> Any:
    if scheduling is None:
        return False
    pre = scheduling.get("preemptible", False)
    model = scheduling.get("provisioning_model", "STANDARD")
    if isinstance(pre, Unknown):
        return pre
    if isinstance(model, Unknown):
        return model
    return bool(pre) or str(model).upper() == "SPOT"


def _google_compute_instance(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    res = _base(inst, "gcp", _tags(inst, v.get("labels", {})), v.get("zone"))
    _gcp_gpu(res, v.get("machine_type"), v)
    res.set_fact("capacity", _capacity(_gcp_spot(v.first("scheduling"))))
    res.facts["replicas.desired"] = 1
    tags = res.facts["tags"] if isinstance(res.facts["tags"], dict) else {}
    res.facts["shutdown"] = shutdown_from_tags(tags) or "none"
    return res


def _google_container_node_pool(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    node = v.first("node_config") or BlockView(None, v.scope)
    labels = node.get("labels", {})
    res_labels = node.get("resource_labels", {})
    tags = {**clean_tags(res_labels), **clean_tags(labels)}
    res = _base(inst, "gcp", _tags(inst, tags), v.get("location"))
    _gcp_gpu(res, node.get("machine_type", "e2-medium"), node)
    spot: Any = node.get("spot", False)
    pre = node.get("preemptible", False)
    res.set_fact("capacity", _capacity(spot if isinstance(spot, Unknown) else
                                       (pre if isinstance(pre, Unknown) else bool(spot) or bool(pre))))
    auto = v.first("autoscaling")
    fixed = v.get("node_count")
    if fixed is None:
        fixed = v.get("initial_node_count", 1)
    if auto is not None:
        _scaling(res, auto.get("min_node_count", auto.get("total_min_node_count", 0)),
                 auto.get("max_node_count", auto.get("total_max_node_count", 0)), fixed)
    else:
        _scaling(res, fixed, fixed, fixed)
    location = v.get("location")
    zones = v.get("node_locations")
    if isinstance(zones, list) and zones:
        res.facts["zones"] = len(zones)
    elif isinstance(location, str) and not _ZONE_RE.match(location):
        # Regional pools run node_count nodes in each zone; GKE uses three zones by default.
        res.facts["zones"] = 3
    res.facts["shutdown"] = "scale-to-zero" if res.facts.get("replicas.min") == 0 else "none"
    _node_pool(res, labels, _taint_blocks(node.blocks("taint")), {
        "cloud.google.com/gke-nodepool": v.get("name"),
        "cloud.google.com/gke-spot": "true" if spot is True else None,
        "cloud.google.com/gke-preemptible": "true" if pre is True else None,
        "cloud.google.com/gke-accelerator": res.facts.get("gpu.accelerator_type")
        or _gke_accelerator_name(res.facts.get("gpu.model")),
        "node.kubernetes.io/instance-type": res.facts.get("instance.type")})
    return res


def _gke_accelerator_name(model: Any) -> str | None:
    """GKE labels GPU nodes with the accelerator's API name, bundled machine types too."""
    names = [a.name for a in catalog.gcp_accelerators()
             if a.accelerator_kind == "gpu" and a.gpu_model == model]
    return names[0] if len(names) == 1 else None


def _azure_spot(priority: Any) -> Any:
    return priority if isinstance(priority, Unknown) else str(priority).lower() == "spot"


def _azurerm_linux_virtual_machine(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    res = _base(inst, "azure", _tags(inst, v.get("tags", {})), v.get("location"))
    set_instance(res, "azure", v.get("size"))
    res.set_fact("capacity", _capacity(_azure_spot(v.get("priority", "Regular"))))
    res.facts["replicas.desired"] = 1
    tags = res.facts["tags"] if isinstance(res.facts["tags"], dict) else {}
    res.facts["shutdown"] = shutdown_from_tags(tags) or "none"
    return res


def _azurerm_kubernetes_cluster_node_pool(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    tags = {**clean_tags(v.get("node_labels", {})), **clean_tags(v.get("tags", {}))}
    res = _base(inst, "azure", _tags(inst, tags))
    set_instance(res, "azure", v.get("vm_size"))
    res.set_fact("capacity", _capacity(_azure_spot(v.get("priority", "Regular"))))
    autoscale = v.get("auto_scaling_enabled", v.get("enable_auto_scaling", False))
    count = v.get("node_count", 1)
    if autoscale is True:
        _scaling(res, v.get("min_count", 0), v.get("max_count", count), count)
    else:
        _scaling(res, count, count, count)
    res.facts["shutdown"] = "scale-to-zero" if res.facts.get("replicas.min") == 0 else "none"
    spot = res.facts["capacity"] == "spot"
    raw_taints = v.get("node_taints", [])
    taints = [_aks_taint(t) for t in (raw_taints if isinstance(raw_taints, list) else [])
              if isinstance(t, str)]
    if spot:  # AKS taints every spot node so that only tolerating pods land there
        taints.append({"key": "kubernetes.azure.com/scalesetpriority", "value": "spot",
                       "effect": "NoSchedule"})
    _node_pool(res, v.get("node_labels", {}), taints, {
        "kubernetes.azure.com/agentpool": v.get("name"),
        "kubernetes.azure.com/scalesetpriority": "spot" if spot else None,
        "node.kubernetes.io/instance-type": res.facts.get("instance.type")})
    return res


def _aks_taint(text: str) -> dict[str, Any]:
    """AKS writes taints as "key=value:Effect"."""
    kv, _, effect = text.partition(":")
    key, _, value = kv.partition("=")
    return {"key": key, "value": value, "effect": effect}


BUILDERS: dict[str, Callable[[ResourceInstance], Resource | None]] = {
    "aws_instance": _aws_instance,
    "aws_launch_template": _aws_launch_template,
    "aws_eks_node_group": _aws_eks_node_group,
    "google_compute_instance": _google_compute_instance,
    "google_container_node_pool": _google_container_node_pool,
    "azurerm_linux_virtual_machine": _azurerm_linux_virtual_machine,
    "azurerm_windows_virtual_machine": _azurerm_linux_virtual_machine,
    "azurerm_kubernetes_cluster_node_pool": _azurerm_kubernetes_cluster_node_pool,
}


def is_gpu(res: Resource) -> bool:
    """Keep resources with GPUs, and those whose GPUs could not be determined (so they are reported)."""
    count = res.facts.get("gpu.count")
    if isinstance(count, Unknown):
        return True
    return isinstance(count, (int, float)) and count > 0 and res.facts.get("accelerator.kind", "gpu") in {
        "gpu", "tpu", "inferentia", "trainium", "gaudi", "qualcomm_ai100"}


def build(inst: ResourceInstance) -> Resource | None:
    builder = BUILDERS.get(inst.type)
    if builder is None or inst.mode != "managed":
        return None
    res = builder(inst)
    if res is None or not is_gpu(res):
        return None
    return res
