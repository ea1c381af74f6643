"""Karpenter NodePool: what GPU nodes it may launch, on which capacity, up to which limit.

A NodePool runs nothing by itself: Karpenter launches nodes for pending pods and removes them
when consolidation finds them empty or underused. It is reported with its GPU limit and priced at
zero nodes; the pods linked to it (gpulint.linking) carry the cost.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import inherit_tags, shutdown_from_tags
from gpulint.facts.kubernetes.accelerators import (
    CORES_PER_NEURON_DEVICE,
    NEURON_CORE_KEY,
    NEURON_DEVICE_KEYS,
    WHOLE_GPU_KEYS,
    Accelerators,
)
from gpulint.facts.kubernetes.kinds import as_dict, as_list, dig
from gpulint.facts.kubernetes.nodes import (
    INSTANCE_TYPE_KEYS,
    KARPENTER_CAPACITY,
    KARPENTER_FAMILY,
    KARPENTER_GPU_NAME,
    NodeSelection,
    NodeTarget,
    gpu_from_product,
    link_inputs,
    set_hardware,
)
from gpulint.facts.kubernetes.pool_kind import launches_accelerators
from gpulint.model import Unknown
from gpulint.pricing import catalog

# Labels Karpenter sets on each node from the instance it picks; a pod may ask for any of them.
KARPENTER_OPEN = ("karpenter.k8s.aws/", "karpenter.sh/", "eks.amazonaws.com/",
                  "node.kubernetes.io/instance-type",
                  "topology.kubernetes.io/", "kubernetes.io/arch", "kubernetes.io/os")
NEURON_LIMIT_KEYS = (*NEURON_DEVICE_KEYS, NEURON_CORE_KEY)
_AUTO_MODE = "eks.amazonaws.com/instance-"


def node_target(doc: dict[str, Any], address: str) -> NodeTarget:
    template = as_dict(dig(doc, "spec", "template"))
    labels = {k: str(v) for k, v in as_dict(dig(template, "metadata", "labels")).items()}
    labels["karpenter.sh/nodepool"] = str(dig(doc, "metadata", "name"))
    choices: dict[str, list[str]] = {}
    for req in as_list(dig(template, "spec", "requirements")):
        if isinstance(req, dict) and req.get("operator") == "In" \
                and isinstance(req.get("values"), list):
            values = [str(v) for v in req["values"]]
            if len(values) == 1:
                labels[str(req.get("key"))] = values[0]
            else:
                choices[str(req.get("key"))] = values
    taints = [t for t in as_list(dig(template, "spec", "taints")) if isinstance(t, dict)]
    return NodeTarget(address, labels, choices, taints, KARPENTER_OPEN)


def aws_aliases(values: dict[str, Any]) -> dict[str, Any]:
    """EKS Auto Mode's `eks.amazonaws.com/instance-*` labels read as Karpenter's own."""
    out = dict(values)
    for key, value in values.items():
        if key.startswith(_AUTO_MODE):
            out.setdefault("karpenter.k8s.aws/" + key[len(_AUTO_MODE):], value)
    return out


def one_model(choices: dict[str, list[str]]) -> str | None:
    """The GPU model when every GPU name, instance type or family the pool allows (whichever it
    restricts first) has the same GPU."""
    choices = aws_aliases(choices)
    for key in (KARPENTER_GPU_NAME, INSTANCE_TYPE_KEYS[0], KARPENTER_FAMILY):
        if key in choices:
            models: set[str | None] = set()
            for value in choices[key]:
                models |= _models_of(key, value)
            return next(iter(models)) if len(models) == 1 and None not in models else None
    return None


def _models_of(key: str, value: str) -> set[str | None]:
    """The GPU models a GPU name, instance type or instance family allows."""
    if key == KARPENTER_GPU_NAME:
        return {gpu_from_product(value)}
    if key == KARPENTER_FAMILY:
        return {s.gpu_model for s in catalog.instances("aws")
                if s.name.split(".")[0] == value} or {None}
    spec = catalog.instance("aws", value)
    return {spec.gpu_model if spec else None}


def set_one_model(res: Resource, model: str, acc: Accelerators) -> None:
    """The GPU (or Neuron device) every type the pool allows has, in place of an unknown one."""
    res.unknowns = [u for u in res.unknowns if u[0] != "gpu.model"]
    if gpu_from_product(model) == model:
        set_hardware(res, NodeSelection({"nvidia.com/gpu.product": model}), acc)
        return
    res.facts["gpu.model"] = model  # Inferentia2, Trainium…: not a GPU product name
    res.facts["gpu.memory_gib"] = next((s.gpu_memory_gib for s in catalog.instances("aws")
                                        if s.gpu_model == model), None)
    res.facts["provider.cloud"] = "aws"


def capacity_of(target: NodeTarget) -> tuple[str, str]:
    """Karpenter launches on-demand unless spot is allowed, and prefers spot when it is."""
    allowed = [target.labels[KARPENTER_CAPACITY]] if KARPENTER_CAPACITY in target.labels \
        else target.choices.get(KARPENTER_CAPACITY, ["on-demand"])
    if "spot" in [v.lower() for v in allowed]:
        return "spot", f"NodePool {target.address} allows spot ({KARPENTER_CAPACITY} {allowed}); " \
                       "Karpenter prefers spot when allowed"
    return "on-demand", f"NodePool {target.address} {KARPENTER_CAPACITY} {allowed}"


def _limit(value: Any, key: str) -> Any:
    """A limit as devices (NeuronCores are half a device); Unknown when not a whole number."""
    try:
        n = int(str(value))
    except ValueError:
        return Unknown(f"{key} limit {value!r} is not a whole number")
    return -(-n // CORES_PER_NEURON_DEVICE) if key == NEURON_CORE_KEY else n


# Karpenter's well-known labels that narrow the instance types (AWS); read from an instance
# type's name and size as Karpenter computes them (karpenter.sh/docs/reference/instance-types).
_SHAPE_KEYS = (INSTANCE_TYPE_KEYS[0], KARPENTER_FAMILY, "karpenter.k8s.aws/instance-size",
               "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-generation",
               "karpenter.k8s.aws/instance-cpu")
_FAMILY = re.compile(r"([a-z]+)(\d+)")


def _shape_labels(spec: Any) -> dict[str, str]:
    family, _, size = spec.name.partition(".")
    m = _FAMILY.match(family)
    out = {INSTANCE_TYPE_KEYS[0]: spec.name, KARPENTER_FAMILY: family,
           "karpenter.k8s.aws/instance-size": size}
    if m:
        out["karpenter.k8s.aws/instance-category"] = m.group(1)
        out["karpenter.k8s.aws/instance-generation"] = m.group(2)
    if spec.vcpus:
        out["karpenter.k8s.aws/instance-cpu"] = f"{spec.vcpus:g}"
    return out


def allowed_instances(sel: NodeSelection) -> list[str] | None:
    """The AWS instance types a Karpenter selection allows when its `In` requirements narrow
    them by type, family, size, category, generation or CPUs; None when none of them does."""
    wanted = {k: [v] for k, v in aws_aliases(sel.labels).items() if k in _SHAPE_KEYS}
    wanted.update({k: v for k, v in aws_aliases(sel.choices).items() if k in _SHAPE_KEYS})
    if not wanted:
        return None
    return sorted(s.name for s in catalog.instances("aws") if s.gpu_count >= 1 and all(
        _shape_labels(s).get(k) in values for k, values in wanted.items()))


def build_nodepool(obj: Any) -> Resource | None:
    doc = obj.doc
    name = str(dig(doc, "metadata", "name"))
    address = f"NodePool/{name}"
    target = node_target(doc, address)
    limits = as_dict(dig(doc, "spec", "limits"))
    gpu_key = next((k for k in WHOLE_GPU_KEYS if k in limits), None)
    neuron_key = next((k for k in NEURON_LIMIT_KEYS if k in limits), None)
    limit_kinds = {k for k, key in (("gpu", gpu_key), ("neuron", neuron_key)) if key}
    kind = launches_accelerators(dig(doc, "spec", "template", "spec", "requirements"), limit_kinds)
    if kind is None:
        return None
    limit_key = gpu_key if kind == "gpu" else neuron_key
    res = Resource(address, "NodePool", obj.path, obj.line, "kubernetes")
    res.facts.update({"provider": "kubernetes", "k8s.kind": "NodePool", "k8s.name": name,
                      "accelerator.kind": kind})
    link_inputs(res).node_target = target
    labels = as_dict(dig(doc, "metadata", "labels"))
    res.facts["tags"] = {str(k): v for k, v in {**target.labels, **labels}.items()}
    ref = as_dict(dig(doc, "spec", "template", "spec", "nodeClassRef"))
    if ref.get("name"):
        res.facts["nodepool.node_class"] = (str(ref.get("kind") or "EC2NodeClass"),
                                            str(ref["name"]))
    what = "GPU" if kind == "gpu" else "Neuron"
    if limit_key is None:
        res.set_fact("gpu.count", Unknown(f"the NodePool sets no {what} limit: it can add {what} "
                                          "nodes without bound"))
    else:
        res.set_fact("gpu.count", _limit(limits[limit_key], limit_key))
    res.facts["nodepool.gpu_limit"] = res.facts["gpu.count"]
    set_hardware(res, NodeSelection(aws_aliases(target.labels)), Accelerators(count=1, kind=kind))
    if "provider.cloud" not in res.facts:  # the node class says which cloud launches the nodes
        group = str(ref.get("group") or "")
        azure = ref.get("kind") == "AKSNodeClass" or group.startswith("karpenter.azure.com")
        res.facts["provider.cloud"] = "azure" if azure else "aws"
    model = one_model(target.choices) if isinstance(res.facts.get("gpu.model"), Unknown) else None
    if model:  # several instance types (or GPU names) allowed, all with the same GPU
        set_one_model(res, model, Accelerators(count=1, kind=kind))
    elif isinstance(res.facts.get("gpu.model"), Unknown):
        wanted = {**{k: [v] for k, v in target.labels.items()}, **target.choices}
        allowed = "; ".join(f"{k} In {v}" for k, v in wanted.items()
                            if "/instance-" in k or k in INSTANCE_TYPE_KEYS)
        if allowed:
            res.unknowns = [u for u in res.unknowns if u[0] != "gpu.model"]
            res.set_fact("gpu.model", Unknown(f"the NodePool allows instances with different "
                                              f"accelerators ({allowed})"))
    res.facts["capacity"], res.facts["capacity.source"] = capacity_of(target)
    policy = dig(doc, "spec", "disruption", "consolidationPolicy") or "WhenEmptyOrUnderutilized"
    after = dig(doc, "spec", "disruption", "consolidateAfter")
    res.facts["nodepool.consolidation"] = "never" if str(after) == "Never" else str(policy)
    # Nodes exist only while pods need them; the pods are priced, the pool at zero nodes.
    res.facts["replicas.desired"] = res.facts["replicas.min"] = 0
    per_node = res.facts.get("node.gpu_count")
    gpus = res.facts["gpu.count"]
    if isinstance(gpus, int) and isinstance(per_node, (int, float)) and per_node:
        res.facts["replicas.max"] = int(gpus // per_node)
    res.facts["workload"], res.facts["workload.source"] = "unknown", None
    res.facts["shutdown"] = shutdown_from_tags(labels) or (
        "none" if res.facts["nodepool.consolidation"] == "never" else "scale-to-zero")
    return res


NODE_CLASS_KINDS = {("karpenter.k8s.aws", "EC2NodeClass"), ("eks.amazonaws.com", "NodeClass")}


def inherit_node_class_tags(resources: list[Resource], objects: list[Any]) -> None:
    """The tags of the EC2NodeClass (or EKS Auto Mode NodeClass) a NodePool names are put on
    every instance it launches, so they are the pool's cost tags on the AWS bill; the pool's own
    labels win. `tags.inherited` says where each comes from."""
    classes: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
    for obj in objects:
        api = str(obj.doc.get("apiVersion", "")).rsplit("/", 1)[0]
        name = dig(obj.doc, "metadata", "name")
        if (api, obj.doc.get("kind")) in NODE_CLASS_KINDS and name:
            tags = {str(k): v for k, v in as_dict(dig(obj.doc, "spec", "tags")).items()}
            classes[(str(obj.doc["kind"]), str(name))] = \
                (tags, f"{obj.doc['kind']} {name} ({obj.path}:{obj.line})")
    for res in resources:
        ref = res.facts.get("nodepool.node_class")
        if ref in classes:
            inherit_tags(res, *classes[ref])
