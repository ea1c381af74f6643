"""Derived facts: what each resource costs and how it could cost less, from typed settings.

`derive` runs the derivers in a fixed order, each reading the facts of the ones before:
pricing → tags → fit (the declared model) → idle GPUs → generation. Rules then only compare
facts; no deriver knows which rule reads what it sets.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpulint.config.cost import CostOptions
from gpulint.config.sizing import SizingSettings
from gpulint.config.tags import TagSettings
from gpulint.derive import fit, generation, idle, tags
from gpulint.derive.alternative import Context
from gpulint.fact_types import Resource
from gpulint.facts.model_decl import declared_model
from gpulint.model import Unknown
from gpulint.pricing import price


def derive(resources: Iterable[Resource], pricing: CostOptions, sizing: SizingSettings,
           tag_settings: TagSettings) -> None:
    base = Context(sizing, pricing.hours, pricing.overrides, pricing.default_regions)
    for res in resources:
        price.price_resource(res, pricing.hours, pricing)
        tags.apply(res, tag_settings)
        res.facts["explain.gpu"] = gpu_label(res)
        opts = Context(sizing, res.facts["cost.hours"], base.overrides, base.default_regions)
        decl = declared_model(res)
        est = fit.apply(res, decl, opts) if decl is not None else None
        if decl is not None:
            idle.apply(res, decl, opts, est)
        if res.facts.get("model.fits") is not False:  # a model that cannot start is its own finding
            generation.apply(res, est, opts)


def gpu_label(res: Resource) -> str:
    """The GPUs as messages name them; a MIG slice is not the whole GPU."""
    f = res.facts
    gpu = f.get("gpu.model")
    label = "GPU (model unknown)" if gpu is None or isinstance(gpu, Unknown) else \
        f"{gpu:g}" if isinstance(gpu, float) else str(gpu)
    return label + (f" MIG {f['gpu.mig_profile']}" if f.get("gpu.mig_profile") else "")
