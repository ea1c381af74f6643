"""Fact helpers shared by the Terraform and Kubernetes fact builders.

Facts are provider-neutral (docs/facts.md lists them). A fact is absent when it does not apply,
`Unknown` when it applies but could not be resolved.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from gpulint import providers
from gpulint.fact_types import Resource
from gpulint.model import WORKLOADS, Unknown
from gpulint.pricing import catalog

# Tag/label keys that state the workload class explicitly, in priority order.
WORKLOAD_KEYS = ("gpulint.dev/workload", "workload", "workload-type", "workload_type", "purpose",
                 "role")
_WORKLOAD_ALIASES = {
    "train": "training", "trainer": "training", "finetune": "training", "fine-tune": "training",
    "fine-tuning": "training", "finetuning": "training", "serving": "inference",
    "serve": "inference", "server": "inference", "predict": "inference", "predictor": "inference",
    "jupyter": "notebook", "notebooks": "notebook", "workbench": "notebook",
    "development": "dev", "sandbox": "dev", "experiment": "dev", "experimentation": "dev",
    "job": "batch", "etl": "batch",
}
# Words in a resource's own name that reveal its workload when no tag says so.
_NAME_HINTS = (
    (re.compile(r"(^|[-_./])(notebook|jupyter|workbench)s?($|[-_./\d])"), "notebook"),
    (re.compile(r"(^|[-_./])(train|training|trainer|finetune|fine-tune|pretrain)s?($|[-_./\d])"),
     "training"),
    (re.compile(r"(^|[-_./])(infer|inference|serving|serve|server|predictor|llm-api|vllm|tgi)s?"
                r"($|[-_./\d])"), "inference"),
    (re.compile(r"(^|[-_./])(batch|etl)($|[-_./\d])"), "batch"),
    (re.compile(r"(^|[-_./])(dev|sandbox|playground|scratch)($|[-_./\d])"), "dev"),
)

SHUTDOWN_TAG_KEYS = ("gpulint.dev/idle-shutdown", "idle-shutdown", "idle_shutdown",
                     "auto-shutdown", "auto_shutdown", "autostop", "auto-stop", "shutdown-schedule",
                     "schedule")


def normalise_workload(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    if v in WORKLOADS:
        return v
    return _WORKLOAD_ALIASES.get(v)


def workload_from(tags: dict[str, Any], names: list[str]) -> tuple[str, str] | None:
    """(workload, how it was decided) from explicit tags first, then name hints."""
    for key in WORKLOAD_KEYS:
        wl = normalise_workload(tags.get(key))
        if wl:
            return wl, f"tag {key}"
    for name in names:
        lowered = name.lower()
        for pattern, wl in _NAME_HINTS:
            if pattern.search(lowered):
                return wl, f"name {name!r}"
    return None


def shutdown_from_tags(tags: dict[str, Any]) -> str | None:
    for key in SHUTDOWN_TAG_KEYS:
        value = tags.get(key)
        off = {"", "false", "no", "none", "off"}
        if isinstance(value, str) and value.strip().lower() not in off:
            return "schedule"
    return None


def set_instance(res: Resource, provider: str, instance_type: Any) -> None:
    """Instance type plus the GPU facts the catalog knows for it."""
    res.set_fact("instance.type", instance_type)
    if isinstance(instance_type, Unknown):
        for name in ("gpu.model", "gpu.count", "gpu.memory_gib"):
            res.facts[name] = Unknown(f"instance type unknown: {instance_type.reason}")
        return
    if not isinstance(instance_type, str) or not instance_type:
        return
    spec = catalog.instance(provider, instance_type)
    if spec is None and not _gpu_family(provider, instance_type):
        res.facts["gpu.count"] = 0  # an ordinary instance family: no GPU
        return
    if spec is None:
        reason = (f"instance type {instance_type!r} is not in the {provider} catalog"
                  + suggest_instance(instance_type, (provider,)))
        res.set_fact("gpu.model", Unknown(reason))
        res.facts["gpu.count"] = Unknown(reason)
        res.facts["gpu.memory_gib"] = Unknown(reason)
        return
    res.facts["gpu.model"] = spec.gpu_model
    res.facts["gpu.count"] = spec.gpu_count
    res.facts["gpu.memory_gib"] = spec.gpu_memory_gib
    res.facts["accelerator.kind"] = spec.accelerator_kind


def suggest_instance(name: str, providers: tuple[str, ...]) -> str:
    """` (did you mean 'p5.48xlarge'?)` for a GPU instance type the catalog does not have but
    one it has is close to (a typo); empty otherwise."""
    import difflib

    names = [n for p in providers for n in _gpu_instance_names(catalog.active_origin(), p)]
    near = difflib.get_close_matches(name, names, n=2, cutoff=0.8)
    return f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""


@lru_cache(maxsize=64)
def _gpu_instance_names(origin: str, provider: str) -> tuple[str, ...]:
    return tuple(spec.name for spec in catalog.instances(provider) if spec.gpu_count)


def _family(provider: str, name: str) -> str:
    if provider == "aws":
        return name.split(".", 1)[0]
    if provider == "azure":
        # Standard_NC24ads_A100_v4 -> standard_nc: the letters name the family.
        m = re.match(r"(?i)(standard_|basic_)?([a-z]+)", name)
        return (m.group(1) or "").lower() + m.group(2).lower() if m else name.lower()
    marker = (cloud := providers.get(provider)) and cloud.gpu_marker
    if marker:  # one family of every name that says GPU (OCI's BM.GPU.H100.8, VM.GPU3.1)
        return marker if marker in name.upper() else name
    return name.split("-", 1)[0]


def _gpu_family(provider: str, name: str) -> bool:
    """Whether an instance type not in the catalog belongs to a family that has GPUs."""
    return _family(provider, name) in _gpu_families(catalog.active_origin(), provider)


@lru_cache(maxsize=64)
def _gpu_families(origin: str, provider: str) -> frozenset[str]:
    """Families of the active catalog's instances. A catalog is loaded once per origin, so the
    origin names its content; without this every unknown instance type rebuilt the whole
    provider table (0.06 s for the benchmark repository's 470 ordinary instances)."""
    return frozenset(_family(provider, spec.name) for spec in catalog.instances(provider))


def inherit_tags(res: Resource, tags: dict[str, Any], where: str) -> None:
    """Add the tags a resource inherits (from its Namespace, its node class) under its own, which
    win; `tags.inherited` records where each added key came from."""
    own = res.facts.get("tags")
    if not isinstance(own, dict):
        return
    added = {k: v for k, v in tags.items() if k not in own}
    res.facts["tags"] = {**own, **added}
    if added:
        res.facts["tags.inherited"] = {**res.facts.get("tags.inherited", {}),
                                       **{k: where for k in added}}


def clean_tags(value: Any) -> dict[str, Any]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def as_int(value: Any) -> Any:
    if isinstance(value, Unknown) or value is None:
        return value
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: infinity
        return Unknown(f"{value!r} is not a whole number")
