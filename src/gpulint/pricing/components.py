"""Pods on a cloud that bills per resource: CoreWeave's resource-based pricing charges a pod the
GPU-hour of its GPU class for each GPU, plus each vCPU and each GiB of memory it requests (the
scheduler reserves requests, and billing follows "the greater of resources requested")."""

from __future__ import annotations

from typing import Any

from gpulint.config.overrides import PricingOverrides
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.pricing.price_types import HourlyPrice, apply_overrides
from gpulint.providers import ANY_REGION
from gpulint.units import usd_rate


def where(provider: str, name: str, region: str) -> str:
    """The region part of a price basis: the region, or that one price holds everywhere."""
    if list(catalog.price_table(provider, name)) == [ANY_REGION]:
        return "one list price in every region"
    return region.replace(" ", "").lower() if provider == "azure" else region


def pod_price(facts: Any, cloud: str, gpu_class: str, region: str, gpus: float, what: str,
              how: str, overrides: PricingOverrides | None) -> HourlyPrice | Unknown:
    p = catalog.price(cloud, gpu_class, region)
    if p is None or p.ondemand is None:
        return Unknown(f"no {cloud} price for GPU class {gpu_class}")
    gpu = apply_overrides(HourlyPrice(p.ondemand, p.spot, ""), cloud, gpu_class, overrides)
    rates = catalog.components(cloud)
    if "vcpu" not in rates or "memory_gib" not in rates:
        return Unknown(f"the catalog has no {cloud} vCPU and memory rates")
    cpu, mem = facts.get("pod.cpu", 0.0), facts.get("pod.memory_gib", 0.0)
    for name, value in (("CPU", cpu), ("memory", mem)):
        if isinstance(value, Unknown):
            return Unknown(f"not priceable: its {name} request: {value.reason}")
    extra = cpu * rates["vcpu"] + mem * rates["memory_gib"]

    def total(per_gpu: float | None) -> float | None:
        return None if per_gpu is None else round(per_gpu * gpus + extra, 6)

    basis = (f"{what}× {cloud} {gpu_class} GPU-hour + {cpu:g} vCPU × {usd_rate(rates['vcpu'])}"
             f" + {mem:g} GiB × {usd_rate(rates['memory_gib'])} requested "
             f"({where(cloud, gpu_class, region)}; {how})")
    return HourlyPrice(total(gpu.ondemand), total(gpu.spot), basis, gpu.ondemand_override,
                       gpu.spot_override)
