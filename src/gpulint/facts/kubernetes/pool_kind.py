"""Whether a Karpenter NodePool can launch accelerator nodes, from its requirement values.

The key of a requirement says nothing by itself: default pools restrict `instance-family` to
`c5`/`m6i` or `instance-type` to `t3.small` and launch no GPU. A pool is an accelerator pool when
a requirement's values name accelerator instances (a GPU or Neuron family, category, type or GPU
name) or its limits cap GPUs or Neuron devices, and no other requirement rules them out (Karpenter
ANDs its requirements). Keys are read under both Karpenter's `karpenter.k8s.aws/` and EKS Auto
Mode's `eks.amazonaws.com/` prefixes.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.facts.kubernetes.kinds import as_list, scalar
from gpulint.pricing import catalog

_PREFIXES = ("karpenter.k8s.aws/", "eks.amazonaws.com/")
_INSTANCE_TYPE = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
# EC2 instance families with accelerators (p/g GPUs, dl Gaudi, inf/trn Neuron): the naming scheme
# of https://docs.aws.amazon.com/ec2/latest/instancetypes/instance-type-names.html
_ACCEL_FAMILY = re.compile(r"^(p|g|gr|dl|inf|trn)\d")
_NEURON_FAMILY = re.compile(r"^(inf|trn)\d")
_GPU_CATEGORIES = {"p", "g", "gr", "dl"}
_NEURON_CATEGORIES = {"inf", "trn"}
_GPU_KEYS = ("instance-gpu-name", "instance-gpu-manufacturer", "instance-gpu-memory",
             "instance-gpu-count")
_NEURON_KEYS = ("instance-accelerator-name", "instance-accelerator-manufacturer",
                "instance-accelerator-count")


def _family_kind(family: str) -> str | None:
    """gpu | neuron | None (no accelerator) for an EC2 family name such as `g6e` or `c5`."""
    kinds = {s.accelerator_kind for s in catalog.instances("aws") if s.name.split(".")[0] == family}
    if kinds:
        return "neuron" if kinds & {"inferentia", "trainium"} else "gpu"
    if _ACCEL_FAMILY.match(family):
        return "neuron" if _NEURON_FAMILY.match(family) else "gpu"
    return None


def _type_kind(name: str) -> str | None:
    spec = catalog.instance("aws", name)
    if spec is not None and spec.gpu_count > 0:
        return "neuron" if spec.accelerator_kind in ("inferentia", "trainium") else "gpu"
    return _family_kind(name.split(".")[0]) if spec is None else None


def _positive(values: list[str], operator: str) -> bool:
    """A count or size requirement that allows more than zero."""
    if operator == "Exists":
        return True
    nums = [float(v) for v in values if re.fullmatch(r"\d+(\.\d+)?", v)]
    return (operator == "Gt" and any(n >= 0 for n in nums)) or \
        (operator == "In" and any(n > 0 for n in nums))


def _requirement(req: dict[str, Any]) -> tuple[set[str], bool] | None:
    """(accelerator kinds the requirement allows, whether it allows any other instance) for a
    requirement that restricts the instance; None for one that does not."""
    key, op = str(scalar(req.get("key")) or ""), str(scalar(req.get("operator")) or "")
    values = [str(v) for v in as_list(req.get("values")) if scalar(v) is not None]
    short = next((key[len(p):] for p in _PREFIXES if key.startswith(p)), None)
    if op not in ("In", "Exists", "Gt"):
        return None
    if short in _GPU_KEYS or short in _NEURON_KEYS:
        kind = "gpu" if short in _GPU_KEYS else "neuron"
        if short.endswith(("-count", "-memory")):
            return ({kind}, False) if _positive(values, op) else (set(), True)
        return ({kind}, False) if op in ("In", "Exists") and (values or op == "Exists") else None
    if op != "In":
        return None
    if short == "instance-family":
        kinds = [_family_kind(v) for v in values]
    elif short == "instance-category":
        kinds = ["gpu" if v in _GPU_CATEGORIES else "neuron" if v in _NEURON_CATEGORIES else None
                 for v in values]
    elif key in _INSTANCE_TYPE:
        kinds = [_type_kind(v) for v in values]
    else:
        return None
    return {k for k in kinds if k}, None in kinds


def launches_accelerators(requirements: Any, limit_kinds: set[str]) -> str | None:
    """gpu | neuron when the pool can launch accelerator nodes, else None."""
    named: set[str] = set(limit_kinds)
    for req in as_list(requirements):
        read = _requirement(req) if isinstance(req, dict) else None
        if read is None:
            continue
        kinds, others = read
        if not kinds and others:
            return None  # this requirement allows only instances without accelerators
        named |= kinds
    if not named:
        return None
    return "gpu" if "gpu" in named else "neuron"
