"""Pods for kinds that name a node type instead of asking for accelerators (KAITO's
`instanceType`, SageMaker HyperPod's `ml.*` types, eksctl node groups): the pod takes every
accelerator of one node of that type, on a node selector for the type, so the usual facts and
prices apply.
"""

from __future__ import annotations

from typing import Any

from gpulint import providers
from gpulint.model import Unknown
from gpulint.pricing import catalog

INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type"
_RESOURCE_BY_KIND = {"gpu": "nvidia.com/gpu", "inferentia": "aws.amazon.com/neuron",
                     "trainium": "aws.amazon.com/neuron", "tpu": "google.com/tpu"}


def ec2_name(instance_type: str) -> str:
    """SageMaker's `ml.p5.48xlarge` runs on EC2 `p5.48xlarge` (priced as that instance)."""
    return providers.ec2_host(instance_type) or instance_type


def spec_of(instance_type: str) -> Any:
    """The catalog row of an instance type on any cloud, or None."""
    for provider in providers.NAMES:
        spec = catalog.instance(provider, instance_type)
        if spec is not None:
            return spec
    return None


def resource_key(spec: Any) -> str:
    if spec.accelerator_kind == "gpu" and str(spec.gpu_model or "").startswith("MI"):
        return "amd.com/gpu"
    return _RESOURCE_BY_KIND.get(spec.accelerator_kind, "nvidia.com/gpu")


def whole_node(instance_type: Any, what: str, container: dict[str, Any] | None = None,
               pod: dict[str, Any] | None = None) -> tuple[dict[str, Any], Unknown | None]:
    """(pod spec, why its accelerators are unknown) for a pod that takes a whole node of
    `instance_type`. `container` and `pod` add fields (command, env; tolerations)."""
    out = dict(pod or {})
    name = ec2_name(str(instance_type)) if isinstance(instance_type, str) else None
    c = dict(container or {})
    c.setdefault("name", "main")
    if not name:
        c["resources"] = {"limits": {"nvidia.com/gpu": 1}}
        out["containers"] = [c]
        return out, Unknown(f"{what} names no instance type, so its GPUs per node are unknown; "
                            "set the instance type")
    out["nodeSelector"] = {**(out.get("nodeSelector") or {}), INSTANCE_TYPE_LABEL: name}
    spec = spec_of(name)
    if spec is None or spec.gpu_count <= 0:
        c["resources"] = {"limits": {"nvidia.com/gpu": 1}}
        out["containers"] = [c]
        return out, Unknown(f"instance type {instance_type!r} ({what}) is not in the catalog, so "
                            "its GPUs per node are unknown; add it with a pricing override")
    c["resources"] = {"limits": {resource_key(spec): int(spec.gpu_count)}}
    out["containers"] = [c]
    return out, None
