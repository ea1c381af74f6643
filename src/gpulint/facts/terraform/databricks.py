"""databricks_cluster → GPU facts for its workers and its driver.

Node types are the cloud's own instance names (g5.xlarge, Standard_NC6s_v3, a2-highgpu-1g), so
the cloud's catalog prices the VMs. Databricks' own DBU charge is not in the catalog and is not
included.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint import providers
from gpulint.fact_types import Resource
from gpulint.facts.common import as_int, set_instance
from gpulint.facts.terraform.common import base, mixed_capacity, scaling, shutdown
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.terraform.views import ResourceInstance

# A cluster's cloud block is named after the cloud: aws_attributes, gcp_attributes…
_ATTRIBUTES = tuple((c.name, f"{c.name}_attributes") for c in providers.CLOUDS)
_SPOT = {"SPOT", "SPOT_WITH_FALLBACK", "SPOT_AZURE", "SPOT_WITH_FALLBACK_AZURE",
         "PREEMPTIBLE_GCP", "PREEMPTIBLE_WITH_FALLBACK_GCP"}
_ON_DEMAND = {"ON_DEMAND", "ON_DEMAND_AZURE", "ON_DEMAND_GCP"}
_AWS_ZONE = re.compile(r"^([a-z]{2}(?:-gov)?-[a-z]+-\d)[a-z]$")
_GCP_ZONE = re.compile(r"^([a-z]+-[a-z]+\d)-[a-z]$")


def _cloud(view: Any, node_type: Any) -> str | None:
    for cloud, block in _ATTRIBUTES:
        if view.first(block) is not None:
            return cloud
    if isinstance(node_type, str):
        for cloud, _ in _ATTRIBUTES:
            if catalog.instance(cloud, node_type) is not None:
                return cloud
        if node_type.startswith("Standard_"):
            return "azure"
        if "." in node_type:
            return "aws"
    return None


def _availability(view: Any, cloud: str) -> tuple[Any, Any]:
    """(spot?, first_on_demand). Unset availability follows a workspace default that the
    code does not show, so it stays unknown."""
    attrs = view.first(dict(_ATTRIBUTES)[cloud])
    if attrs is None:
        return Unknown(f"{cloud}_attributes.availability not set: the workspace default "
                       "applies"), 1
    avail = attrs.get("availability")
    first = attrs.get("first_on_demand", 1)
    if avail is None:
        return Unknown(f"{cloud}_attributes.availability not set: the workspace default "
                       "applies"), first
    if isinstance(avail, Unknown):
        return avail, first
    if str(avail).upper() in _SPOT:
        return True, first
    if str(avail).upper() in _ON_DEMAND:
        return False, first
    return Unknown(f"availability {avail!r} is not recognised"), first


def _zone_region(view: Any, cloud: str) -> Any:
    """The region an availability zone names (aws_attributes.zone_id "us-west-2a", GCP's
    "us-central1-a"): the workspace region is not in the cluster's code, its zone may be.
    "auto" and unset say nothing."""
    attrs = view.first(dict(_ATTRIBUTES)[cloud])
    zone = attrs.get("zone_id") if attrs is not None else None
    if isinstance(zone, Unknown):
        return Unknown(f"zone_id: {zone.reason}")
    if not isinstance(zone, str):
        return None
    m = _AWS_ZONE.match(zone) if cloud == "aws" else _GCP_ZONE.match(zone)
    return m.group(1) if m else None


def _node(inst: ResourceInstance, cloud: str | None, node_type: Any, address: str) -> Resource:
    if cloud is None:
        # An unknown node type without a *_attributes block does not say which cloud it is on.
        res = base(inst, "databricks", inst.view.get("custom_tags", {}),
                   Unknown("the cloud of a cluster with an unknown node type is not known"),
                   address)
    else:
        res = base(inst, cloud, inst.view.get("custom_tags", {}),
                   _zone_region(inst.view, cloud), address)
    set_instance(res, cloud or "aws", node_type)  # node_type is unknown when cloud is None
    return res


def _capacity(res: Resource, spot: Any, on_demand_first: Any) -> None:
    if isinstance(spot, Unknown):
        res.set_fact("capacity", Unknown(f"capacity: {spot.reason}"))
    elif not spot:
        res.facts["capacity"] = "on-demand"
    else:
        mixed_capacity(res, on_demand_first, 0)


def databricks_cluster(inst: ResourceInstance) -> list[Resource]:
    v = inst.view
    node_type = v.get("node_type_id")
    if node_type is None and v.get("instance_pool_id") is not None:
        node_type = Unknown("node type comes from an instance pool")
    cloud = _cloud(v, node_type)
    if cloud is None and not isinstance(node_type, Unknown):
        return []  # a node type no catalog knows: not an accelerator type
    spot, first = _availability(v, cloud) if cloud else \
        (Unknown("the cloud of the cluster is not known"), 1)
    driver_type = v.get("driver_node_type_id", node_type)
    separate_driver = isinstance(driver_type, str) and driver_type != node_type
    auto = v.first("autoscale")
    if auto is not None:
        lo, hi = as_int(auto.get("min_workers", 1)), as_int(auto.get("max_workers"))
    else:
        lo = hi = as_int(v.get("num_workers", 0))
    # Unset means the cluster is never terminated for inactivity (provider docs); 0 also.
    minutes = v.get("autotermination_minutes", 0)
    out = []
    workers = _node(inst, cloud, node_type, inst.address)
    extra = 0 if separate_driver else 1  # the driver runs on the same node type
    scaling(workers, _plus(lo, extra), _plus(hi, extra))
    on_demand_first = first
    if separate_driver and isinstance(first, int) and first > 0:
        on_demand_first = first - 1  # the first on-demand node is the driver
    _capacity(workers, spot, on_demand_first)
    out.append(workers)
    if separate_driver:
        driver = _node(inst, cloud, driver_type, f"{inst.address}.driver")
        scaling(driver, 1, 1, 1)
        _capacity(driver, spot if not (isinstance(first, int) and first > 0) else False, 0)
        out.append(driver)
    for res in out:
        if isinstance(minutes, Unknown):
            res.set_fact("shutdown", Unknown(f"autotermination: {minutes.reason}"))
        else:
            shutdown(res, "idle" if as_int(minutes) not in (0, None) else None)
    return out


def _plus(value: Any, n: int) -> Any:
    return value + n if isinstance(value, int) else value


BUILDERS = {"databricks_cluster": databricks_cluster}
