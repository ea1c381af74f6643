"""From a pod's node selection to the instance, GPU model and capacity it will run on.

Only hard constraints count: `nodeSelector` and required node affinity. Preferred affinity and
tolerations let a pod onto some nodes but never guarantee where it lands, so they decide nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from gpulint import providers
from gpulint.fact_types import Resource
from gpulint.facts.common import suggest_instance
from gpulint.facts.kubernetes.accelerators import Accelerators
from gpulint.facts.kubernetes.kinds import as_list, dig, scalar
from gpulint.model import Unknown
from gpulint.pricing import catalog

INSTANCE_TYPE_KEYS = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
GKE_ACCELERATOR = "cloud.google.com/gke-accelerator"
GKE_TPU_ACCELERATOR = "cloud.google.com/gke-tpu-accelerator"
GKE_MACHINE_FAMILY = "cloud.google.com/machine-family"
KARPENTER_GPU_NAME = "karpenter.k8s.aws/instance-gpu-name"
KARPENTER_FAMILY = "karpenter.k8s.aws/instance-family"
AKS_KARPENTER_GPU_NAME = "karpenter.azure.com/sku-gpu-name"  # AKS node auto-provisioning
NVIDIA_PRODUCT = "nvidia.com/gpu.product"
AZURE_ACCELERATOR = "kubernetes.azure.com/accelerator"
KARPENTER_CAPACITY = "karpenter.sh/capacity-type"
# CoreWeave labels its nodes with the GPU class its resource-based pricing bills
# (gpu.nvidia.com/class=A100_NVLINK_80GB, coreweave/kubernetes-cloud docs "Node Types").
COREWEAVE_GPU_CLASS = "gpu.nvidia.com/class"

# label → value that puts the pod on spot capacity.
SPOT_LABELS = {
    "cloud.google.com/gke-spot": "true",
    "cloud.google.com/gke-preemptible": "true",
    KARPENTER_CAPACITY: "spot",
    "eks.amazonaws.com/capacityType": "SPOT",
    "kubernetes.azure.com/scalesetpriority": "spot",
    "node.kubernetes.io/lifecycle": "spot",
}
ONDEMAND_LABELS = {KARPENTER_CAPACITY: "on-demand", "eks.amazonaws.com/capacityType": "ON_DEMAND"}

# GPU names as GPU feature discovery (nvidia.com/gpu.product) and Karpenter write them.
_PRODUCT_PATTERNS = (
    (re.compile(r"A100.*80GB"), "A100-80GB"), (re.compile(r"A100"), "A100"),
    (re.compile(r"H100.*NVL"), "H100-NVL"), (re.compile(r"H100"), "H100"),
    (re.compile(r"H200"), "H200"), (re.compile(r"B200"), "B200"), (re.compile(r"L40S"), "L40S"),
    (re.compile(r"(^|[^A-Z0-9])L4($|[^0-9])"), "L4"), (re.compile(r"A10G"), "A10G"),
    (re.compile(r"(^|[^A-Z0-9])A10($|[^0-9G])"), "A10"), (re.compile(r"T4G"), "T4G"),
    (re.compile(r"T4"), "T4"), (re.compile(r"V100"), "V100"), (re.compile(r"MI300X"), "MI300X"),
    (re.compile(r"K80"), "K80"), (re.compile(r"M60"), "M60"),
)
_GKE_TPU = {"tpu-v4-podslice": "TPU-v4", "tpu-v5-lite-podslice": "TPU-v5e",
            "tpu-v5-lite-device": "TPU-v5e", "tpu-v5p-slice": "TPU-v5p",
            "tpu-v6e-slice": "TPU-v6e"}


@dataclass
class NodeSelection:
    labels: dict[str, str] = field(default_factory=dict)  # label → the one value required
    choices: dict[str, list[str]] = field(default_factory=dict)  # label → allowed values (In)
    excluded: dict[str, list[str]] = field(default_factory=dict)  # label → NotIn values
    tolerations: list[dict[str, Any]] = field(default_factory=list)
    from_affinity: set[str] = field(default_factory=set)  # labels that came from node affinity

    def where(self, key: str) -> str:
        return "node affinity" if key in self.from_affinity else "node selector"


def selection(pod: dict[str, Any]) -> NodeSelection:
    """nodeSelector plus required node affinity. With several selector terms (OR) only keys all
    terms agree on are certain, so only a single term is read."""
    sel = NodeSelection()
    ns = pod.get("nodeSelector")
    if isinstance(ns, dict):
        sel.labels = {str(k): str(v) for k, v in ns.items()}
    terms = as_list(dig(pod, "affinity", "nodeAffinity",
                        "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"))
    if len(terms) == 1 and isinstance(terms[0], dict):
        for expr in as_list(terms[0].get("matchExpressions")):
            if not isinstance(expr, dict) or not isinstance(expr.get("values"), list):
                continue
            key, values = str(expr.get("key")), [str(v) for v in expr["values"]]
            if expr.get("operator") == "In":
                if len(values) == 1:
                    if key not in sel.labels:
                        sel.labels[key] = values[0]
                        sel.from_affinity.add(key)
                else:
                    sel.choices[key] = values
            elif expr.get("operator") == "NotIn":
                sel.excluded[key] = values
    tol = pod.get("tolerations")
    sel.tolerations = [t for t in tol if isinstance(t, dict)] if isinstance(tol, list) else []
    return sel


def capacity(sel: NodeSelection) -> tuple[str, str]:
    """(spot | on-demand, why). A spot toleration alone does not put a pod on spot nodes."""
    for key, value in SPOT_LABELS.items():
        if sel.labels.get(key, "").lower() == value.lower():
            return "spot", f"{sel.where(key)} {key}={sel.labels[key]}"
        allowed = sel.choices.get(key)
        if allowed and all(v.lower() == value.lower() for v in allowed):
            return "spot", f"node affinity {key} In {allowed}"
    for key, value in ONDEMAND_LABELS.items():
        if sel.labels.get(key, "").lower() == value.lower():
            return "on-demand", f"{sel.where(key)} {key}={sel.labels[key]}"
    if [v.lower() for v in sel.excluded.get(KARPENTER_CAPACITY, [])] == ["on-demand"]:
        return "spot", f"node affinity {KARPENTER_CAPACITY} NotIn [on-demand]"
    return "on-demand", "no node selector or required affinity asks for spot capacity"


def gpu_selector(sel: NodeSelection) -> tuple[str, str] | None:
    """(where, kind) when the pod's hard node selection alone puts it on accelerator nodes: a
    GPU/TPU accelerator label, a GPU product label, or a GPU instance type. `where` names the
    label and value (`node selector cloud.google.com/gke-accelerator=nvidia-tesla-a100`)."""
    labels = sel.labels
    for key in (GKE_ACCELERATOR, GKE_TPU_ACCELERATOR, KARPENTER_GPU_NAME, NVIDIA_PRODUCT,
                AKS_KARPENTER_GPU_NAME):
        value = labels.get(key, "").strip()
        if value and value.lower() not in {"none", "false"}:
            kind = "tpu" if key == GKE_TPU_ACCELERATOR or "tpu" in value.lower() else "gpu"
            return f"{sel.where(key)} {key}={value}", kind
    for key in INSTANCE_TYPE_KEYS:
        value = labels.get(key, "")
        for provider in providers.NAMES:
            spec = catalog.instance(provider, value) if value else None
            if spec is not None and (spec.gpu_count or 0) > 0:
                kind = "tpu" if spec.accelerator_kind == "tpu" else "gpu"
                return f"{sel.where(key)} {key}={value}", kind
    return None


def gpu_from_product(name: str) -> str | None:
    upper = name.upper()
    return next((model for pattern, model in _PRODUCT_PATTERNS if pattern.search(upper)), None)


def _family_models(provider: str, family: str, sep: str) -> set[str | None]:
    return {s.gpu_model for s in catalog.instances(provider) if s.name.split(sep)[0] == family}


def _from_family(provider: str, family: str, sep: str, label: str) -> tuple[Any, str]:
    models = _family_models(provider, family, sep)
    if len(models) == 1:
        model = next(iter(models))
        if model:
            return model, provider
    if not models:
        return Unknown(f"{label}={family} is not a GPU family in the {provider} catalog"), provider
    several = ", ".join(sorted(map(str, models)))
    return Unknown(f"{label}={family} has several GPU models ({several})"), \
        provider


def set_hardware(res: Resource, sel: NodeSelection, acc: Accelerators) -> None:
    """instance.type / provider.cloud / gpu.model / gpu.memory_gib / node.gpu_count."""
    labels = sel.labels
    itype = next((labels[k] for k in INSTANCE_TYPE_KEYS if labels.get(k)), None)
    if not itype and labels.get(COREWEAVE_GPU_CLASS):
        gpu_class = labels[COREWEAVE_GPU_CLASS]
        if catalog.instance("coreweave", gpu_class) is None:
            res.facts["provider.cloud"] = "coreweave"
            res.set_fact("gpu.model", Unknown(f"{COREWEAVE_GPU_CLASS}={gpu_class!r} is not a "
                                              "CoreWeave GPU class in the catalog"))
            return
        itype = gpu_class
    if itype:
        host = providers.ec2_host(itype)  # a SageMaker HyperPod node (`ml.g5.8xlarge`)
        for provider in providers.NAMES:
            spec = catalog.instance(provider, itype) or (
                catalog.instance(provider, host) if host and provider == "aws" else None)
            if spec is not None:
                res.facts.update({"provider.cloud": provider, "instance.type": spec.name,
                                  "node.gpu_count": spec.gpu_count,
                                  "accelerator.kind": spec.accelerator_kind})
                if host and spec.name == host:
                    res.facts["cost.note"] = (
                        f"SageMaker {itype} priced at the EC2 {host} rate: SageMaker charges "
                        "more than EC2 for the same instance, so this is a lower bound")
                _set_model(res, spec.gpu_model, acc, spec.gpu_memory_gib)
                cloud = providers.get(provider)
                if cloud is not None and cloud.billing != "instance":
                    res.set_fact("pod.cpu", acc.cpu)  # billed next to the GPU class
                    res.set_fact("pod.memory_gib", acc.memory_gib)
                return
        res.set_fact("gpu.model", Unknown(f"instance type {itype!r} is not in the catalog"
                                          + suggest_instance(itype, providers.NAMES)))
        return
    model: Any = None
    if labels.get(GKE_ACCELERATOR):
        res.facts["provider.cloud"] = "gcp"
        spec = catalog.gcp_accelerator(labels[GKE_ACCELERATOR])
        model = spec.gpu_model if spec else \
            Unknown(f"GKE accelerator {labels[GKE_ACCELERATOR]!r} is not in the catalog")
    elif labels.get(GKE_TPU_ACCELERATOR):
        res.facts["provider.cloud"] = "gcp"
        value = labels[GKE_TPU_ACCELERATOR]
        model = _GKE_TPU.get(value) or Unknown(f"GKE TPU accelerator {value!r} is not recognised")
    elif labels.get(KARPENTER_GPU_NAME) or labels.get(NVIDIA_PRODUCT):
        key = KARPENTER_GPU_NAME if labels.get(KARPENTER_GPU_NAME) else NVIDIA_PRODUCT
        if key == KARPENTER_GPU_NAME:
            res.facts["provider.cloud"] = "aws"
        model = gpu_from_product(labels[key]) or Unknown(f"{key}={labels[key]!r} is not recognised")
    elif labels.get(AKS_KARPENTER_GPU_NAME):
        res.facts["provider.cloud"] = "azure"
        value = labels[AKS_KARPENTER_GPU_NAME]
        model = gpu_from_product(value) or Unknown(f"{AKS_KARPENTER_GPU_NAME}={value!r} is not "
                                                   "recognised")
    elif labels.get(KARPENTER_FAMILY):
        model, res.facts["provider.cloud"] = _from_family("aws", labels[KARPENTER_FAMILY], ".",
                                                          KARPENTER_FAMILY)
    elif labels.get(GKE_MACHINE_FAMILY):
        model, res.facts["provider.cloud"] = _from_family("gcp", labels[GKE_MACHINE_FAMILY], "-",
                                                          GKE_MACHINE_FAMILY)
    elif labels.get(AZURE_ACCELERATOR):
        res.facts["provider.cloud"] = "azure"
        model = Unknown(f"{AZURE_ACCELERATOR}={labels[AZURE_ACCELERATOR]} names the vendor, "
                        "not the GPU model")
    elif acc.kind == "mig" and acc.mig_parent:
        model = acc.mig_parent
    elif acc.kind == "mig":
        model = Unknown(f"MIG profile {acc.mig_profile} exists on several GPUs (A100-80GB, H100); "
                        "no node selector names the GPU")
    elif labels:  # a pool's own label (NodeGroupType=…, a pool name): only a linked pool says
        keys = sorted(labels)  # keys only: one grouped cause for every pool name
        model = Unknown(f"its {sel.where(keys[0])} ({', '.join(keys[:3])}) names no instance "
                        "type or GPU model, and links it to no single node pool of its project")
    else:
        model = Unknown("no node selector or required affinity names an instance type or GPU model")
    _set_model(res, model, acc, None)


def _set_model(res: Resource, model: Any, acc: Accelerators, memory: float | None) -> None:
    res.set_fact("gpu.model", model)
    if isinstance(model, str) and model.startswith("TPU-"):
        res.facts["accelerator.kind"] = "tpu"
    if acc.kind == "mig":
        # A MIG slice has its own memory; the model must fit in it.
        res.facts["gpu.memory_gib"] = acc.slice_memory_gib
        res.facts["gpu.mig_profile"] = acc.mig_profile
        return
    if isinstance(model, str):
        res.facts["gpu.memory_gib"] = memory if memory is not None \
            else catalog.gpu_models().get(model)


@dataclass
class NodeTarget:
    """The nodes a pool creates, as the scheduler sees them: labels, allowed values, taints."""

    address: str
    labels: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)  # e.g. Karpenter requirements
    taints: list[dict[str, Any]] = field(default_factory=list)
    open_prefixes: tuple[str, ...] = ()  # labels the pool sets per node from what it launches


@dataclass
class LinkInputs:
    """What the Kubernetes builders hand to pod ↔ node-pool linking about one resource: the
    linking stage's own, not facts (rules cannot read them, reports never show them)."""

    accelerators: Accelerators | None = None  # a pod's accelerator requests
    node_selection: NodeSelection | None = None  # a pod's node selection
    node_target: NodeTarget | None = None  # a node pool's labels and taints
    # The kustomize overlay or helmfile environment that renders it (`…@<variant>`): an
    # autoscaler scales only the workload of its own variant.
    variant: str | None = None


_LINK_INPUTS: WeakKeyDictionary[Resource, LinkInputs] = WeakKeyDictionary()


def link_inputs(res: Resource) -> LinkInputs:
    """The resource's link inputs, empty until a builder sets one."""
    found = _LINK_INPUTS.get(res)
    if found is None:
        found = _LINK_INPUTS[res] = LinkInputs()
    return found


def plain(entry: dict[str, Any]) -> dict[str, str | None]:
    """A taint or toleration with its fields as text (malformed fields become None)."""
    return {k: scalar(entry.get(k)) for k in ("key", "operator", "value", "effect")}


def tolerates(tolerations: list[dict[str, Any]], taint: dict[str, Any]) -> bool:
    taint = plain(taint)
    for t in map(plain, tolerations):
        op = t["operator"] or "Equal"
        key_ok = (op == "Exists" and not t["key"]) or t["key"] == taint["key"]
        value_ok = op == "Exists" or (t["value"] or "") == (taint["value"] or "")
        effect_ok = not t["effect"] or t["effect"] == taint["effect"]
        if key_ok and value_ok and effect_ok:
            return True
    return False


def _allowed(target: NodeTarget, key: str) -> list[str] | None:
    """Values the target's nodes can have for a label; None if the label never appears."""
    if key in target.labels:
        return [target.labels[key]]
    if key in target.choices:
        return target.choices[key]
    return None


def untolerated(sel: NodeSelection, target: NodeTarget) -> list[dict[str, Any]]:
    """The target's scheduling taints the pod does not tolerate."""
    return [t for t in map(plain, target.taints) if t["effect"] in {"NoSchedule", "NoExecute"}
            and not tolerates(sel.tolerations, t)]


def matches(sel: NodeSelection, target: NodeTarget, check_taints: bool = True) -> bool:
    """True when the pod's hard constraints select these nodes and it tolerates their taints.
    A pod that names none of the target's own labels is not linked: nothing ties it there."""
    named = False
    wanted = {**{k: [v] for k, v in sel.labels.items()}, **sel.choices}
    for key, values in wanted.items():
        allowed = _allowed(target, key)
        if allowed is None:
            if key.startswith(target.open_prefixes):
                continue
            return False
        if not {v.lower() for v in values} & {v.lower() for v in allowed}:
            return False
        named = True
    for key, values in sel.excluded.items():
        allowed = _allowed(target, key)
        if allowed is not None and all(v in values for v in allowed):
            return False
    return named and (not check_taints or not untolerated(sel, target))
