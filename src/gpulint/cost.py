"""Price GPU resources and findings from the bundled catalog.

monthly = hourly price × priced count × hours per month. Every figure carries its basis (catalog
row, region, capacity, hours) so a reviewer can trace it.
"""

from __future__ import annotations

import math
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
    cloud, itype = facts.get("provider.cloud"), facts.get("instance.type")
    if isinstance(cloud, str) and isinstance(itype, str):
        region = catalog.default_region(cloud)
        node = node_price(cloud, itype, region, facts)
        node_gpus = facts.get("node.gpu_count") or 1
        if isinstance(node, Unknown):
            return node
        share = min(1.0, gpus / node_gpus)

        def part(v: float | None) -> float | None:
            return None if v is None else v * share

        return HourlyPrice(part(node.ondemand), part(node.spot),
                           f"{gpus:g}/{node_gpus:g} of {node.basis}")
    model = facts.get("gpu.model")
    if isinstance(model, Unknown):
        return Unknown(f"not priceable: {model.reason}")
    if not isinstance(model, str):
        return Unknown("not priceable: GPU model unknown")
    best = catalog.cheapest_per_gpu_hour(model)
    if best is None:
        return Unknown(f"not priceable: no per-GPU price for {model}")
    per_gpu, provider, itype, region = best
    spot = catalog.price(provider, itype, region)
    spec = catalog.instance(provider, itype)
    spot_per_gpu = (spot.spot / spec.gpu_count) if spot and spot.spot and spec else None
    return HourlyPrice(per_gpu * gpus, spot_per_gpu * gpus if spot_per_gpu else None,
                       f"{gpus:g}× {model} at the cheapest on-demand GPU-hour "
                       f"({provider} {itype} {region})")


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
    tpu = f.get("tpu.slice")
    if provider == "gcp" and isinstance(tpu, str):
        p = catalog.gcp_accelerator_price(tpu, region)
        if p is None:
            return Unknown(f"no gcp price for TPU {tpu} in {region}")
        return HourlyPrice(p.ondemand, p.spot, f"gcp TPU {tpu} {region}")
    # SageMaker ml.* types are priced as the EC2 instance of the same name (see cost.note).
    price = node_price(provider, f.get("cost.instance_type", itype), region, f)
    note = f.get("cost.note")
    if isinstance(price, HourlyPrice) and note:
        return HourlyPrice(price.ondemand, price.spot, f"{price.basis} ({note})")
    return price


def priced_count(res: Resource) -> tuple[Any, str]:
    """How many nodes/replicas the monthly figure is for, and why that many."""
    f = res.facts
    lo, hi, desired = f.get("replicas.min"), f.get("replicas.max"), f.get("replicas.desired")
    zones = f.get("zones", 1)
    if isinstance(lo, int) and isinstance(hi, int) and lo != hi:
        note = f"autoscaling {lo}–{hi} nodes, priced at the minimum"
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
    hourly = _mixed_hourly(res, price, count) if capacity == "mixed" else \
        price.for_capacity(capacity)
    if hourly is None and isinstance(count, Unknown):
        res.set_fact("cost.monthly", Unknown(f"count unknown: {count.reason}"))
        res.facts["cost.hourly"] = res.facts["cost.monthly"]
        return
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
    res.facts["cost.basis"] = (f"{price.basis} {_capacity_note(res)} ${hourly:,.4g}/h × {count:g} × "
                               f"{hours:g} h" + (f" ({note})" if note else "")
                               + f"; prices as of {date}")
    hi = res.facts.get("replicas.max")
    if isinstance(hi, int) and hi != res.facts.get("replicas.min"):
        # The most an autoscaling pool can cost, at its maximum size.
        top = hi * res.facts.get("zones", 1)
        top_hourly = _mixed_hourly(res, price, top) if capacity == "mixed" else hourly
        if top_hourly is not None:
            res.facts["cost.monthly_max"] = round(top_hourly * top * hours, 2)


def on_demand_nodes(res: Resource, count: float) -> float:
    """Nodes on demand in a mixed pool: the base, then a percentage of the rest (rounded up,
    as AWS does for mixed instances policies)."""
    base = res.facts.get("capacity.on_demand_base", 0)
    pct = res.facts.get("capacity.on_demand_percent", 0.0)
    above = max(count - base, 0)
    return min(count, base) + math.ceil(above * pct / 100)


def _mixed_hourly(res: Resource, price: HourlyPrice, count: Any) -> float | None:
    """Average hourly price per node of a pool split between on-demand and spot."""
    if price.ondemand is None or price.spot is None or not isinstance(count, (int, float)):
        return None
    if count == 0:
        return price.ondemand
    od = on_demand_nodes(res, count)
    return (od * price.ondemand + (count - od) * price.spot) / count


def _capacity_note(res: Resource) -> str:
    if res.facts.get("capacity") != "mixed":
        return str(res.facts.get("capacity"))
    return (f"mixed ({res.facts.get('capacity.on_demand_base', 0)} on-demand base + "
            f"{res.facts.get('capacity.on_demand_percent', 0):g}% of the rest on-demand, "
            "the remainder spot)")


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
        current = res.facts.get("cost.hourly", price.ondemand)
        saving = (current - price.spot) * count * hours
        return round(saving, 2), f"spot ${price.spot:,.4g}/h vs on-demand ${current:,.4g}/h"
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
