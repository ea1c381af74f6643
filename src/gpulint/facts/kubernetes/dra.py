"""Accelerators a pod claims through dynamic resource allocation (DRA, resource.k8s.io).

A pod lists claims in `spec.resourceClaims` (each names a ResourceClaimTemplate or a
ResourceClaim) and its containers use them in `resources.claims`; the devices are in the claim's
requests: `deviceClassName` with `allocationMode` and `count` (v1beta1), the same under
`exactly` or as `firstAvailable` alternatives (v1beta2, v1). The class says what a device is
(`gpu.nvidia.com`, `mig.nvidia.com`, `gpu.amd.com`, `tpu.google.com`…); a pod that claims such a
device costs what one asking for `nvidia.com/gpu` does, so it must not pass unseen.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.facts.kubernetes.accelerators import Accelerators
from gpulint.facts.kubernetes.kinds import Context, as_dict, scalar
from gpulint.model import Unknown

TEMPLATE, CLAIM = "ResourceClaimTemplate", "ResourceClaim"
# Device classes by the accelerator they hand out: a class name is a DNS name whose labels say
# the device (`gpu.nvidia.com`, `gpu.example.com`); `mig` is a slice of an NVIDIA GPU.
_CLASS_KIND = (("mig", re.compile(r"(^|[.-])mig([.-]|$)", re.I)),
               ("gpu", re.compile(r"(^|[.-])gpus?([.-]|$)", re.I)),
               ("tpu", re.compile(r"(^|[.-])tpus?([.-]|$)", re.I)),
               ("neuron", re.compile(r"(^|[.-])neuron", re.I)))


def accelerator_class(name: Any) -> str | None:
    """gpu, mig, tpu or neuron for a device class name that hands out accelerators."""
    text = scalar(name)
    if not text:
        return None
    return next((kind for kind, pattern in _CLASS_KIND if pattern.search(text)), None)


def _requests(claim_spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Each device request as {deviceClassName, allocationMode, count}, whatever the version;
    of `firstAvailable` alternatives, the first (the one the scheduler tries first)."""
    out = []
    for req in as_dict(claim_spec.get("devices")).get("requests") or []:
        req = as_dict(req)
        if isinstance(req.get("exactly"), dict):
            req = req["exactly"]
        elif isinstance(req.get("firstAvailable"), list) and req["firstAvailable"]:
            req = as_dict(req["firstAvailable"][0])
        out.append(req)
    return out


def _claim_spec(doc: dict[str, Any]) -> dict[str, Any]:
    spec = as_dict(doc.get("spec"))
    return as_dict(spec.get("spec")) if doc.get("kind") == TEMPLATE else spec


def _source(entry: dict[str, Any]) -> tuple[str, Any] | None:
    """(kind, name) of the object a pod claim names (`source:` in the alpha API)."""
    src = as_dict(entry.get("source")) or entry
    if src.get("resourceClaimTemplateName"):
        return TEMPLATE, src["resourceClaimTemplateName"]
    if src.get("resourceClaimName"):
        return CLAIM, src["resourceClaimName"]
    return None


def _used(pod: dict[str, Any]) -> set[str]:
    """Names of pod claims some container (or init container) uses."""
    names = set()
    for group in ("containers", "initContainers"):
        for c in pod.get(group) or []:
            for claim in as_dict(as_dict(c).get("resources")).get("claims") or []:
                name = scalar(as_dict(claim).get("name"))
                if name:
                    names.add(name)
    return names


def claimed(pod: dict[str, Any], ctx: Context, namespace: str | None) -> Accelerators | None:
    """The accelerators the pod's DRA claims ask for; None when it claims none (or only claims
    whose object the scan does not hold: nothing then says they are accelerators)."""
    used = _used(pod)
    kind, key, total, unknown = None, None, 0, None
    for entry in pod.get("resourceClaims") or []:
        entry = as_dict(entry)
        source = _source(entry)
        if source is None or scalar(entry.get("name")) not in used:
            continue
        doc = ctx.find(source[0], namespace, source[1])
        for req in _requests(_claim_spec(doc)) if doc else []:
            device = scalar(req.get("deviceClassName"))
            found = accelerator_class(device)
            if found is None or (kind is not None and found != kind):
                continue
            kind, key = found, f"{device} (DRA {source[0]} {scalar(source[1])})"
            if str(req.get("allocationMode")) == "All":
                unknown = unknown or Unknown(
                    f"DRA {source[0]} {scalar(source[1])} takes all {device} devices of its "
                    "node (allocationMode: All): the count depends on the node, which the scan "
                    "does not know")
                continue
            count = req.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int):
                unknown = unknown or Unknown(f"DRA {source[0]} {scalar(source[1])} device "
                                             f"count {count!r} is not a whole number")
                continue
            total += count
    if kind is None:
        return None
    if kind == "mig":  # the slice size is in the class's or request's selectors, not read
        unknown = unknown or Unknown(f"{key} hands out MIG slices whose size the claim's "
                                     "selectors set; the scan does not read them")
        kind = "gpu"
    return Accelerators(unknown if unknown is not None else total, kind, key)
