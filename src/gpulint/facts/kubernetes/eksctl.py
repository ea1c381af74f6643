"""eksctl `ClusterConfig`: each accelerator node group (`nodeGroups`, `managedNodeGroups`) is a
resource priced per node like a Terraform EKS node group, and a node pool pods can link to.

Read: metadata.region and tags; per group instanceType / instanceTypes /
instancesDistribution.instanceTypes, spot / instancesDistribution (on-demand base and
percentage), desiredCapacity / minSize / maxSize (eksctl's default is 2 nodes), labels, taints,
tags and availabilityZones.
"""

from __future__ import annotations

from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import shutdown_from_tags
from gpulint.facts.kubernetes.instance_pods import spec_of
from gpulint.facts.kubernetes.kinds import _count, as_dict, as_list, dig, scalar
from gpulint.facts.kubernetes.nodes import NodeTarget, link_inputs
from gpulint.facts.terraform.common import mixed_capacity
from gpulint.model import Unknown

EKSCTL_DEFAULT_NODES = 2  # eksctl creates 2 nodes when desiredCapacity is not set
_EFFECTS = {"NoSchedule", "PreferNoSchedule", "NoExecute"}


def _taints(value: Any) -> list[dict[str, Any]]:
    """A list of {key, value, effect}, or the older map `key: "value:Effect"`."""
    if isinstance(value, dict):
        out = []
        for key, spec in value.items():
            val, _, effect = str(spec).rpartition(":")
            out.append({"key": str(key), "value": val or None, "effect": effect})
        return out
    return [t for t in as_list(value) if isinstance(t, dict)]


def _types(group: dict[str, Any]) -> list[str]:
    dist = as_dict(group.get("instancesDistribution"))
    for value in (group.get("instanceTypes"), dist.get("instanceTypes")):
        if isinstance(value, list) and value:
            return [str(v) for v in value if scalar(v) is not None]
    single = scalar(group.get("instanceType"))
    return [single] if single and single != "mixed" else []


def _sizes(res: Resource, group: dict[str, Any]) -> None:
    desired = group.get("desiredCapacity")
    lo = _count(group.get("minSize"), None, "minSize")
    hi = _count(group.get("maxSize"), None, "maxSize")
    base = lo if isinstance(lo, int) else EKSCTL_DEFAULT_NODES
    want = _count(desired, base, "desiredCapacity")
    res.set_fact("replicas.desired", want)
    res.set_fact("replicas.min", lo if lo is not None else want)
    res.set_fact("replicas.max", hi if hi is not None else want)
    if desired is None and lo is None:
        res.facts["replicas.source"] = f"eksctl default {EKSCTL_DEFAULT_NODES} nodes"


def _capacity(res: Resource, group: dict[str, Any], managed: bool) -> str:
    dist = group.get("instancesDistribution")
    if isinstance(dist, dict):
        mixed_capacity(res, dist.get("onDemandBaseCapacity", 0),
                       dist.get("onDemandPercentageAboveBaseCapacity", 100))
        res.facts["capacity.source"] = "instancesDistribution"
        return "ON_DEMAND" if res.facts.get("capacity") == "on-demand" else "SPOT"
    spot = managed and group.get("spot") is True
    res.facts["capacity"] = "spot" if spot else "on-demand"
    res.facts["capacity.source"] = "spot: true" if spot else "no spot setting"
    return "SPOT" if spot else "ON_DEMAND"


def _group(obj: Any, cluster: str, region: Any, tags: dict[str, Any], section: str,
           group: dict[str, Any]) -> Resource | None:
    types = _types(group)
    specs = [s for s in (spec_of(t) for t in types) if s is not None and s.gpu_count > 0]
    if not specs:
        return None  # no accelerator instance type: a CPU node group
    name = str(scalar(group.get("name")) or "?")
    res = Resource(f"ClusterConfig/{cluster}/{section}/{name}", "ClusterConfig", obj.path,
                   obj.line, "kubernetes")
    first = specs[0]
    res.facts.update({"provider": "aws", "provider.cloud": "aws", "k8s.kind": "ClusterConfig",
                      "k8s.name": name, "instance.type": first.name,
                      "accelerator.kind": first.accelerator_kind, "gpu.count": first.gpu_count,
                      "node.gpu_count": first.gpu_count, "gpu.memory_gib": first.gpu_memory_gib})
    models = {s.gpu_model for s in specs}
    res.set_fact("gpu.model", first.gpu_model if len(models) == 1 else
                 Unknown(f"the node group mixes {', '.join(sorted(map(str, models)))}"))
    if len(types) > 1:
        res.facts["cost.note"] = f"priced as {first.name}, the first of {', '.join(types)}"
    if isinstance(region, str):
        res.facts["region"], res.facts["region.source"] = region, "code"
    else:
        res.set_fact("region", Unknown("metadata.region is not set"))
    _sizes(res, group)
    capacity_label = _capacity(res, group, section == "managedNodeGroups")
    zones = as_list(group.get("availabilityZones"))
    if zones:
        res.facts["zones.names"] = [str(z) for z in zones]
    labels = {str(k): str(v) for k, v in as_dict(group.get("labels")).items()}
    node_labels = {**labels, "alpha.eksctl.io/nodegroup-name": name,
                   "alpha.eksctl.io/cluster-name": cluster}
    if len(types) == 1:
        node_labels["node.kubernetes.io/instance-type"] = first.name
    if section == "managedNodeGroups":
        node_labels.update({"eks.amazonaws.com/nodegroup": name,
                            "eks.amazonaws.com/capacityType": capacity_label})
    res.facts["node.labels"] = node_labels
    link_inputs(res).node_target = NodeTarget(res.address, node_labels, {},
                                              _taints(group.get("taints")))
    all_tags = {**tags, **as_dict(group.get("tags")), **labels}
    res.facts["tags"] = all_tags
    res.facts["workload"], res.facts["workload.source"] = "unknown", None
    lo = res.facts.get("replicas.min")
    res.facts["shutdown"] = shutdown_from_tags(all_tags) or (
        "scale-to-zero" if lo == 0 else "none")
    return res


def build_cluster_config(obj: Any) -> list[Resource]:
    doc = obj.doc
    meta = as_dict(doc.get("metadata"))
    cluster = str(scalar(meta.get("name")) or "?")
    tags = {str(k): v for k, v in as_dict(meta.get("tags")).items()}
    out: list[Resource] = []
    for section in ("nodeGroups", "managedNodeGroups"):
        for group in as_list(dig(doc, section)):
            if isinstance(group, dict):
                res = _group(obj, cluster, scalar(meta.get("region")), tags, section, group)
                if res is not None:
                    out.append(res)
    return out
