"""Oracle Cloud (oracle/oci provider) Terraform resources → GPU facts.

A shape names the machine (BM.GPU.H100.8: bare metal, eight H100); the region comes from the
provider block (OCI resources name none), and OCI lists one price per shape for every
commercial region. Preemptible capacity (`preemptible_instance_config`, an OKE placement's
`preemptible_node_config`) is OCI's spot. Cost tags are `defined_tags` ("Namespace.key") and
`freeform_tags`; the freeform ones win on a clash, as the resource's own words.
"""

from __future__ import annotations

from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import clean_tags, set_instance
from gpulint.facts.terraform.common import (
    EMPTY,
    base,
    capacity,
    fixed_count,
    link,
    memoised,
    node_pool,
    referenced,
    shutdown,
)
from gpulint.model import Unknown
from gpulint.terraform.views import ResourceInstance

_CONFIG = "oci_core_instance_configuration"


def _tags(*views: Any) -> Any:
    """defined_tags then freeform_tags of each view in turn (later views win)."""
    out: dict[str, Any] = {}
    for view in views:
        for attr in ("defined_tags", "freeform_tags"):
            value = view.get(attr, {})
            if isinstance(value, Unknown):
                return value
            out.update(clean_tags(value))
    return out


def _preemptible(view: Any, block: str = "preemptible_instance_config") -> bool:
    return bool(view.blocks(block))


def oci_core_instance(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "oci", _tags(v))
    set_instance(res, "oci", v.get("shape"))
    res.set_fact("capacity", capacity(_preemptible(v)))
    fixed_count(res, 1)
    shutdown(res)
    return res


def _launch_details(config: ResourceInstance) -> Any:
    details = config.view.first("instance_details") or EMPTY
    return details.first("launch_details") or EMPTY


def _used_configs(inst: ResourceInstance) -> set[str]:
    """Addresses of the instance configurations an instance pool of the module launches."""
    used: set[str] = set()
    for (type_, _), pools in inst.peers.items():
        if type_ == "oci_core_instance_pool":
            for pool in pools:
                refs = pool.view.refs("instance_configuration_id")
                used.update(c.address for c in referenced(pool, refs))
    return used


def oci_core_instance_configuration(inst: ResourceInstance) -> Resource | None:
    used = memoised(inst, "oci instance configurations in use", lambda: _used_configs(inst))
    if inst.address in used:
        return None  # priced once, through the instance pool that launches it
    launch = _launch_details(inst)
    res = base(inst, "oci", _tags(inst.view, launch))
    set_instance(res, "oci", launch.get("shape"))
    res.set_fact("capacity", capacity(_preemptible(launch)))
    fixed_count(res, 0)  # a configuration runs nothing by itself
    res.facts["shutdown"] = "none"
    return res


def oci_core_instance_pool(inst: ResourceInstance) -> Resource:
    v = inst.view
    config = link(inst, v, ("instance_configuration_id",), _CONFIG)
    launch = _launch_details(config) if isinstance(config, ResourceInstance) else EMPTY
    res = base(inst, "oci", _tags(launch, v))
    if isinstance(config, ResourceInstance):
        shape = launch.get("shape") or Unknown(f"{config.address} sets no launch_details shape")
        spot = _preemptible(launch)
    else:
        why = config.reason if isinstance(config, Unknown) else \
            "its instance configuration is not in this module"
        shape, spot = Unknown(f"shape comes from an instance configuration: {why}"), False
    set_instance(res, "oci", shape)
    res.set_fact("capacity", capacity(spot))
    fixed_count(res, v.get("size", 0))
    shutdown(res)
    return res


def oci_containerengine_node_pool(inst: ResourceInstance) -> Resource:
    v = inst.view
    details = v.first("node_config_details") or EMPTY
    # Tags on node_config_details go on the nodes' instances: what the bill sees.
    res = base(inst, "oci", _tags(v, details))
    set_instance(res, "oci", v.get("node_shape"))
    placements = details.blocks("placement_configs")
    # Preemptible when every placement asks for it (a mix would need per-domain counts).
    res.set_fact("capacity", capacity(bool(placements) and all(
        _preemptible(p, "preemptible_node_config") for p in placements)))
    if details is not EMPTY:
        fixed_count(res, details.get("size", 0))
    else:  # the older form: nodes per subnet
        per_subnet, subnets = v.get("quantity_per_subnet", 0), v.get("subnet_ids", [])
        n: Any = per_subnet * len(subnets) if isinstance(per_subnet, int) and \
            isinstance(subnets, list) else Unknown("quantity_per_subnet × subnet_ids unknown")
        fixed_count(res, n)
    shutdown(res)
    labels = {str(b.get("key")): b.get("value") for b in v.blocks("initial_node_labels")
              if isinstance(b.get("key"), str)}
    node_pool(res, labels, [], {"node.kubernetes.io/instance-type":
                                res.facts.get("instance.type")})
    return res


BUILDERS = {
    "oci_core_instance": oci_core_instance,
    "oci_core_instance_configuration": oci_core_instance_configuration,
    "oci_core_instance_pool": oci_core_instance_pool,
    "oci_containerengine_node_pool": oci_containerengine_node_pool,
}
