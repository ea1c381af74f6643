"""The type of Resource.facts, and Resource over it.

Lowest floor but for model.py (pricing, below the fact registry, writes facts too).
"""

from __future__ import annotations

from typing import Any, TypedDict

from gpulint import model
from gpulint.model import Alternative
from gpulint.model import Unknown as _U

# The type of Resource.facts: mypy checks every literal fact name and the type of its value
# (tests keep it equal to FACTS). The functional form because names are dotted; total=False
# because a fact is absent where it does not apply; `Unknown` where a builder may fail to
# resolve the value, `None` where one writes "not applicable". Names known only at run time
# (a rule's condition, a loop over names) go through Resource.facts_by_name.
Facts = TypedDict("Facts", {
    "provider": str | _U, "provider.cloud": str | _U | None, "region": str | _U,
    "region.source": str | None, "instance.type": str | _U, "instance.alternatives": list[str],
    "accelerator.kind": str, "gpu.model": str | _U | None, "gpu.count": float | _U,
    "gpu.memory_gib": float | _U | None, "gpu.total_memory_gib": float, "gpu.fraction": float,
    "gpu.mig_profile": str | None, "gpu.attached": bool, "gpu.accelerator_type": str | None,
    "gpu.generation": str | _U, "group.hosts": int, "group.gpu_count": float, "group.source": str,
    "tpu.slice": str, "node.gpu_count": float, "node.labels": dict[str, Any],
    "node.taints": list[Any], "node_pool": str | _U, "nodepool.gpu_limit": float | _U,
    "nodepool.node_class": tuple[str, str], "nodepool.consolidation": str, "k8s.kind": str,
    "k8s.name": str, "k8s.namespace": str | None, "k8s.resource": str | None, "count": int | _U,
    "zones": int, "zones.names": list[str], "replicas.min": int | _U, "replicas.max": int | _U,
    "replicas.desired": int | _U, "replicas.source": str, "capacity": str | _U,
    "capacity.source": str, "capacity.spot_fraction": float | _U, "capacity.on_demand_base": int,
    "capacity.on_demand_percent": float, "workload": str, "workload.source": str | None,
    "shutdown": str | _U, "tags": dict[str, Any] | _U, "tags.inherited": dict[str, str],
    "tags.required": list[str], "tags.patterns": dict[str, str], "change.actions": list[str],
    "model.id": str | _U, "model.source": str, "model.params_b": float, "model.estimated": bool,
    "model.precision": str | None, "model.purpose": str, "model.required_gib": float,
    "model.minimum": str, "model.estimate": str, "model.fits": bool | _U,
    "model.tensor_parallel": int, "sizing.utilization": float,
    "sizing.alternative": str | _U | None, "sizing.saving_fraction": float | _U,
    "alternative.sizing": Alternative, "sizing.idle_gpus": int | _U, "sizing.used_gpus": int,
    "sizing.idle_alternative": str, "alternative.idle": Alternative,
    "sizing.generation_alternative": str | None, "sizing.generation_saving_fraction": float | _U,
    "alternative.generation": Alternative, "cost.instance_type": str, "cost.note": str,
    "cost.unpriced": str,
    "cost.cloud": str, "cost.cloud_source": str, "cost.region": str,
    "terraform.provider_regions": dict[str, str], "terraform.provider_regions.via": str,
    "instance.allowed": list[str],
    "cluster": str,
    "cluster.region": str,    "node.gpu_shortfall": str,
    "cost.hourly": float | _U, "cost.count": float | _U, "cost.hours": float,
    "cost.monthly": float | _U, "cost.monthly_max": float,
    "cost.monthly_before": float | _U | None, "cost.basis": str, "explain.gpu": str,
    "explain.model_label": str, "explain.provided": str, "explain.alternative_detail": str,
    "explain.alternative_saving": str, "explain.parallelism": str, "explain.idle_fix": str,
    "explain.idle_detail": str, "explain.idle_saving": str, "explain.generation": str,
    "explain.generation_detail": str, "explain.generation_saving": str,
    "explain.missing_tags": str,
}, total=False)

# Every module but model.py names resources this way, so their facts are checked.
Resource = model.Resource[Facts]
