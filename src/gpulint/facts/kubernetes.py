"""Kubernetes workloads → provider-neutral GPU facts."""

from __future__ import annotations

import re
from typing import Any

from gpulint import catalog
from gpulint.facts.common import normalise_workload, shutdown_from_tags, workload_from
from gpulint.facts.declared_model import MODEL_ENV_VARS, from_command, from_tags
from gpulint.model import Resource, Unknown
from gpulint.parse.kubernetes import K8sObject

GPU_RESOURCE_KEYS = ("nvidia.com/gpu", "amd.com/gpu")

# Where each workload kind keeps its pod template.
_POD_SPEC_PATHS: dict[str, tuple[str, ...]] = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
_KIND_WORKLOAD = {"Job": "batch", "CronJob": "batch"}

_SPOT_SELECTORS = {
    "cloud.google.com/gke-spot": "true",
    "cloud.google.com/gke-preemptible": "true",
    "karpenter.sh/capacity-type": "spot",
    "eks.amazonaws.com/capacityType": "SPOT",
    "kubernetes.azure.com/scalesetpriority": "spot",
    "node.kubernetes.io/lifecycle": "spot",
}
_ONDEMAND_SELECTORS = {
    "karpenter.sh/capacity-type": "on-demand",
    "eks.amazonaws.com/capacityType": "ON_DEMAND",
}
# nvidia.com/gpu.product values as GPU feature discovery writes them, to catalog GPU names.
_PRODUCT_PATTERNS = (
    (re.compile(r"A100.*80GB"), "A100-80GB"), (re.compile(r"A100"), "A100"),
    (re.compile(r"H100"), "H100"), (re.compile(r"H200"), "H200"), (re.compile(r"B200"), "B200"),
    (re.compile(r"L40S"), "L40S"), (re.compile(r"L4\b|L4$"), "L4"), (re.compile(r"A10G"), "A10G"),
    (re.compile(r"A10\b|A10$"), "A10"), (re.compile(r"T4"), "T4"), (re.compile(r"V100"), "V100"),
)


def _dig(doc: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def _quantity(value: Any) -> Any:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return Unknown(f"GPU quantity {value!r} is not a whole number")


def _gpu_count(containers: list[dict[str, Any]]) -> Any:
    total: Any = 0
    for c in containers:
        res = c.get("resources") or {}
        for section in ("limits", "requests"):
            amounts = res.get(section) or {}
            found = next((amounts[k] for k in GPU_RESOURCE_KEYS if k in amounts), None)
            if found is not None:
                n = _quantity(found)
                if isinstance(n, Unknown):
                    return n
                total += n
                break
    return total


def _node_labels(pod: dict[str, Any]) -> dict[str, str]:
    """Node labels the pod requires: nodeSelector plus required node affinity with one value."""
    labels = {str(k): str(v) for k, v in (pod.get("nodeSelector") or {}).items()}
    terms = _dig(pod, ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                       "nodeSelectorTerms")) or []
    if isinstance(terms, list) and len(terms) == 1 and isinstance(terms[0], dict):
        for expr in terms[0].get("matchExpressions") or []:
            if isinstance(expr, dict) and expr.get("operator") == "In" \
                    and isinstance(expr.get("values"), list) and len(expr["values"]) == 1:
                labels.setdefault(str(expr.get("key")), str(expr["values"][0]))
    return labels


def _capacity(pod: dict[str, Any], node_labels: dict[str, str]) -> str:
    for key, value in _SPOT_SELECTORS.items():
        if node_labels.get(key, "").lower() == value.lower():
            return "spot"
    for key, value in _ONDEMAND_SELECTORS.items():
        if node_labels.get(key, "").lower() == value.lower():
            return "on-demand"
    # A toleration alone lets a pod onto spot nodes but does not put it there.
    return "on-demand"


def _set_hardware(res: Resource, labels: dict[str, str], gpu_count: int) -> None:
    itype = labels.get("node.kubernetes.io/instance-type") or labels.get("beta.kubernetes.io/instance-type")
    if itype:
        for provider in ("aws", "gcp", "azure"):
            spec = catalog.instance(provider, itype)
            if spec is not None:
                res.facts.update({"provider.cloud": provider, "instance.type": itype,
                                  "gpu.model": spec.gpu_model, "gpu.memory_gib": spec.gpu_memory_gib,
                                  "node.gpu_count": spec.gpu_count})
                return
        res.set_fact("gpu.model", Unknown(f"instance type {itype!r} is not in the catalog"))
        return
    acc = labels.get("cloud.google.com/gke-accelerator")
    if acc:
        spec = catalog.gcp_accelerator(acc)
        if spec is not None:
            res.facts.update({"provider.cloud": "gcp", "gpu.model": spec.gpu_model,
                              "gpu.memory_gib": spec.gpu_memory_gib})
            return
        res.set_fact("gpu.model", Unknown(f"GKE accelerator {acc!r} is not in the catalog"))
        return
    product = labels.get("nvidia.com/gpu.product")
    if product:
        for pattern, name in _PRODUCT_PATTERNS:
            if pattern.search(product.upper()):
                res.facts["gpu.model"] = name
                res.facts["gpu.memory_gib"] = catalog.gpu_models().get(name)
                return
        res.set_fact("gpu.model", Unknown(f"GPU product {product!r} is not recognised"))
        return
    res.set_fact("gpu.model", Unknown("no node selector names an instance type or GPU model"))


def _env(containers: list[dict[str, Any]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for c in containers:
        for e in c.get("env") or []:
            if isinstance(e, dict) and isinstance(e.get("value"), (str, int, float)):
                env[str(e.get("name"))] = str(e["value"])
    return env


def _model(res: Resource, meta_labels: dict[str, Any], containers: list[dict[str, Any]]) -> None:
    decl = from_tags(meta_labels, "label/annotation")
    if decl is None:
        env = _env(containers)
        for c in containers:
            command = [str(x) for x in (c.get("command") or []) + (c.get("args") or [])]
            decl = from_command(command, env, f"container {c.get('name', '?')}")
            if decl:
                break
        if decl is None:
            var = next((v for v in MODEL_ENV_VARS if env.get(v)), None)
            if var:
                from gpulint.facts.declared_model import ModelDecl

                decl = ModelDecl(env[var], f"env {var}")
    if decl:
        res.facts["model.declared"] = decl
        if decl.server and res.facts.get("workload") == "unknown":
            res.facts["workload"], res.facts["workload.source"] = "inference", f"{decl.server} server"


def build(obj: K8sObject) -> Resource | None:
    doc = obj.doc
    kind = doc["kind"]
    path = _POD_SPEC_PATHS.get(kind)
    if path is None:
        return None
    pod = _dig(doc, path)
    if not isinstance(pod, dict):
        return None
    containers = [c for c in (pod.get("containers") or []) if isinstance(c, dict)]
    gpus = _gpu_count(containers)
    if not isinstance(gpus, Unknown) and gpus <= 0:
        return None
    meta = doc.get("metadata") or {}
    name = str(meta.get("name", "?"))
    ns = meta.get("namespace")
    address = f"{kind}/{ns}/{name}" if ns else f"{kind}/{name}"
    res = Resource(address, kind, obj.path, obj.line, "kubernetes")
    res.facts["provider"] = "kubernetes"
    template_labels = _dig(doc, path[:-1] + ("metadata", "labels")) if len(path) > 1 else None
    labels = {**(template_labels if isinstance(template_labels, dict) else {}),
              **(meta.get("labels") or {})}
    annotations = meta.get("annotations") or {}
    res.facts["tags"] = {str(k): v for k, v in labels.items()}
    res.set_fact("gpu.count", gpus)
    node_labels = _node_labels(pod)
    _set_hardware(res, node_labels, gpus if isinstance(gpus, int) else 0)
    res.facts["capacity"] = _capacity(pod, node_labels)
    explicit = normalise_workload(annotations.get("gpulint.dev/workload"))
    wl = (explicit, "annotation gpulint.dev/workload") if explicit else \
        workload_from(labels, [name] + [str(c.get("name", "")) for c in containers])
    if wl is None and kind in _KIND_WORKLOAD:
        wl = (_KIND_WORKLOAD[kind], f"kind {kind}")
    res.facts["workload"] = wl[0] if wl else "unknown"
    res.facts["workload.source"] = wl[1] if wl else None
    _model(res, {**labels, **annotations}, containers)
    if kind in {"Deployment", "StatefulSet", "ReplicaSet"}:
        replicas = _dig(doc, ("spec", "replicas"))
        replicas = 1 if replicas is None else replicas
        res.facts["replicas.desired"] = replicas if isinstance(replicas, int) else \
            Unknown(f"replicas {replicas!r} is not a number")
        res.facts["replicas.min"] = res.facts["replicas.desired"]
        res.facts["replicas.max"] = res.facts["replicas.desired"]
    elif kind == "DaemonSet":
        res.set_fact("replicas.desired", Unknown("a DaemonSet runs one pod per matching node"))
    elif kind == "Job":
        par = _dig(doc, ("spec", "parallelism"))
        res.facts["replicas.desired"] = par if isinstance(par, int) else 1
    elif kind == "CronJob":
        res.set_fact("replicas.desired", Unknown("a CronJob's run time per month is not known"))
    else:
        res.facts["replicas.desired"] = 1
    shutdown = shutdown_from_tags({**labels, **annotations})
    res.facts["shutdown"] = shutdown or ("scale-to-zero" if res.facts.get("replicas.desired") == 0
                                         else "none")
    return res
