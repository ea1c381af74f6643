"""Price GPU resources and findings from the bundled catalog.

monthly = hourly price × priced count × hours per month. Every figure carries its basis (catalog
row, region, capacity, hours) so a reviewer can trace it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpulint import catalog
from gpulint.model import Resource, Unknown

DEFAULT_HOURS = 730.0


@dataclass(frozen=True)
class HourlyPrice:
    ondemand: float | None
    spot: float | None
    basis: str  # which catalog rows, e.g. "aws p4d.24xlarge us-east-1"

    def for_capacity(self, capacity: str) -> float | None:
        return self.spot if capacity == "spot" else self.ondemand


def node_price(provider: str, instance_type: str, region: str,
               facts: dict[str, Any]) -> HourlyPrice | Unknown:
    """Hourly price of one node/VM of this type, GCP host + attached GPUs included."""
    if provider == "gcp" and facts.get("gpu.attached"):
        host = catalog.gcp_host_price(instance_type, region)
        acc_name = facts.get("gpu.accelerator_type")
        acc = catalog.gcp_accelerator_price(acc_name, region) if isinstance(acc_name, str) else None
        n = facts.get("gpu.count")
        if host is None:
            return Unknown(f"no price for gcp host {instance_type} in {region}")
        if acc is None or not isinstance(n, (int, float)):
            return Unknown(f"no price for gcp accelerator {acc_name} in {region}")

        def add(h: float | None, a: float | None) -> float | None:
            return None if h is None or a is None else h + n * a

        return HourlyPrice(add(host.ondemand, acc.ondemand), add(host.spot, acc.spot),
                           f"gcp {instance_type} + {n:g}× {acc_name} {region}")
    p = catalog.price(provider, instance_type, region)
    if p is None:
        where = catalog.regions(provider, instance_type)
        hint = f" (priced in {len(where)} other regions)" if where else ""
        return Unknown(f"no {provider} price for {instance_type} in {region}{hint}")
    return HourlyPrice(p.ondemand, p.spot, f"{provider} {instance_type} {region}")


def _k8s_price(facts: dict[str, Any]) -> HourlyPrice | Unknown:
    """A pod pays its share of a node, or GPU-hours at the cheapest list price for its GPU."""
    gpus = facts.get("gpu.count")
    if not isinstance(gpus, (int, float)) or gpus <= 0:
        return Unknown("GPU count unknown")
    # A MIG slice is billed as its share of the GPU's compute slices (1g = 1/7).
    slices, gpus = gpus, gpus * facts.get("gpu.fraction", 1)
    what = f"{slices:g}× MIG {facts['gpu.mig_profile']} = {gpus:.3g}" \
        if facts.get("gpu.mig_profile") else f"{gpus:g}"
    cloud, itype = facts.get("provider.cloud"), facts.get("instance.type")
    if isinstance(cloud, str) and isinstance(itype, str):
        region = facts.get("region") if isinstance(facts.get("region"), str) \
            else catalog.default_region(cloud)
        node_gpus = facts.get("node.gpu_count") or 1
        unit = "GPUs" if facts.get("accelerator.kind", "gpu") == "gpu" else "devices"
        node = node_price(cloud, itype, region, {**facts, "gpu.count": node_gpus})
        if isinstance(node, Unknown):
            return node
        share = min(1.0, gpus / node_gpus)

        def part(v: float | None) -> float | None:
            return None if v is None else v * share

        return HourlyPrice(part(node.ondemand), part(node.spot),
                           f"{what}/{node_gpus:g} {unit} of {node.basis}")
    model = facts.get("gpu.model")
    if isinstance(model, Unknown):
        return Unknown(f"not priceable: {model.reason}")
    if not isinstance(model, str):
        return Unknown("not priceable: GPU model unknown")
    if model.startswith("TPU-"):
        return _tpu_chip_price(model, gpus)
    # Within the cloud the selectors name (Karpenter → aws, GKE → gcp), else over all clouds.
    best = (catalog.cheapest_per_gpu_hour(model, cloud) if isinstance(cloud, str) else None) \
        or catalog.cheapest_per_gpu_hour(model)
    if best is None:
        return Unknown(f"not priceable: no per-GPU price for {model}")
    per_gpu, provider, itype, region = best
    spot = catalog.price(provider, itype, region)
    spec = catalog.instance(provider, itype)
    spot_per_gpu = (spot.spot / spec.gpu_count) if spot and spot.spot and spec else None
    return HourlyPrice(per_gpu * gpus, spot_per_gpu * gpus if spot_per_gpu else None,
                       f"{what}× {model} at the cheapest on-demand GPU-hour "
                       f"({provider} {itype} {region})")


def _tpu_chip_price(model: str, chips: float) -> HourlyPrice | Unknown:
    """TPU chips at the cheapest per-chip price of any slice of that TPU generation."""
    region = catalog.default_region("gcp")
    best: tuple[float, float | None, str] | None = None
    for spec in catalog.gcp_accelerators():
        p = catalog.gcp_accelerator_price(spec.name, region)
        if spec.gpu_model != model or p is None or p.ondemand is None or spec.gpu_count < 1:
            continue
        per_chip = p.ondemand / spec.gpu_count
        if best is None or per_chip < best[0]:
            best = (per_chip, p.spot / spec.gpu_count if p.spot else None, spec.name)
    if best is None:
        return Unknown(f"not priceable: no {model} slice price in gcp {region}")
    return HourlyPrice(best[0] * chips, best[1] * chips if best[1] else None,
                       f"{chips:g} {model} chips at the cheapest on-demand chip-hour "
                       f"(gcp {best[2]} {region})")


def resource_price(res: Resource) -> HourlyPrice | Unknown:
    f = res.facts
    if res.source == "kubernetes":
        return _k8s_price(f)
    itype, region, provider = f.get("instance.type"), f.get("region"), f.get("provider")
    for name, value in (("instance type", itype), ("region", region)):
        if isinstance(value, Unknown):
            return Unknown(f"{name} unknown: {value.reason}")
    if not isinstance(itype, str) or not isinstance(region, str) or not isinstance(provider, str):
        return Unknown("instance type or region not set")
    return node_price(provider, itype, region, f)


def priced_count(res: Resource) -> tuple[Any, str]:
    """How many nodes/replicas the monthly figure is for, and why that many."""
    f = res.facts
    lo, hi, desired = f.get("replicas.min"), f.get("replicas.max"), f.get("replicas.desired")
    zones = f.get("zones", 1)
    if isinstance(lo, int) and isinstance(hi, int) and lo != hi:
        unit = "replicas" if res.source == "kubernetes" else "nodes"
        note = f"autoscaling {lo}–{hi} {unit}, priced at the minimum"
        count: Any = lo
    else:
        count = desired if desired is not None else 1
        note = ""
    if isinstance(count, Unknown):
        return count, ""
    if zones != 1:
        note = (note + "; " if note else "") + f"× {zones} zones"
        count = count * zones
    return count, note


def price_resource(res: Resource, hours: float = DEFAULT_HOURS) -> None:
    """Set cost.hourly, cost.monthly and cost.basis facts on a resource."""
    price = resource_price(res)
    count, note = priced_count(res)
    res.facts["cost.count"] = count
    if isinstance(price, Unknown):
        res.set_fact("cost.monthly", price)
        res.facts["cost.hourly"] = price
        return
    capacity = res.facts.get("capacity")
    if isinstance(capacity, Unknown):
        res.set_fact("cost.monthly", Unknown(f"capacity unknown: {capacity.reason}"))
        res.facts["cost.hourly"] = res.facts["cost.monthly"]
        return
    hourly = price.for_capacity(capacity)
    if hourly is None:
        res.set_fact("cost.monthly", Unknown(f"no {capacity} price for {price.basis}"))
        res.facts["cost.hourly"] = res.facts["cost.monthly"]
        return
    if isinstance(count, Unknown):
        res.facts["cost.hourly"] = hourly
        res.set_fact("cost.monthly", Unknown(f"count unknown: {count.reason}"))
        return
    res.facts["cost.price"] = price
    res.facts["cost.hourly"] = hourly
    res.facts["cost.monthly"] = round(hourly * count * hours, 2)
    date = catalog.metadata().get("snapshot_date", "?")
    res.facts["cost.basis"] = (f"{price.basis} {capacity} ${hourly:,.4g}/h × {count:g} × {hours:g} h"
                               + (f" ({note})" if note else "") + f"; prices as of {date}")


def finding_saving(res: Resource, compare_with: dict[str, Any],
                   hours: float = DEFAULT_HOURS) -> tuple[float | None, str | None]:
    """Monthly saving of fixing a finding: current cost minus the cost with one thing changed."""
    monthly = res.facts.get("cost.monthly")
    if not isinstance(monthly, (int, float)):
        return None, None
    count = res.facts.get("cost.count")
    price: HourlyPrice | None = res.facts.get("cost.price")
    if "capacity" in compare_with:
        if price is None or price.spot is None or price.ondemand is None:
            return None, "no spot price in the catalog"
        saving = (price.ondemand - price.spot) * count * hours
        return round(saving, 2), f"spot ${price.spot:,.4g}/h vs on-demand ${price.ondemand:,.4g}/h"
    if "hours_per_month" in compare_with:
        used = float(compare_with["hours_per_month"])
        if used >= hours:
            return 0.0, None
        return round(monthly * (1 - used / hours), 2), f"used {used:g} h of {hours:g} h a month"
    if "alternative" in compare_with:
        alt = res.facts.get("sizing.alternative_monthly")
        if not isinstance(alt, (int, float)):
            return None, None
        return round(monthly - alt, 2), f"{res.facts.get('sizing.alternative')} at ${alt:,.2f}/month"
    if "cost" in compare_with:
        return float(monthly), "the whole monthly cost"
    return None, None
