"""GPU node groups read straight from calls to widely used community modules.

terraform-aws-modules/eks, terraform-google-modules/kubernetes-engine and Azure/aks are
registry modules that are usually not downloaded where gpulint runs. Their node-group inputs
say everything that costs money, so each group becomes a resource instance shaped like the
resource the module creates (aws_eks_node_group, google_container_node_pool,
azurerm_kubernetes_cluster_node_pool) and goes through the same fact builder. Defaults are the
modules' own documented defaults.

The Terraform loader returns calls it cannot follow as `RemoteCall`s; `expand_calls` turns the
recognised ones into instances and reports the rest as not evaluated.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from gpulint.facts.terraform.unfollowed import grouped_notes
from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.module import LoadResult, ModuleCallNote, RemoteCall
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import Peers, ProviderBlock, ResourceInstance

Expander = Callable[[str, str, int, dict[str, Any], dict[str, ProviderBlock], str],
                    list[ResourceInstance]]


def _instance(address: str, type_: str, path: str, line: int, values: Any,
              providers: dict[str, ProviderBlock], module_address: str,
              peers: Peers | None = None, config: Any = None) -> ResourceInstance:
    name = address.rsplit(".", 1)[-1].split("[", 1)[0]
    inst = ResourceInstance(address, type_, name, "managed", path,
                            ValueView(values, line, config=config), providers, module_address,
                            peers if peers is not None else Peers())
    inst.peers.setdefault((type_, name), []).append(inst)
    return inst


def _groups(value: Any) -> list[tuple[str, Any]] | Unknown:
    """A map of groups by key, or a list of groups keyed by their `name`."""
    if isinstance(value, Unknown):
        return value
    if isinstance(value, dict):
        return [(str(k), v) for k, v in value.items()]
    if isinstance(value, list):
        return [(str(g.get("name", i)) if isinstance(g, dict) else str(i), g)
                for i, g in enumerate(value)]
    return []


def _merge(*maps: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in maps:
        if isinstance(m, dict):
            out.update(m)
    return out


def _pick(group: Any, defaults: Any, key: str, fallback: Any) -> Any:
    for source in (group, defaults):
        if isinstance(source, dict) and source.get(key) is not None:
            return source[key]
    return fallback


def _expand(address: str, input_name: str, type_: str, path: str, line: int, groups: Any,
            shape: Callable[[Any], Any], providers: dict[str, ProviderBlock],
            module_address: str) -> list[ResourceInstance]:
    listed = _groups(groups)
    if isinstance(listed, Unknown):
        return [_instance(f"{address}.{input_name}", type_, path, line,
                          Unknown(f"{input_name}: {listed.reason}"), providers, module_address)]
    return [_instance(f"{address}.{input_name}[{json.dumps(key)}]", type_, path, line,
                      shape(group) if isinstance(group, dict) else
                      Unknown(f"{input_name}[{key!r}] is not an object"), providers,
                      module_address)
            for key, group in listed]


def _taints(taints: Any) -> list[Any]:
    """The EKS module's taints: a map of {key, value, effect} (v20), or a list before it."""
    listed = list(taints.values()) if isinstance(taints, dict) else \
        taints if isinstance(taints, list) else []
    return [t for t in listed if isinstance(t, dict)]


# terraform-aws-modules/eks v20: min 1, max 3, desired 1; EKS itself defaults to t3.medium
# on demand when instance_types and capacity_type are not given.
def eks(address: str, path: str, line: int, inputs: dict[str, Any],
        providers: dict[str, ProviderBlock], module_address: str) -> list[ResourceInstance]:
    defaults = inputs.get("eks_managed_node_group_defaults", {})

    def shape(group: dict[str, Any]) -> dict[str, Any]:
        return {
            "instance_types": _pick(group, defaults, "instance_types", ["t3.medium"]),
            "capacity_type": _pick(group, defaults, "capacity_type", "ON_DEMAND"),
            "scaling_config": [{"min_size": _pick(group, defaults, "min_size", 1),
                                "max_size": _pick(group, defaults, "max_size", 3),
                                "desired_size": _pick(group, defaults, "desired_size", 1)}],
            # A group's own labels/tags replace the defaults' (the module uses try(), not merge).
            "labels": _pick(group, defaults, "labels", {}),
            "taint": _taints(_pick(group, defaults, "taints", {})),
            "ami_type": _pick(group, defaults, "ami_type", None),
            "tags": _merge(inputs.get("tags"), _pick(group, defaults, "tags", {})),
        }

    managed = _expand(address, "eks_managed_node_groups", "aws_eks_node_group", path, line,
                      inputs.get("eks_managed_node_groups", {}), shape, providers,
                      module_address)
    return managed + _self_managed(address, path, line, inputs, providers, module_address)


def _self_managed(address: str, path: str, line: int, inputs: dict[str, Any],
                  providers: dict[str, ProviderBlock],
                  module_address: str) -> list[ResourceInstance]:
    """Self-managed groups are an ASG and the launch template the module makes for it; both
    are built, linked, so the ASG builder prices the group (defaults: m6i.large, 0–3, 1)."""
    defaults = inputs.get("self_managed_node_group_defaults", {})
    groups = _groups(inputs.get("self_managed_node_groups", {}))
    if isinstance(groups, Unknown):
        return [_instance(f"{address}.self_managed_node_groups", "aws_autoscaling_group", path,
                          line, Unknown(f"self_managed_node_groups: {groups.reason}"),
                          providers, module_address)]
    out = []
    for key, group in groups:
        if not isinstance(group, dict):
            continue
        where = f"{address}.self_managed_node_groups[{json.dumps(key)}]"
        peers = Peers()
        market = _pick(group, defaults, "instance_market_options", {})
        template = _instance(f"{where}.launch_template", "aws_launch_template", path, line,
                             {"instance_type": _pick(group, defaults, "instance_type",
                                                     "m6i.large"),
                              "instance_market_options": [market] if market else []},
                             providers, module_address, peers)
        asg: dict[str, Any] = {
            "min_size": _pick(group, defaults, "min_size", 0),
            "max_size": _pick(group, defaults, "max_size", 3),
            "desired_capacity": _pick(group, defaults, "desired_size", 1),
            "launch_template": [{}],
            "tag": [{"key": k, "value": v} for k, v in
                    _merge(inputs.get("tags"), _pick(group, defaults, "tags", {})).items()],
        }
        mixed = _pick(group, defaults, "mixed_instances_policy", None)
        if _pick(group, defaults, "use_mixed_instances_policy", False) is True and \
                isinstance(mixed, dict):
            asg["mixed_instances_policy"] = [{
                "instances_distribution": [mixed.get("instances_distribution") or {}],
                "launch_template": [{"override": mixed.get("override") or []}]}]
        link = {"launch_template": [{"id": {"references": [
            f"aws_launch_template.{template.name}"]}}]}
        out.append(_instance(where, "aws_autoscaling_group", path, line, asg, providers,
                             module_address, peers, link))
        out.append(template)
    return out


def _gke_autoscaling(pool: dict[str, Any]) -> dict[str, Any]:
    """The module's total_min_count/total_max_count replace its per-zone min/max_count."""
    if "total_min_count" in pool or "total_max_count" in pool:
        return {"total_min_node_count": pool.get("total_min_count"),
                "total_max_node_count": pool.get("total_max_count")}
    return {"min_node_count": pool.get("min_count", 1),
            "max_node_count": pool.get("max_count", 100)}


def gke(address: str, path: str, line: int, inputs: dict[str, Any],
        providers: dict[str, ProviderBlock], module_address: str) -> list[ResourceInstance]:
    regional = inputs.get("regional", True)
    zones = inputs.get("zones", [])
    if regional is True or isinstance(regional, Unknown):
        location = inputs.get("region")
    else:
        location = zones[0] if isinstance(zones, list) and zones else Unknown("zones not set")
    labels = inputs.get("node_pools_labels", {})

    def shape(pool: dict[str, Any]) -> dict[str, Any]:
        name = pool.get("name")
        count = pool.get("accelerator_count", 0)
        accel = ([{"type": pool.get("accelerator_type"), "count": count}]
                 if pool.get("accelerator_type") and count != 0 else [])
        pool_labels = _merge(labels.get("all") if isinstance(labels, dict) else None,
                             labels.get(name) if isinstance(labels, dict) else None)
        autoscaling = pool.get("autoscaling", True)
        own_zones = pool.get("node_locations")
        node_zones = (own_zones.split(",") if isinstance(own_zones, str) and own_zones
                      else zones if isinstance(zones, list) and zones else None)
        return {
            "name": name,
            "location": location,
            "node_locations": node_zones,
            "node_config": [{"machine_type": pool.get("machine_type", "e2-medium"),
                             "guest_accelerator": accel,
                             "spot": pool.get("spot", False),
                             "preemptible": pool.get("preemptible", False),
                             "labels": pool_labels}],
            "autoscaling": ([_gke_autoscaling(pool)] if autoscaling is not False else []),
            "node_count": pool.get("node_count", 1) if autoscaling is False else None,
            "initial_node_count": pool.get("initial_node_count", pool.get("min_count", 1)),
        }

    return _expand(address, "node_pools", "google_container_node_pool", path, line,
                   inputs.get("node_pools", []), shape, providers, module_address)


def aks(address: str, path: str, line: int, inputs: dict[str, Any],
        providers: dict[str, ProviderBlock], module_address: str) -> list[ResourceInstance]:
    location = inputs.get("location")
    tags = inputs.get("tags", {})

    def autoscale(source: dict[str, Any]) -> Any:
        return source.get("auto_scaling_enabled", source.get("enable_auto_scaling", False))

    def shape(pool: dict[str, Any]) -> dict[str, Any]:
        return {"name": pool.get("name"), "location": location, "vm_size": pool.get("vm_size"),
                "priority": pool.get("priority", "Regular"),
                "node_count": pool.get("node_count", 1),
                "auto_scaling_enabled": autoscale(pool),
                "min_count": pool.get("min_count"), "max_count": pool.get("max_count"),
                "node_labels": pool.get("node_labels", {}),
                "tags": _merge(tags, pool.get("tags"))}

    out = _expand(address, "node_pools", "azurerm_kubernetes_cluster_node_pool", path, line,
                  inputs.get("node_pools", {}), shape, providers, module_address)
    default_pool = {"location": location,
                    "vm_size": inputs.get("agents_size", "Standard_D2s_v3"),
                    "node_count": inputs.get("agents_count", 2),
                    "auto_scaling_enabled": autoscale(inputs),
                    "min_count": inputs.get("agents_min_count"),
                    "max_count": inputs.get("agents_max_count"),
                    "node_labels": inputs.get("agents_labels", {}),
                    "tags": _merge(tags, inputs.get("agents_tags"))}
    out.append(_instance(f"{address}.default_node_pool", "azurerm_kubernetes_cluster_node_pool",
                         path, line, default_pool, providers, module_address))
    return out


_KNOWN: list[tuple[re.Pattern[str], Expander]] = [
    (re.compile(r"(^|[/:])terraform-aws-modules/(terraform-aws-)?eks(/aws)?(\.git)?($|[/?])"),
     eks),
    (re.compile(r"(^|[/:])terraform-google-modules/(terraform-google-)?kubernetes-engine"
                r"(/google)?(\.git)?($|[/?])"), gke),
    (re.compile(r"(^|[/:])Azure/(terraform-azurerm-)?aks(/azurerm)?(\.git)?($|[/?])", re.I), aks),
]


# GKE cluster submodules take the same node_pools input as the root module.
_SAME_INPUTS = re.compile(r"//modules/(beta-)?(private|public)-cluster(-update-variant)?($|[/?])")


def recognise(source: Any) -> Expander | None:
    """The expander for a community module source, or None. Other submodules
    (`//modules/...`) take other inputs and are not recognised."""
    if not isinstance(source, str):
        return None
    for pattern, expander in _KNOWN:
        if pattern.search(source):
            if "//modules/" in source and not (expander is gke and _SAME_INPUTS.search(source)):
                return None
            return expander
    return None


def expand_calls(loaded: LoadResult) -> LoadResult:
    """The load result with recognised remote calls expanded into resource instances and the
    others noted as not evaluated (once per module source), each where the call came in the
    load."""
    resources, notes = list(loaded.resources), list(loaded.notes)
    diagnostics = list(loaded.diagnostics)
    pending: list[tuple[int, RemoteCall, ModuleCallNote]] = []
    unfollowed: list[tuple[int, RemoteCall]] = []
    # Last call first, so the positions of earlier ones still hold.
    for index, call in reversed(list(enumerate(loaded.remote_calls))):
        if recognise(call.source) is None:
            unfollowed.append((index, call))
            continue
        try:
            expanded = _expand_call(call)
        except RecursionError:
            diagnostics.append(Diagnostic(call.path, call.line, f"{call.address} not evaluated: "
                                          "expressions nested too deeply"))
            continue
        if isinstance(expanded, ModuleCallNote):
            pending.append((index, call, expanded))
        else:
            resources[call.position[0]:call.position[0]] = expanded
    for _, call, note in sorted(pending + grouped_notes(unfollowed), key=lambda p: -p[0]):
        notes.insert(call.position[1], note)
    return replace(loaded, resources=resources, notes=notes, diagnostics=diagnostics,
                   remote_calls=[])


def _expand_call(call: RemoteCall) -> list[ResourceInstance] | ModuleCallNote:
    known = recognise(call.source)
    assert known is not None  # expand_calls notes the calls it does not recognise
    if isinstance(call.instances, Unknown):
        return ModuleCallNote(call.address, call.path, call.line,
                              f"module call not expanded: {call.instances.reason}")
    out: list[ResourceInstance] = []
    for suffix, scope in call.instances:
        out += known(call.address + suffix, call.path, call.line, call.inputs(scope),
                     call.providers, call.module_address)
    for inst in out:
        inst.call_paths = call.call_paths
    return out
