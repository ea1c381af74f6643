"""What makes a node pool look like GPU nodes when its instance type cannot be read.

An unread instance type is reported as "could not evaluate" either way; a hint says why the
pool is worth the reader's attention, and keeps a pool with no readable type at all from being
dropped as a CPU pool. A resolved type wins: a CPU type with a GPU taint is a CPU pool.
"""

from __future__ import annotations

import re
from typing import Any
from weakref import WeakKeyDictionary

from gpulint import providers
from gpulint.fact_types import Resource
from gpulint.facts.terraform.gcp_tpu import chips_per_vm
from gpulint.model import Unknown
from gpulint.pricing import catalog

# EKS AMI types for accelerated nodes: AL2_x86_64_GPU, AL2023_x86_64_NVIDIA,
# BOTTLEROCKET_x86_64_NVIDIA, AL2023_x86_64_NEURON.
_AMI_WORDS = re.compile(r"gpu|nvidia|neuron", re.I)
# Extended resources and the label/taint words GPU pools are marked with (nvidia.com/gpu,
# AKS's documented sku=gpu taint, k8s.amazonaws.com/accelerator labels).
_MARK_WORDS = re.compile(r"gpu|nvidia|accelerator|google\.com/tpu|aws\.amazon\.com/neuron",
                         re.I)
_NOT_A_MARK = {"", "false", "none", "no", "0"}


# The hint each pool's builder found, for `apply` once the instance type is read: the Terraform
# fact builders' own, not a fact.
_HINTS: WeakKeyDictionary[Resource, str] = WeakKeyDictionary()


def gpu_hint(res: Resource) -> str | None:
    return _HINTS.get(res)


def set_gpu_hint(res: Resource, hint: str | None) -> None:
    if hint is None:
        _HINTS.pop(res, None)
    else:
        _HINTS[res] = hint


def ami_hint(ami_type: Any) -> str | None:
    if isinstance(ami_type, str) and _AMI_WORDS.search(ami_type):
        return f"ami_type {ami_type}"
    return None


def pool_hint(labels: Any, taints: list[dict[str, Any]]) -> str | None:
    """The first taint, then label, the pool's own configuration marks as accelerated."""
    for taint in taints:
        key, value = taint.get("key"), taint.get("value")
        if isinstance(key, str) and (_MARK_WORDS.search(key) or (
                isinstance(value, str) and _MARK_WORDS.search(value))):
            shown = f"{key}={value}" if isinstance(value, str) and value else key
            return f"taint {shown}"
    for key, value in (labels.items() if isinstance(labels, dict) else ()):
        text = str(value).lower() if isinstance(value, bool) else \
            str(value) if isinstance(value, (str, int)) else ""
        if text.lower() not in _NOT_A_MARK and (
                _MARK_WORDS.search(str(key)) or _MARK_WORDS.search(text)):
            return f"label {key}={text}"
    return None


def apply(res: Resource) -> None:
    """Name the hint next to an unknown instance type; turn a pool whose type was not read at
    all into "could not evaluate" instead of a silent CPU pool."""
    hint = gpu_hint(res)
    count = res.facts.get("gpu.count")
    if hint is None or isinstance(count, (int, float)):
        return
    if isinstance(count, Unknown):
        res.unknowns.append(("gpu.count", f"looks like GPU nodes ({hint}) but the instance "
                                          "type is unknown"))
        return
    why = Unknown(f"looks like GPU nodes ({hint}) but no instance type is set")
    res.set_fact("instance.type", why)
    for name in ("gpu.model", "gpu.count", "gpu.memory_gib"):
        res.facts_by_name[name] = why


def catalog_gpu_name(text: str) -> bool:
    """A GPU or TPU machine type of any cloud, or a GCP accelerator name, the catalog knows."""
    text = text.strip()
    if not text or len(text) > 64:
        return False
    if chips_per_vm(text) is not None:  # GKE TPU machine types, priced from slice rows
        return True
    names = [text, host] if (host := providers.ec2_host(text)) else [text]
    for provider in catalog.providers():
        for name in names:
            spec = catalog.instance(provider, name)
            if spec is not None and (spec.gpu_count or 0) > 0:
                return True
    return bool(re.match(r"(nvidia|tpu|ct\d)", text, re.I)) and \
        catalog.gcp_accelerator(text) is not None


def literal_gpu(block: Any) -> bool:
    """A GPU machine type written anywhere in a resource block, even inside an expression
    gpulint could not finish (`regex(var.p, "g5.xlarge")`, a conditional's branch)."""
    from gpulint.terraform.values import expression_strings

    stack = [block]
    while stack:
        b = stack.pop()
        for attr in getattr(b, "attributes", {}).values():
            if any(catalog_gpu_name(s) for s in expression_strings(attr.expr)):
                return True
        stack.extend(getattr(b, "blocks", []))
    return False
