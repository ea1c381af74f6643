"""Google Cloud Terraform resources → GPU facts."""

from __future__ import annotations

from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import as_int, clean_tags
from gpulint.facts.terraform.common import (
    EMPTY,
    base,
    capacity,
    fixed_count,
    link,
    linked,
    memoised,
    node_pool,
    referenced,
    scaling,
    shutdown,
    taint_blocks,
    zone_count,
)
from gpulint.facts.terraform.gcp_tpu import topology_nodes, tpu_machine
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.terraform.views import ResourceInstance


def _accelerator_name(atype: str) -> str:
    """API names ("nvidia-tesla-t4"), full URLs, or Workbench enums ("NVIDIA_TESLA_T4")."""
    return atype.rsplit("/", 1)[-1].lower().replace("_", "-")


def _accelerators(view: Any, block: str = "guest_accelerator",
                  count_key: str = "count") -> tuple[Any, Any, Any, str | None]:
    """(gpu model, count, memory, API name) of attached accelerators; Nones when absent."""
    accs = view.blocks(block)
    if not accs:
        return None, None, None, None
    acc = accs[0]
    atype, count = acc.get("type"), acc.get(count_key, 1)
    if isinstance(atype, Unknown):
        return atype, atype, atype, None
    if atype is None:
        return None, None, None, None
    api_name = _accelerator_name(str(atype))
    spec = catalog.gcp_accelerator(api_name)
    if spec is None:
        u = Unknown(f"accelerator type {atype!r} is not in the gcp catalog")
        return u, as_int(count), u, None
    return spec.gpu_model, as_int(count), spec.gpu_memory_gib, api_name


def gpu(res: Resource, machine_type: Any, view: Any, block: str = "guest_accelerator",
        count_key: str = "count") -> None:
    """Bundled machine types carry their GPUs; n1 hosts take attached accelerators instead."""
    res.set_fact("instance.type", machine_type)
    model, count, mem, api_name = _accelerators(view, block, count_key)
    spec = catalog.instance("gcp", machine_type) if isinstance(machine_type, str) else None
    if spec is None and tpu_machine(res, machine_type):
        return
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


def _spot(scheduling: Any) -> Any:
    """scheduling.preemptible and provisioning_model = "SPOT" both mean spot capacity."""
    if scheduling is None:
        return False
    pre = scheduling.get("preemptible", False)
    model = scheduling.get("provisioning_model", "STANDARD")
    for value in (pre, model):
        if isinstance(value, Unknown):
            return value
    return bool(pre) or str(model).upper() == "SPOT"


def _vm(inst: ResourceInstance, view: Any, region: Any, address: str | None = None) -> Resource:
    """A VM described by an instance or an instance template."""
    res = base(inst, "gcp", view.get("labels", {}), region, address)
    gpu(res, view.get("machine_type"), view)
    res.set_fact("capacity", capacity(_spot(view.first("scheduling"))))
    return res


def google_compute_instance(inst: ResourceInstance) -> Resource:
    res = _vm(inst, inst.view, inst.view.get("zone"))
    fixed_count(res, 1)
    shutdown(res)
    return res


_MANAGERS = ("google_compute_instance_group_manager",
             "google_compute_region_instance_group_manager")


_TEMPLATES = ("google_compute_instance_template", "google_compute_region_instance_template")


def _used_templates(inst: ResourceInstance) -> set[str]:
    """Addresses of the instance templates that a group manager of the module uses."""
    used: set[str] = set()
    for (type_, _), peers in inst.peers.items():
        if type_ in _MANAGERS:
            for peer in peers:
                refs = [ref for view in [peer.view, *peer.view.blocks("version")]
                        for ref in view.refs("instance_template") if ref.type in _TEMPLATES]
                used.update(t.address for t in referenced(peer, refs))
    return used


def _template_of(inst: ResourceInstance) -> ResourceInstance | Unknown | None:
    unsure: Unknown | None = None
    for view in [inst.view, *inst.view.blocks("version")]:
        for kind in _TEMPLATES:
            found = link(inst, view, ("instance_template",), kind)
            if isinstance(found, ResourceInstance):
                return found
            unsure = unsure or found
    return unsure


def google_compute_instance_template(inst: ResourceInstance) -> Resource | None:
    used = memoised(inst, "gcp instance templates in use", lambda: _used_templates(inst))
    if inst.address in used:
        return None  # priced through the instance group manager that uses it
    res = _vm(inst, inst.view, inst.view.get("region"))
    fixed_count(res, 0)  # a template runs nothing by itself
    res.facts["shutdown"] = "none"
    return res


def google_compute_instance_group_manager(inst: ResourceInstance) -> Resource:
    v = inst.view
    template = _template_of(inst)
    where = v.get("zone") if inst.type == _MANAGERS[0] else v.get("region")
    if not isinstance(template, ResourceInstance):
        res = base(inst, "gcp", {}, where)
        why = Unknown(f"instance template: {template.reason}") if template is not None \
            else Unknown("instance template not found in this module")
        res.set_fact("instance.type", why)
        for f in ("gpu.model", "gpu.count", "gpu.memory_gib"):
            res.facts[f] = why
        res.facts["capacity"] = why
    else:
        res = _vm(inst, template.view, where)  # the template's labels go on the VMs
    size = v.get("target_size")
    policy = _autoscaler_policy(inst)
    # Regional managers spread target_size over their zones; it is the total, not per zone.
    if policy is not None:  # an autoscaler sets the size within its bounds; target_size starts it
        scaling(res, policy.get("min_replicas", 0), policy.get("max_replicas"), size)
        res.facts["replicas.source"] = "autoscaling_policy of the autoscaler that targets it"
    else:
        fixed_count(res, size if size is not None else
                    Unknown("no target_size: the size is set by an autoscaler"))
    shutdown(res)
    return res


_AUTOSCALERS = ("google_compute_autoscaler", "google_compute_region_autoscaler")


def _autoscaler_policy(group: ResourceInstance) -> Any:
    """The autoscaling_policy of the autoscaler in the same module whose target is this group."""
    for (type_, _name), peers in group.peers.items():
        for peer in peers if type_ in _AUTOSCALERS else []:
            if link(peer, peer.view, ("target",), group.type) is group:
                return peer.view.first("autoscaling_policy") or EMPTY
    return None


def _pool(inst: ResourceInstance, pool: Any, location: Any, address: str | None = None,
          extra_tags: Any = None) -> Resource:
    """A GKE node pool: a google_container_node_pool, an inline node_pool block of a cluster,
    or a cluster's default pool."""
    node = pool.first("node_config") or EMPTY
    tags = {**clean_tags(extra_tags), **clean_tags(node.get("resource_labels", {})),
            **clean_tags(node.get("labels", {}))}
    res = base(inst, "gcp", tags, location, address)
    gpu(res, node.get("machine_type", "e2-medium"), node)
    spot, pre = node.get("spot", False), node.get("preemptible", False)
    reclaimable = (spot if isinstance(spot, Unknown) else
                   pre if isinstance(pre, Unknown) else bool(spot) or bool(pre))
    res.set_fact("capacity", capacity(reclaimable))
    auto = pool.first("autoscaling")
    fixed = pool.get("node_count")
    if fixed is None:
        fixed = pool.get("initial_node_count", 1)
    policy = pool.first("placement_policy") or EMPTY
    slice_nodes = topology_nodes(policy.get("tpu_topology"), node.get("machine_type"))
    per_zone = True
    if auto is not None:
        # The declared size (node_count, else initial_node_count) is where the pool starts and
        # the expected size; without one, the minimum.
        initial = pool.get("node_count")
        per_zone = _autoscaling(res, auto, initial if initial is not None
                                else pool.get("initial_node_count"))
    elif slice_nodes is not None and pool.get("node_count") is None:
        fixed_count(res, slice_nodes)  # a multi-host slice: every VM of the topology
    else:
        fixed_count(res, fixed)
    zones = zone_count(location, pool.get("node_locations"))
    if zones and per_zone:
        res.facts["zones"] = zones
    shutdown(res)
    node_pool(res, node.get("labels", {}), taint_blocks(node.blocks("taint")), {
        "cloud.google.com/gke-nodepool": pool.get("name"),
        "cloud.google.com/gke-spot": "true" if spot is True else None,
        "cloud.google.com/gke-preemptible": "true" if pre is True else None,
        "cloud.google.com/gke-accelerator": res.facts.get("gpu.accelerator_type")
        or catalog.gke_accelerator_name(res.facts.get("gpu.model")),
        "node.kubernetes.io/instance-type": res.facts.get("instance.type")})
    return res


def _autoscaling(res: Resource, auto: Any, initial: Any) -> bool:
    """Sizes from an autoscaling block; whether they are per zone. min/max_node_count bound
    each zone of the pool (priced × its zones); total_min/total_max_node_count bound the whole
    pool across its zones, and the provider refuses the two kinds together."""
    total_lo, total_hi = auto.get("total_min_node_count"), auto.get("total_max_node_count")
    if total_lo is None and total_hi is None:
        scaling(res, auto.get("min_node_count", 0), auto.get("max_node_count", 0), initial)
        return True
    # initial_node_count is per zone, so it says nothing about a total: priced at the minimum.
    scaling(res, 0 if total_lo is None else total_lo, 0 if total_hi is None else total_hi)
    res.facts["replicas.source"] = \
        "autoscaling total_min_node_count/total_max_node_count: totals across the pool's zones"
    return False


def google_container_node_pool(inst: ResourceInstance) -> Resource:
    location = inst.view.get("location")
    if location is None:  # optional: the pool is then where its cluster is
        cluster = linked(inst, inst.view, ("cluster",), "google_container_cluster")
        location = cluster.view.get("location") if cluster is not None else None
    return _pool(inst, inst.view, location)


def google_container_cluster(inst: ResourceInstance) -> list[Resource]:
    v = inst.view
    location = v.get("location")
    labels = v.get("resource_labels", {})
    out = []
    if v.get("remove_default_node_pool") is not True and v.first("node_config") is not None:
        out.append(_pool(inst, v, location, f"{inst.address}.default_node_pool", labels))
    pools = v.blocks("node_pool")
    for i, pool in enumerate(pools):
        name = pool.get("name")
        key = f'"{name}"' if isinstance(name, str) else str(i)
        out.append(_pool(inst, pool, location, f"{inst.address}.node_pool[{key}]", labels))
    return out


# The notebook's VM bills at Compute Engine rates; Vertex AI's management fee for notebooks
# has no public per-hour figure bundled here, so the price leaves it out and says so.
_NOTEBOOK_NOTE = ("notebook VM at the Compute Engine rate of its machine and GPUs; any Vertex "
                  "AI Workbench management fee is not included")


def _notebook(inst: ResourceInstance, setup: Any, location: Any, block: str,
              default_idle: int | None = None) -> Resource:
    res = base(inst, "gcp", inst.view.get("labels", {}), location, workload="notebook")
    gpu(res, setup.get("machine_type"), setup, block, "core_count")
    res.facts["capacity"] = "on-demand"
    res.facts["cost.note"] = _NOTEBOOK_NOTE
    fixed_count(res, 1)
    metadata = setup.get("metadata", {})
    idle = metadata.get("idle-timeout-seconds", default_idle) if isinstance(metadata, dict) \
        else default_idle
    if isinstance(idle, Unknown):
        res.set_fact("shutdown", Unknown(f"idle timeout: {idle.reason}"))
        return res
    seconds = as_int(idle) if idle is not None else None
    shutdown(res, "idle" if isinstance(seconds, int) and seconds > 0 else None)
    return res


def google_workbench_instance(inst: ResourceInstance) -> Resource:
    setup = inst.view.first("gce_setup") or EMPTY
    # Workbench instances shut down after 180 idle minutes unless the metadata says otherwise.
    return _notebook(inst, setup, inst.view.get("location"), "accelerator_configs", 10800)


def google_notebooks_instance(inst: ResourceInstance) -> Resource:
    return _notebook(inst, inst.view, inst.view.get("location"), "accelerator_config")


# TPU slice names count TensorCores for v2-v5p (two per chip) and chips for v5e/v6e.
_CORES_PER_CHIP = {"v2": 2, "v3": 2, "v4": 2, "v5p": 2, "v5litepod": 1, "v6e": 1}
_TPU_TYPES = {"V2": "v2", "V3": "v3", "V4": "v4", "V5P": "v5p", "V5LITE_POD": "v5litepod",
              "V6E": "v6e"}


def _tpu_type(view: Any) -> Any:
    atype = view.get("accelerator_type")
    if atype is not None:
        return atype
    config = view.first("accelerator_config")
    if config is None:
        return "v2-8"  # google_tpu_v2_vm's default
    kind, topology = config.get("type"), config.get("topology")
    for value in (kind, topology):
        if isinstance(value, Unknown):
            return value
    family = _TPU_TYPES.get(str(kind).upper())
    if family is None or not isinstance(topology, str):
        return Unknown(f"TPU type {kind!r} with topology {topology!r} is not mapped")
    chips = 1
    for part in topology.lower().split("x"):
        chips *= int(part) if part.isdigit() else 0
    return f"{family}-{chips * _CORES_PER_CHIP[family]}"


def google_tpu(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "gcp", v.get("labels", {}), v.get("zone"))
    atype = _tpu_type(v)
    res.set_fact("instance.type", atype)
    spec = catalog.gcp_accelerator(atype) if isinstance(atype, str) else None
    if spec is None:
        why = atype if isinstance(atype, Unknown) else \
            Unknown(f"TPU type {atype!r} is not in the gcp catalog")
        for f in ("gpu.model", "gpu.count", "gpu.memory_gib"):
            res.facts[f] = why
        res.unknowns.append(("gpu.model", why.reason))
    else:
        res.facts.update({"gpu.model": spec.gpu_model, "gpu.count": spec.gpu_count,
                          "gpu.memory_gib": spec.gpu_memory_gib, "accelerator.kind": "tpu",
                          "tpu.slice": spec.name})
    sched = v.first("scheduling_config") or EMPTY
    pre, spot = sched.get("preemptible", False), sched.get("spot", False)
    res.set_fact("capacity", capacity(pre if isinstance(pre, Unknown) else
                                      (spot if isinstance(spot, Unknown) else bool(pre or spot))))
    fixed_count(res, 1)
    shutdown(res)
    return res


BUILDERS = {
    "google_compute_instance": google_compute_instance,
    "google_compute_instance_template": google_compute_instance_template,
    "google_compute_region_instance_template": google_compute_instance_template,
    "google_compute_instance_group_manager": google_compute_instance_group_manager,
    "google_compute_region_instance_group_manager": google_compute_instance_group_manager,
    "google_container_node_pool": google_container_node_pool,
    "google_container_cluster": google_container_cluster,
    "google_workbench_instance": google_workbench_instance,
    "google_notebooks_instance": google_notebooks_instance,
    "google_tpu_node": google_tpu,
    "google_tpu_v2_vm": google_tpu,
}
