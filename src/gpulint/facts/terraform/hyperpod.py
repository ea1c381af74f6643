"""SageMaker HyperPod clusters: each instance group is a pool of ml.* nodes.

`awscc_sagemaker_cluster` (Cloud Control) writes the groups as a list of objects in
`instance_groups`; the AWS provider's `aws_sagemaker_cluster` as `instance_group` blocks. Both
name the group, its ml.* instance type and instance count; a group asks for spot capacity with
`capacity_requirements.spot`. Groups are priced at SageMaker's HyperPod (Cluster) rate of
their ml.* type where gpulint's table has it, else at the EC2 rate, a lower bound.
"""

from __future__ import annotations

import json
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.terraform.aws import sagemaker_instance
from gpulint.facts.terraform.common import base, capacity, fixed_count, node_pool, shutdown
from gpulint.model import Unknown
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import ResourceInstance


def _groups(inst: ResourceInstance) -> list[Any] | Unknown:
    """The instance groups as views, from the list attribute or the blocks."""
    listed = inst.view.get("instance_groups")
    if isinstance(listed, Unknown):
        return listed
    if isinstance(listed, list):
        return [ValueView(g, inst.view.line) for g in listed if isinstance(g, dict)]
    return list(inst.view.blocks("instance_group"))


def _tags(view: Any) -> Any:
    """awscc writes tags as a list of {key, value}; the AWS provider as a map."""
    tags = view.get("tags", {})
    if isinstance(tags, list):
        return {t.get("key"): t.get("value") for t in tags
                if isinstance(t, dict) and isinstance(t.get("key"), str)}
    return tags


def _spot(group: Any) -> Any:
    wanted = group.get("capacity_requirements")
    if wanted is None:
        block = group.first("capacity_requirements")
        wanted = {} if block is None else {k: block.get(k) or block.first(k)
                                           for k in ("spot", "on_demand")}
    if isinstance(wanted, Unknown):
        return wanted
    return isinstance(wanted, dict) and wanted.get("spot") is not None


def _kubernetes(group: Any) -> tuple[Any, list[dict[str, Any]]]:
    """Labels and taints HyperPod puts on an EKS-orchestrated group's nodes."""
    config = group.get("kubernetes_config")
    if not isinstance(config, dict):
        return {}, []
    taints = config.get("taints")
    return config.get("labels") or {}, [t for t in (taints if isinstance(taints, list) else [])
                                        if isinstance(t, dict)]


def _group(inst: ResourceInstance, group: Any, index: int, tags: Any) -> Resource:
    name = group.get("instance_group_name")
    key = json.dumps(name) if isinstance(name, str) else str(index)
    res = base(inst, "aws", tags, address=f"{inst.address}.instance_groups[{key}]",
               workload="training")
    sagemaker_instance(res, group.get("instance_type"), "hyperpod")
    res.set_fact("capacity", capacity(_spot(group)))
    fixed_count(res, group.get("instance_count", 1))
    shutdown(res)
    labels, taints = _kubernetes(group)
    node_pool(res, labels, taints, {"node.kubernetes.io/instance-type": group.get("instance_type")})
    return res


def sagemaker_cluster(inst: ResourceInstance) -> list[Resource]:
    groups = _groups(inst)
    tags = _tags(inst.view)
    if isinstance(groups, Unknown):
        res = base(inst, "aws", tags, workload="training")
        why = Unknown(f"instance groups: {groups.reason}")
        res.set_fact("instance.type", why)
        for name in ("gpu.model", "gpu.count", "gpu.memory_gib"):
            res.facts_by_name[name] = why
        return [res]
    return [_group(inst, g, i, tags) for i, g in enumerate(groups)]


BUILDERS = {
    "awscc_sagemaker_cluster": sagemaker_cluster,
    "aws_sagemaker_cluster": sagemaker_cluster,
}
