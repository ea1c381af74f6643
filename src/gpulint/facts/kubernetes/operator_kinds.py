"""Operators whose semantics need a few lines of code beyond generic reading: an AIBrix
RayClusterFleet (replicas of a whole RayCluster), an NVIDIA NIMPipeline (a list of NIMService
specs, each switched on or off) and a KubeAI Model (a named resource profile times a count).
docs/kubernetes.md lists the fields.
"""

from __future__ import annotations

from typing import Any

from gpulint.facts.kubernetes.kinds import (
    READERS as BUILT_IN,
)
from gpulint.facts.kubernetes.kinds import (
    Context,
    PodGroup,
    _count,
    as_dict,
    as_list,
    dig,
)
from gpulint.facts.kubernetes.serving_kinds import READERS as SERVING
from gpulint.load.evidence import is_vendor_resource
from gpulint.model import Unknown


def _times(a: Any, b: Any) -> Any:
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return a if isinstance(a, Unknown) else b
    return a * b


def _ray_fleet(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """`spec.template.spec` is a RayCluster spec; the fleet runs `spec.replicas` of them."""
    fleet = _count(dig(doc, "spec", "replicas"), 1, "replicas")
    cluster = {"apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": doc.get("metadata"),
               "spec": as_dict(dig(doc, "spec", "template", "spec"))}
    groups = BUILT_IN["ray"](cluster, ctx)
    for g in groups:
        for attr in ("desired", "minimum", "maximum"):
            value = getattr(g, attr)
            if value is not None:
                setattr(g, attr, _times(value, fleet))
    return groups


def _nim_pipeline(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Each enabled `spec.services[]` entry is a NIMService named `name`."""
    groups: list[PodGroup] = []
    for svc in as_list(dig(doc, "spec", "services")):
        svc = as_dict(svc)
        if svc.get("enabled") is False:
            continue  # the operator creates nothing for it
        inner = {"apiVersion": "apps.nvidia.com/v1alpha1", "kind": "NIMService",
                 "metadata": doc.get("metadata"), "spec": as_dict(svc.get("spec"))}
        for g in SERVING["nim-service"](inner, ctx):
            g.suffix = str(svc.get("name") or "service")
            groups.append(g)
    return groups


def _kubeai_model(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """`spec.resourceProfile: <profile>:<count>`: count units of a profile the kubeai chart's
    values define (`resourceProfiles.<profile>`: limits, nodeSelector, tolerations, affinity).
    A profile not in the scan leaves the Model as evidence, named by accounting."""
    spec = as_dict(doc.get("spec"))
    name, _, times = str(spec.get("resourceProfile") or "").partition(":")
    profile = ctx.profiles.get(name)
    units = _count(times or 1, 1, "resourceProfile count")
    if profile is None or isinstance(units, Unknown):
        return []
    limits = {k: v for k, v in {**as_dict(profile.get("requests")),
                                **as_dict(profile.get("limits"))}.items()
              if is_vendor_resource(str(k))}
    per_pod = {k: _times(_count(v, 1, k), units) for k, v in limits.items()}
    url = str(spec.get("url") or "")
    model = url.split("://", 1)[-1] if url else None
    args = [str(a) for a in as_list(spec.get("args"))]
    engine = str(spec.get("engine") or "").lower()
    container: dict[str, Any] = {"name": "server", "resources": {"limits": per_pod}}
    if model and engine == "vllm":
        container["command"], container["args"] = ["vllm", "serve", model], args
    pod: dict[str, Any] = {"containers": [container]}
    pod.update({k: profile[k] for k in ("nodeSelector", "tolerations", "affinity") if k in profile})
    lo = _count(spec.get("minReplicas"), 0, "minReplicas")  # the CRD's minimum and default: 0
    hi = _count(spec.get("maxReplicas"), Unknown("no maxReplicas: KubeAI sets no upper bound"),
                "maxReplicas")
    desired = _count(spec.get("replicas"), lo, "replicas")
    meta = as_dict(doc.get("metadata"))
    labels = {**as_dict(meta.get("labels"))}
    if model and engine != "vllm":
        labels["gpulint.dev/model"] = model
    return [PodGroup(None, pod, labels, as_dict(meta.get("annotations")), desired=desired,
                     minimum=lo, maximum=hi, workload="inference", certain=True,
                     scale_note="KubeAI minReplicas",
                     read_as=f"KubeAI Model: resourceProfile {name} × {units} from chart values")]


def _ome_inference_service(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """OME's InferenceService: its `engine` (and `decoder`) over the `engineConfig` of the
    runtime it names (`spec.runtime.name`, a ClusterServingRuntime or a ServingRuntime of its
    namespace); the model from its base model's `storage.storageUri`. A runtime OME selects
    by itself at run time is not known here."""
    from gpulint.facts.kubernetes.generic import Hints, read
    from gpulint.facts.kubernetes.serving_kinds import _merged

    spec = as_dict(doc.get("spec"))
    ns = dig(doc, "metadata", "namespace")
    name = dig(spec, "runtime", "name")
    runtime = (ctx.find("ServingRuntime", ns, name) or ctx.find("ClusterServingRuntime", None,
                                                                  name)) if name else None
    merged = dict(spec)
    for part, config in (("engine", "engineConfig"), ("decoder", "decoderConfig")):
        base = as_dict(dig(runtime, "spec", config)) if runtime else {}
        if part in spec or base:
            merged[part] = _merged(base, as_dict(spec.get(part)))
    merged.pop("router", None)  # the router runs no model
    model_kind = str(dig(spec, "model", "kind") or "ClusterBaseModel")
    base_model = ctx.find(model_kind, ns if model_kind == "BaseModel" else None,
                          dig(spec, "model", "name"))
    uri = str(dig(base_model, "spec", "storage", "storageUri") or "")
    meta = dict(as_dict(doc.get("metadata")))
    if uri.startswith("hf://"):
        meta["labels"] = {**as_dict(meta.get("labels")), "gpulint.dev/model": uri[5:]}
    inner = {**doc, "metadata": meta, "spec": merged}
    groups = read(inner, ctx, Hints(workload="inference"), lambda d, c: [])
    for g in groups:
        g.labels = {**g.labels, **as_dict(meta.get("labels"))}
    return groups


READERS = {"ome-inference-service": _ome_inference_service, "ray-fleet": _ray_fleet,
           "nim-pipeline": _nim_pipeline, "kubeai-model": _kubeai_model}
