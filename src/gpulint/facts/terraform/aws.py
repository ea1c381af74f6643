"""AWS Terraform resources → GPU facts."""

from __future__ import annotations

import math
import re
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import as_int, set_instance, workload_from
from gpulint.facts.model_decl import declare, declared_model, from_command
from gpulint.facts.terraform.common import (
    EMPTY,
    base,
    capacity,
    fixed_count,
    link,
    linked,
    memoised,
    mentions,
    mixed_capacity,
    node_pool,
    referenced,
    scaling,
    shutdown,
    taint_blocks,
)
from gpulint.facts.terraform.hints import ami_hint, set_gpu_hint
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.terraform.views import ResourceInstance

_TEMPLATE_ATTRS = ("id", "name", "launch_template_id", "launch_template_name")
_IDLE_WORDS = re.compile(r"idle|autostop|auto-stop|auto_stop", re.I)


def _market_spot(view: Any) -> Any:
    """Spot when instance_market_options asks for it, or a (legacy launch configuration's)
    spot_price is set."""
    price = view.get("spot_price")
    if isinstance(price, Unknown):
        return price
    if price not in (None, ""):
        return True
    market = view.first("instance_market_options")
    if market is None:
        return False
    mt = market.get("market_type")
    return mt if isinstance(mt, Unknown) else str(mt).lower() == "spot"


def aws_instance(inst: ResourceInstance) -> Resource:
    v = inst.view
    itype, spot = v.get("instance_type"), _market_spot(v)
    launched: dict[str, Any] = {}
    if itype is None and v.blocks("launch_template"):
        # Launched from a template: its instance type and market options, unless set here.
        itype, template_spot = _type_from_template(inst)
        spot = spot if v.first("instance_market_options") is not None else template_spot
        launched = _launched_tags(template_of(inst))
    own = v.get("tags", {})
    res = base(inst, "aws", {**launched, **own} if isinstance(own, dict) else own)
    set_instance(res, "aws", itype)
    res.set_fact("capacity", capacity(inst.type == "aws_spot_instance_request" or spot))
    fixed_count(res, 1)
    shutdown(res)
    return res


def _template_blocks(view: Any) -> list[Any]:
    """launch_template blocks of a node group or ASG, including a mixed instances policy's."""
    found = list(view.blocks("launch_template"))
    for mip in view.blocks("mixed_instances_policy"):
        for lt in mip.blocks("launch_template"):
            found.extend(lt.blocks("launch_template_specification"))
    return found


def template_of(inst: ResourceInstance) -> ResourceInstance | Unknown | None:
    """The launch template (or an ASG's legacy launch configuration) in the same module: the
    instance a keyed reference names, or Unknown when which one is not known."""
    unsure: Unknown | None = None
    for block in _template_blocks(inst.view):
        found = link(inst, block, _TEMPLATE_ATTRS, "aws_launch_template")
        if isinstance(found, ResourceInstance):
            return found
        unsure = unsure or found
    found = link(inst, inst.view, ("launch_configuration",), "aws_launch_configuration")
    return found if found is not None else unsure


def _used_templates(inst: ResourceInstance) -> set[str]:
    """Addresses of the launch templates that an ASG or node group of the module uses."""
    used: set[str] = set()
    for (type_, _), peers in inst.peers.items():
        if type_ not in {"aws_autoscaling_group", "aws_eks_node_group", "aws_instance",
                         "aws_spot_instance_request"}:
            continue
        for peer in peers:
            refs = [ref for block in _template_blocks(peer.view) for attr in _TEMPLATE_ATTRS
                    for ref in block.refs(attr)] + peer.view.refs("launch_configuration")
            used.update(t.address for t in referenced(peer, refs))
    return used


def aws_launch_template(inst: ResourceInstance) -> Resource | None:
    used = memoised(inst, "aws launch templates in use", lambda: _used_templates(inst))
    if inst.address in used:
        return None  # priced once, through the node group or ASG that launches it
    v = inst.view
    tags = _launched_tags(inst)
    own = v.get("tags", {})
    res = base(inst, "aws", {**tags, **own} if isinstance(own, dict) else own)
    set_instance(res, "aws", v.get("instance_type"))
    res.set_fact("capacity", capacity(_market_spot(v)))
    # A template runs nothing by itself.
    fixed_count(res, 0)
    res.facts["shutdown"] = "none"
    return res


def _launched_tags(template: ResourceInstance | Unknown | None) -> dict[str, Any]:
    """The tags a launch template's tag_specifications put on the instances it launches: what
    the bill sees for a group that launches from it."""
    tags: dict[str, Any] = {}
    if not isinstance(template, ResourceInstance):
        return tags
    for spec in template.view.blocks("tag_specifications"):
        t = spec.get("tags", {})
        if isinstance(t, dict):
            tags.update(t)
    return tags


def _type_from_template(inst: ResourceInstance) -> tuple[Any, Any]:
    """(instance type, spot?) from the launch template the group uses."""
    template = template_of(inst)
    if isinstance(template, Unknown):
        return Unknown(f"instance type comes from a launch template: {template.reason}"), False
    if template is None:
        if _template_blocks(inst.view) or inst.view.has("launch_configuration"):
            reason = "instance type comes from a launch template not found in this module"
        else:
            reason = "no instance type and no launch template"
        return Unknown(reason), False
    itype = template.view.get("instance_type")
    if itype is None:
        itype = Unknown(f"{template.address} sets no instance_type")
    return itype, _market_spot(template.view)


def aws_eks_node_group(inst: ResourceInstance) -> Resource:
    v = inst.view
    labels = v.get("labels", {})
    own = v.get("tags", {})
    launched = _launched_tags(template_of(inst))
    res = base(inst, "aws", {**launched, **own} if isinstance(own, dict) else own)
    if res.facts["workload"] == "unknown" and isinstance(labels, dict):
        wl = workload_from(labels, [])
        if wl:
            res.facts["workload"], res.facts["workload.source"] = wl[0], f"label {wl[1][4:]}"
    types = v.get("instance_types")
    types = [types] if isinstance(types, str) else types
    if isinstance(types, list) and types:
        itype: Any = types[0]
        res.facts["instance.alternatives"] = types[1:]
    elif isinstance(types, Unknown):
        itype = types
    else:
        itype, _ = _type_from_template(inst)
    set_instance(res, "aws", itype)
    ct = v.get("capacity_type", "ON_DEMAND")
    res.set_fact("capacity", capacity(ct if isinstance(ct, Unknown) else str(ct).upper() == "SPOT"))
    set_gpu_hint(res, ami_hint(v.get("ami_type")))
    sc = v.first("scaling_config") or EMPTY
    scaling(res, sc.get("min_size", 1), sc.get("max_size", 1), sc.get("desired_size", 1))
    shutdown(res)
    node_pool(res, labels, taint_blocks(v.blocks("taint")), {
        "eks.amazonaws.com/nodegroup": v.get("node_group_name"),
        "eks.amazonaws.com/capacityType": "SPOT" if res.facts["capacity"] == "spot"
        else "ON_DEMAND",
        "node.kubernetes.io/instance-type": res.facts.get("instance.type")})
    return res


def aws_autoscaling_group(inst: ResourceInstance) -> Resource:
    v = inst.view
    # The group's own tags (propagated at launch) over those of its launch template.
    tags = _launched_tags(template_of(inst))
    for tag in v.blocks("tag"):
        key = tag.get("key")
        if isinstance(key, str):
            tags[key] = tag.get("value")
    res = base(inst, "aws", tags)
    mip = v.first("mixed_instances_policy")
    overrides: list[Any] = []
    if mip is not None:
        for lt in mip.blocks("launch_template"):
            overrides.extend(o.get("instance_type") for o in lt.blocks("override")
                             if o.get("instance_type") is not None)
    template_type, template_spot = _type_from_template(inst)
    if overrides:
        set_instance(res, "aws", overrides[0])
        res.facts["instance.alternatives"] = overrides[1:]
    else:
        set_instance(res, "aws", template_type)
    if mip is not None:
        dist = mip.first("instances_distribution") or EMPTY
        mixed_capacity(res, dist.get("on_demand_base_capacity", 0),
                       dist.get("on_demand_percentage_above_base_capacity", 100))
    else:
        res.set_fact("capacity", capacity(template_spot))
    lo = v.get("min_size")
    scaling(res, lo, v.get("max_size"), v.get("desired_capacity", lo))
    shutdown(res)
    return res


def sagemaker_instance(res: Resource, itype: Any, use: str) -> None:
    """ml.* types run on the EC2 instance of the same name; SageMaker bills them at a rate of
    its own for each use (hosting, training, notebook, hyperpod), which pricing/sagemaker.py
    looks up, falling back to the EC2 rate as a labelled lower bound."""
    if isinstance(itype, str) and itype.startswith("ml."):
        ec2 = itype[3:]
        set_instance(res, "aws", ec2)
        res.facts["instance.type"] = itype
        res.facts["cost.instance_type"] = ec2
        res.facts["sagemaker.use"] = use
    else:
        set_instance(res, "aws", itype)
        if isinstance(itype, Unknown):
            res.facts["sagemaker.use"] = use


def _model_env(model: ResourceInstance | None) -> dict[str, str]:
    if model is None:
        return {}
    env: dict[str, str] = {}
    for block in model.view.blocks("primary_container") + model.view.blocks("container"):
        values = block.get("environment", {})
        if isinstance(values, dict):
            env.update({str(k): v for k, v in values.items() if isinstance(v, str)})
    return env


def aws_sagemaker_endpoint_configuration(inst: ResourceInstance) -> list[Resource]:
    v = inst.view
    variants = v.blocks("production_variants")
    out = []
    for i, pv in enumerate(variants):
        if pv.first("serverless_config") is not None:
            continue  # serverless endpoints have no GPU
        address = inst.address if len(variants) == 1 else f"{inst.address}.production_variants[{i}]"
        res = base(inst, "aws", v.get("tags", {}), address=address, workload="inference")
        sagemaker_instance(res, pv.get("instance_type"), "hosting")
        res.facts["capacity"] = "on-demand"  # real-time endpoints have no spot capacity
        managed = pv.first("managed_instance_scaling")
        count = pv.get("initial_instance_count", 1)
        if managed is not None and managed.get("status") == "ENABLED":
            scaling(res, managed.get("min_instance_count", count),
                    managed.get("max_instance_count", count), count)
        else:
            fixed_count(res, count)
        model = linked(inst, pv, ("model_name",), "aws_sagemaker_model")
        decl = from_command([], _model_env(model), "sagemaker model")
        if declared_model(res) is None:
            declare(res, decl)
        shutdown(res)
        out.append(res)
    return out


def aws_sagemaker_notebook_instance(inst: ResourceInstance) -> Resource:
    v = inst.view
    res = base(inst, "aws", v.get("tags", {}), workload="notebook")
    sagemaker_instance(res, v.get("instance_type"), "notebook")
    res.facts["capacity"] = "on-demand"
    fixed_count(res, 1)
    config = linked(inst, v, ("lifecycle_config_name",),
                    "aws_sagemaker_notebook_instance_lifecycle_configuration")
    idle = config is not None and mentions(config.view, ("on_start", "on_create"), _IDLE_WORDS)
    shutdown(res, "idle" if idle else None)
    return res


def aws_batch_compute_environment(inst: ResourceInstance) -> Resource | None:
    v = inst.view
    cr = v.first("compute_resources")
    if cr is None:
        return None  # unmanaged environments bring their own instances
    kind = cr.get("type", "EC2")
    if isinstance(kind, str) and kind.upper().startswith("FARGATE"):
        return None
    res = base(inst, "aws", cr.get("tags", v.get("tags", {})), workload="batch")
    types = cr.get("instance_type")
    types = [types] if isinstance(types, str) else types
    itype = types[0] if isinstance(types, list) and types else (
        types if isinstance(types, Unknown) else Unknown("no instance_type"))
    if isinstance(types, list):
        res.facts["instance.alternatives"] = types[1:]
    set_instance(res, "aws", itype)
    res.set_fact("capacity", capacity(kind if isinstance(kind, Unknown)
                                      else str(kind).upper() == "SPOT"))
    spec = catalog.instance("aws", itype) if isinstance(itype, str) else None
    if spec is None or not spec.vcpus:
        why = Unknown("instance count: vCPUs of the instance type are unknown")
        scaling(res, why, why, why)
    else:
        # Batch sizes an environment in vCPUs; whole instances are what is billed.
        def nodes(vcpus: Any) -> Any:
            n = as_int(vcpus)
            return n if isinstance(n, Unknown) or n is None else math.ceil(n / spec.vcpus)

        lo, desired = nodes(cr.get("min_vcpus", 0)), cr.get("desired_vcpus")
        scaling(res, lo, nodes(cr.get("max_vcpus")), lo if desired is None else nodes(desired))
    shutdown(res)
    return res


BUILDERS = {
    "aws_instance": aws_instance,
    "aws_spot_instance_request": aws_instance,
    "aws_launch_template": aws_launch_template,
    "aws_launch_configuration": aws_launch_template,
    "aws_eks_node_group": aws_eks_node_group,
    "aws_autoscaling_group": aws_autoscaling_group,
    "aws_sagemaker_endpoint_configuration": aws_sagemaker_endpoint_configuration,
    "aws_sagemaker_notebook_instance": aws_sagemaker_notebook_instance,
    "aws_batch_compute_environment": aws_batch_compute_environment,
}
