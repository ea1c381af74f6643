"""Azure Terraform resources → GPU facts."""

from __future__ import annotations

from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import clean_tags, set_instance
from gpulint.facts.terraform.common import (
    base,
    capacity,
    fixed_count,
    linked,
    node_pool,
    scaling,
    shutdown,
)
from gpulint.model import Unknown
from gpulint.terraform.views import ResourceInstance


def _location(view: Any) -> Any:
    """Azure accepts display names ("East US"); the canonical name is "eastus"."""
    value = view.get("location")
    return value.replace(" ", "").lower() if isinstance(value, str) else value


def _spot(priority: Any, spot_word: str = "spot") -> Any:
    if isinstance(priority, Unknown):
        return priority
    return str(priority).lower() == spot_word


def azurerm_virtual_machine(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "azure", v.get("tags", {}), _location(v))
    set_instance(res, "azure", v.get("size"))
    res.set_fact("capacity", capacity(_spot(v.get("priority", "Regular"))))
    fixed_count(res, 1)
    shutdown(res)
    return res


def azurerm_virtual_machine_scale_set(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "azure", v.get("tags", {}), _location(v))
    set_instance(res, "azure", v.get("sku", v.get("sku_name")))
    res.set_fact("capacity", capacity(_spot(v.get("priority", "Regular"))))
    fixed_count(res, v.get("instances", 0))
    shutdown(res)
    return res


def _aks_pool(inst: ResourceInstance, pool: Any, location: Any = None,
              address: str | None = None, extra_tags: Any = None) -> Resource:
    tags = {**clean_tags(extra_tags), **clean_tags(pool.get("node_labels", {})),
            **clean_tags(pool.get("tags", {}))}
    res = base(inst, "azure", tags, location if location is not None else _location(pool),
               address)
    set_instance(res, "azure", pool.get("vm_size"))
    res.set_fact("capacity", capacity(_spot(pool.get("priority", "Regular"))))
    autoscale = pool.get("auto_scaling_enabled", pool.get("enable_auto_scaling", False))
    count = pool.get("node_count", 1)
    if isinstance(autoscale, Unknown):
        scaling(res, autoscale, autoscale, count)
    elif autoscale is True:
        # With the autoscaler on, node_count is the pool's initial/current size (else min).
        scaling(res, pool.get("min_count", 0), pool.get("max_count", count),
                pool.get("node_count"))
    else:
        fixed_count(res, count)
    shutdown(res)
    spot = res.facts["capacity"] == "spot"
    raw_taints = pool.get("node_taints", [])
    taints = [_aks_taint(t) for t in (raw_taints if isinstance(raw_taints, list) else [])
              if isinstance(t, str)]
    if spot:  # AKS taints every spot node so that only tolerating pods land there
        taints.append({"key": "kubernetes.azure.com/scalesetpriority", "value": "spot",
                       "effect": "NoSchedule"})
    node_pool(res, pool.get("node_labels", {}), taints, {
        "kubernetes.azure.com/agentpool": pool.get("name"),
        "kubernetes.azure.com/scalesetpriority": "spot" if spot else None,
        "node.kubernetes.io/instance-type": res.facts.get("instance.type")})
    return res


def _aks_taint(text: str) -> dict[str, Any]:
    """AKS writes taints as "key=value:Effect"."""
    kv, _, effect = text.partition(":")
    key, _, value = kv.partition("=")
    return {"key": key, "value": value, "effect": effect}


def azurerm_kubernetes_cluster_node_pool(inst: ResourceInstance) -> Resource:
    # A pool has no location of its own: its nodes run in the cluster's region. The cluster is
    # read when kubernetes_cluster_id refers to one in the same module; otherwise the region
    # comes from the documented default (region.source says so).
    cluster = linked(inst, inst.view, ("kubernetes_cluster_id",), "azurerm_kubernetes_cluster")
    return _aks_pool(inst, inst.view, _location(cluster.view) if cluster else None)


def azurerm_kubernetes_cluster(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    pool = v.first("default_node_pool")
    if pool is None:
        return None
    return _aks_pool(inst, pool, _location(v), f"{inst.address}.default_node_pool",
                     v.get("tags", {}))


def azurerm_machine_learning_compute_instance(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "azure", v.get("tags", {}), _location(v), workload="notebook")
    set_instance(res, "azure", v.get("virtual_machine_size"))
    res.facts["capacity"] = "on-demand"
    fixed_count(res, 1)
    idle = v.get("idle_time_before_shutdown")
    if isinstance(idle, Unknown):
        res.set_fact("shutdown", Unknown(f"idle shutdown: {idle.reason}"))
    else:
        shutdown(res, "idle" if isinstance(idle, str) and idle.strip() else None)
    return res


def azurerm_machine_learning_compute_cluster(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "azure", v.get("tags", {}), _location(v))
    set_instance(res, "azure", v.get("vm_size"))
    # Azure ML's LowPriority VMs are evictable spot capacity at spot prices.
    res.set_fact("capacity", capacity(_spot(v.get("vm_priority", "Dedicated"), "lowpriority")))
    settings = v.first("scale_settings")
    if settings is None:
        why = Unknown("no scale_settings")
        scaling(res, why, why, why)
    else:
        scaling(res, settings.get("min_node_count", 0), settings.get("max_node_count"))
    shutdown(res)
    return res


BUILDERS = {
    "azurerm_linux_virtual_machine": azurerm_virtual_machine,
    "azurerm_windows_virtual_machine": azurerm_virtual_machine,
    "azurerm_linux_virtual_machine_scale_set": azurerm_virtual_machine_scale_set,
    "azurerm_windows_virtual_machine_scale_set": azurerm_virtual_machine_scale_set,
    "azurerm_orchestrated_virtual_machine_scale_set": azurerm_virtual_machine_scale_set,
    "azurerm_kubernetes_cluster": azurerm_kubernetes_cluster,
    "azurerm_kubernetes_cluster_node_pool": azurerm_kubernetes_cluster_node_pool,
    "azurerm_machine_learning_compute_instance": azurerm_machine_learning_compute_instance,
    "azurerm_machine_learning_compute_cluster": azurerm_machine_learning_compute_cluster,
}
