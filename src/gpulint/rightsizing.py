"""Compare what the declared model needs with what the GPUs give, and find a cheaper fit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpulint import catalog, cost, models, sizing
from gpulint.facts.declared_model import ModelDecl
from gpulint.model import Resource, Unknown
from gpulint.pricing_overrides import PricingOverrides


@dataclass(frozen=True)
class SizingOptions:
    headroom: float = sizing.DEFAULT_HEADROOM
    hours: float = cost.DEFAULT_HOURS
    # Alternatives are priced like the current resource: with the same negotiated prices.
    overrides: PricingOverrides | None = None


_TRAINING_METHODS = {"training": "full", "full": "full", "fine-tune": "full", "lora": "lora",
                     "qlora": "qlora"}


def _estimates(res: Resource, decl: ModelDecl,
               info: models.ModelInfo) -> tuple[sizing.Estimate, sizing.Estimate]:
    """(minimum to start, typical load). Serving needs at least one full-context sequence of KV
    cache to start; right-sizing uses the documented default concurrency."""
    purpose = (decl.purpose or "").lower()
    if purpose in _TRAINING_METHODS or (not purpose and res.facts.get("workload") == "training"):
        method = _TRAINING_METHODS.get(purpose, "full")
        res.facts["model.purpose"] = method if method != "full" else "training"
        est = sizing.estimate_training(info, method, decl.precision)
        return est, est
    res.facts["model.purpose"] = "inference"
    args = (info, decl.precision, decl.context)
    kwargs = {"tensor_parallel": decl.tensor_parallel or 1,
              "gpu_memory_utilization": decl.gpu_memory_utilization}
    return (sizing.estimate_inference(*args, concurrency=1, **kwargs),
            sizing.estimate_inference(*args, concurrency=None, **kwargs))


def _node_candidates(provider: str, region: str, capacity: str, est: sizing.Estimate,
                     headroom: float,
                     overrides: PricingOverrides | None = None) -> list[tuple[float, str]]:
    """(hourly price, instance type) of every catalog instance in the region that fits."""
    out = []
    for spec in catalog.instances(provider):
        if spec.accelerator_kind != "gpu" or not spec.gpu_memory_gib:
            continue
        if not sizing.fits(est, spec.gpu_memory_gib, spec.gpu_count, headroom):
            continue
        p = catalog.price(provider, spec.name, region)
        if p is not None and overrides is not None:
            p = cost.apply_overrides(cost.HourlyPrice(p.ondemand, p.spot, ""), provider,
                                     spec.name, overrides)
        hourly = None if p is None else (p.spot if capacity == "spot" else p.ondemand)
        if hourly:
            out.append((hourly, spec.name))
    return sorted(out)


def _gpu_candidates(est: sizing.Estimate, headroom: float) -> list[tuple[float, str]]:
    """(hourly price, "N× GPU") for a bare pod: fewest GPUs of each model that fit."""
    out = []
    for gpu, mem in catalog.gpu_models().items():
        n = sizing.min_gpus(est, mem, headroom, max_gpus=8)
        best = catalog.cheapest_per_gpu_hour(gpu)
        if n is None or best is None:
            continue
        out.append((best[0] * n, f"{n}× {gpu}"))
    return sorted(out)


def apply(res: Resource, opts: SizingOptions = SizingOptions()) -> None:
    """Set model.* and sizing.* facts for a resource that declares a model."""
    decl: ModelDecl | None = res.facts.get("model.declared")
    if decl is None:
        return
    res.facts["model.source"] = decl.source
    info = models.resolve(decl.id)
    if info is None:
        reason = (f"model {decl.id!r} is not in the model catalog and its size cannot be read "
                  "from its name")
        res.set_fact("model.id", Unknown(reason))
        res.facts["model.fits"] = Unknown(reason)
        return
    res.facts["model.id"] = info.id
    res.facts["model.params_b"] = round(info.params_total / 1e9, 2)
    res.facts["model.estimated"] = info.estimated
    try:
        minimum, est = _estimates(res, decl, info)
    except (ValueError, KeyError, TypeError, ZeroDivisionError) as e:
        res.set_fact("model.fits", Unknown(f"memory estimate failed: {e}"))
        return
    res.facts["model.precision"] = est.inputs.get("precision")
    res.facts["model.required_gib"] = round(minimum.total_gib, 1)
    res.facts["model.minimum"] = minimum.describe()
    res.facts["model.estimate"] = est.describe()
    if decl.tensor_parallel:
        res.facts["model.tensor_parallel"] = decl.tensor_parallel
    mem, count = res.facts.get("gpu.memory_gib"), res.facts.get("gpu.count")
    for name, value in (("GPU memory", mem), ("GPU count", count)):
        if isinstance(value, Unknown) or not isinstance(value, (int, float)):
            reason = value.reason if isinstance(value, Unknown) else "not known"
            res.facts["model.fits"] = Unknown(f"{name} unknown: {reason}")
            return
    usable = min(count, decl.tensor_parallel) if decl.tensor_parallel else count
    res.facts["model.fits"] = sizing.fits(minimum, mem, usable, opts.headroom)
    res.facts["gpu.total_memory_gib"] = round(mem * count, 1)
    res.facts["sizing.utilization"] = round(est.total_gib / (mem * count), 3)
    if decl.tensor_parallel and count > decl.tensor_parallel:
        res.facts["sizing.idle_gpus"] = count - decl.tensor_parallel
    # A model that does not even start is sized for its minimum; otherwise for typical load.
    _alternative(res, est if res.facts["model.fits"] else minimum, opts)


def _alternative(res: Resource, est: sizing.Estimate, opts: SizingOptions) -> None:
    f = res.facts
    capacity = f.get("capacity") if isinstance(f.get("capacity"), str) else "on-demand"
    count, _ = cost.priced_count(res)
    if not isinstance(count, (int, float)):
        return
    provider = f.get("provider.cloud") if res.source == "kubernetes" else f.get("provider")
    if res.source == "kubernetes" and not isinstance(f.get("instance.type"), str):
        candidates = _gpu_candidates(est, opts.headroom)
    elif isinstance(provider, str) and provider in {"aws", "gcp", "azure"}:
        region = f.get("region") if res.source == "terraform" else catalog.default_region(provider)
        if not isinstance(region, str):
            return
        candidates = _node_candidates(provider, region, capacity, est, opts.headroom,
                                      opts.overrides)
    else:
        return
    if not candidates:
        f["sizing.alternative"] = None
        return
    hourly, name = candidates[0]
    # SageMaker ml.* types are priced as the EC2 type of the same name, and alternatives are
    # EC2 names: the catalog cannot tell which of them SageMaker offers.
    if name == f.get("cost.instance_type", f.get("instance.type")):
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        return
    alt_monthly = round(hourly * max(count, 1) * opts.hours, 2) if count else 0.0
    f["sizing.alternative"] = name
    f["sizing.alternative_monthly"] = alt_monthly
    current = f.get("cost.monthly")
    if isinstance(current, (int, float)) and current > 0:
        f["sizing.saving_fraction"] = round(max(0.0, (current - alt_monthly) / current), 3)
