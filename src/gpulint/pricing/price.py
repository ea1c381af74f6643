"""Price GPU resources and findings from the catalog.

monthly = hourly price × priced count × hours per month. Every figure carries its basis (catalog
row, region and where it came from, capacity, any pricing override, hours and where they came
from) so a reviewer can trace it. docs/cost.md describes the method.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any
from weakref import WeakKeyDictionary

from gpulint import providers
from gpulint.config.cost import DEFAULT_HOURS, CostOptions
from gpulint.config.overrides import PricingOverrides
from gpulint.fact_types import Resource
from gpulint.model import Unknown
from gpulint.pricing import adjustments, catalog, cloud_run, sagemaker
from gpulint.pricing.components import pod_price
from gpulint.pricing.components import where as price_place
from gpulint.pricing.count import count_bounds, priced_count, resource_hours
from gpulint.pricing.price_types import HourlyPrice as HourlyPrice
from gpulint.pricing.price_types import apply_overrides as apply_overrides
from gpulint.pricing.price_types import estimate_note
from gpulint.pricing.shape import cheapest_shape, node_shapes, only_cloud, regions_with
from gpulint.units import usd_rate

# Capacity words the fact builders may use; all are priced at the catalog's spot column.
SPOT_WORDS = frozenset({"spot", "preemptible", "low-priority", "lowpriority"})
# The price each resource was priced at, for the savings computed after evaluation: the
# pricing stage's own, not a fact: no rule reads it.
_PRICED: WeakKeyDictionary[Resource, HourlyPrice] = WeakKeyDictionary()


def priced(res: Resource) -> HourlyPrice | None:
    """The catalog price (overrides applied) `price_resource` priced the resource at."""
    return _PRICED.get(res)


def node_price(provider: str, instance_type: str, region: str, facts: Mapping[str, Any],
               overrides: PricingOverrides | None = None) -> HourlyPrice | Unknown:
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
            return None if h is None or a is None else round(h + n * a, 6)

        listed = HourlyPrice(add(host.ondemand, acc.ondemand), add(host.spot, acc.spot),
                             f"gcp {instance_type} + {n:g}× {acc_name} {region}"
                             + estimate_note("gcp-accelerator", str(acc_name), region))
        return apply_overrides(listed, provider, instance_type, overrides)
    p = catalog.price(provider, instance_type, region)
    if p is None and provider == "gcp":
        tpu = _tpu_price(instance_type, region, overrides)
        if tpu is not None:
            return tpu
    if p is None:
        where = catalog.regions(provider, instance_type)
        hint = f" (priced in {len(where)} other regions)" if where else ""
        why = adjustments.dropped_row(provider, instance_type, region)
        hint += f"; the catalog check dropped its row: {why}" if why else ""
        return Unknown(f"no {provider} price for {instance_type} in {region}{hint}")
    row = catalog.instance(provider, instance_type)  # the catalog's spelling of the row
    name = row.name if row else instance_type
    place = price_place(provider, name, region)
    return apply_overrides(HourlyPrice(p.ondemand, p.spot, f"{provider} {name} {place}"
                                       + estimate_note(provider, instance_type, region)),
                           provider, instance_type, overrides)


def _tpu_price(name: str, region: str,
               overrides: PricingOverrides | None) -> HourlyPrice | Unknown | None:
    """A TPU slice ("v6e-8" or "tpu-v6e-8"), priced per slice-hour; None if not a TPU."""
    spec = catalog.gcp_accelerator(name)
    if spec is None or spec.accelerator_kind != "tpu":
        return None
    p = catalog.gcp_accelerator_price(spec.name, region)
    if p is None:
        where = catalog.price_table("gcp-accelerator", spec.name)
        hint = f" (priced in {len(where)} other regions)" if where else ""
        return Unknown(f"no gcp price for TPU slice {spec.name} in {region}{hint}")
    return apply_overrides(HourlyPrice(p.ondemand, p.spot, f"gcp {spec.name} slice {region}"),
                           "gcp", spec.name, overrides)


def _default_region(provider: str, opts: CostOptions) -> tuple[str, str]:
    if provider in opts.default_regions:
        return opts.default_regions[provider], "configured default region"
    return catalog.default_region(provider), "default region"


CLOUD_FIX = ("declare the cluster (cloud, region, node pools) under `clusters:` in the "
             "configuration")


def _k8s_region(res: Resource, cloud: str, opts: CostOptions) -> tuple[str, str]:
    facts = res.facts
    linked = facts.get("region")
    if isinstance(linked, str):  # a linked node pool's or a declared cluster's
        region, how = linked, "region of the node pool"
        if isinstance(facts.get("cluster"), str) and facts.get("cluster.region") == linked:
            how = f"region of cluster {facts['cluster']}"
    elif isinstance(applied_by := facts.get("terraform.provider_regions"), dict) \
            and isinstance(applied_by.get(cloud), str):
        # Applied by Terraform code whose provider names the cluster's region.
        via = facts.get("terraform.provider_regions.via")
        region, how = applied_by[cloud], "region of the Terraform provider that applies " + (
            f"its pool {via}" if isinstance(via, str) else "it")
    else:
        region, how = _default_region(cloud, opts)
    if isinstance(facts.get("cost.cloud_source"), str):
        how = f"{facts['cost.cloud_source']}, {how}"
    res.facts["cost.cloud"], res.facts["cost.region"] = cloud, region
    return region, how


def _k8s_price(res: Resource, opts: CostOptions) -> HourlyPrice | Unknown:
    """A pod pays its share of a node in its own cloud and region: the node of its linked pool,
    else the cheapest node shape there with at least as many GPUs of its model."""
    facts = res.facts
    gpus = facts.get("gpu.count")
    if not isinstance(gpus, (int, float)) or gpus <= 0:
        return Unknown("GPU count unknown")
    # A MIG slice is billed as its share of the GPU's compute slices (1g = 1/7).
    slices, gpus = gpus, gpus * facts.get("gpu.fraction", 1)
    what = f"{slices:g}× MIG {facts['gpu.mig_profile']} = {gpus:.3g}" \
        if facts.get("gpu.mig_profile") else f"{gpus:g}"
    cloud, itype = facts.get("provider.cloud"), facts.get("instance.type")
    if isinstance(cloud, str) and isinstance(itype, str):
        region, how = _k8s_region(res, cloud, opts)
        billed = providers.get(cloud)
        if billed is not None and billed.billing != "instance":
            return pod_price(facts, cloud, itype, region, gpus, what, how, opts.overrides)
        node_gpus = facts.get("node.gpu_count") or 1
        if isinstance(facts.get("node.gpu_shortfall"), str):
            return Unknown(f"not priceable: {facts['node.gpu_shortfall']}")
        unit = "GPUs" if facts.get("accelerator.kind", "gpu") == "gpu" else "devices"
        node = node_price(cloud, itype, region, {**facts, "gpu.count": node_gpus}, opts.overrides)
        if isinstance(node, Unknown):
            return node
        share = min(1.0, gpus / node_gpus)
        note = facts.get("cost.note")  # a SageMaker node priced at the EC2 rate says so
        return node.scaled(share, f"{what}/{node_gpus:g} {unit} of {node.basis} ({how}"
                           + (f"; {note})" if note else ")"))
    model = facts.get("gpu.model")
    if isinstance(model, Unknown):
        return Unknown(f"not priceable: {model.reason}")
    if not isinstance(model, str):
        return Unknown("not priceable: GPU model unknown")
    if not isinstance(cloud, str) and only_cloud(model):
        cloud = only_cloud(model)
        res.facts["cost.cloud_source"] = f"the only cloud with {model}"
    if not isinstance(cloud, str):
        return Unknown("cloud unknown: nothing names the cloud its nodes run in (a GKE, "
                       "Karpenter, AKS or eksctl label, or a linked node pool); " + CLOUD_FIX)
    region, how = _k8s_region(res, cloud, opts)
    if model.startswith("TPU-"):
        return _tpu_chip_price(model, gpus, region, how)
    need = max(1, math.ceil(gpus))
    allowed = facts.get("instance.allowed")
    if isinstance(allowed, list):  # a Karpenter pool that narrows sizes, families or CPUs
        fits = [s for s in node_shapes(cloud, region, model, need, opts.overrides)
                if s.name in allowed]
        if not fits:
            return Unknown(f"not priceable: the instance types its NodePool allows have no "
                           f"{need} {model} GPUs in {region} ({', '.join(allowed) or 'none'})")
        return fits[0].price.scaled(gpus / fits[0].gpu_count, (
            f"{what}/{fits[0].gpu_count:g} GPUs of {fits[0].price.basis} (the cheapest {cloud} "
            f"node with ≥ {need} {model} its NodePool allows; {how})"))
    shape = cheapest_shape(cloud, region, model, need, opts.overrides)
    if shape is None and facts.get("k8s.kind") == "NodePool":
        # A pool's GPU limit spans nodes: its GPUs at the share of the largest node there.
        shape = next(iter(sorted(node_shapes(cloud, region, model, 1, opts.overrides),
                                 key=lambda s: (-s.gpu_count, s.price.ondemand or 0.0))), None)
    if shape is None:
        elsewhere = regions_with(cloud, model, need)
        hint = f" (there is in {len(elsewhere)} other regions)" if elsewhere else ""
        dropped = sorted(s.name for s in catalog.instances(cloud)
                         if (s.gpu_model or "").casefold() == model.casefold()
                         and s.gpu_count >= need and adjustments.dropped_row(cloud, s.name, region))
        if dropped:  # the type is offered there, but its row failed the consistency check
            hint += (f"; the catalog check dropped the {region} rows of {', '.join(dropped)} "
                     "(another rate than the list price; docs/catalog.md)")
        return Unknown(f"not priceable: no {cloud} node with {need} {model} GPUs in {region}{hint}"
                       f"; set the region of the cluster it runs in")
    n = shape.gpu_count
    which = f"the cheapest {cloud} node with ≥ {need} {model}" if n >= need else \
        f"the largest {cloud} {model} node"
    return shape.price.scaled(gpus / n, f"{what}/{n:g} GPUs of {shape.price.basis} "
                                        f"({which}; {how})")


def _tpu_chip_price(model: str, chips: float, region: str, how: str) -> HourlyPrice | Unknown:
    """TPU chips at the cheapest per-chip price of any slice of that TPU generation."""
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
                       f"(gcp {best[2]} {region}; {how})")


_REGION_HOW = {"code": "region from code", "config": "configured default region",
               "default": "default region"}


def _region(res: Resource, provider: str, opts: CostOptions) -> tuple[Any, str]:
    """Region for pricing; a configured default replaces the built-in one."""
    region, source = res.facts.get("region"), res.facts.get("region.source")
    if source == "default" and provider in opts.default_regions:
        region, source = opts.default_regions[provider], "config"
        res.facts["region"], res.facts["region.source"] = region, source
    return region, _REGION_HOW.get(str(source), "region")


def _sagemaker(res: Resource, opts: CostOptions) -> HourlyPrice | Unknown:
    """A SageMaker ml.* type at its own rate for its use, else the EC2 rate (sagemaker.py)."""
    itype, ec2_type = res.facts.get("instance.type"), res.facts.get("cost.instance_type")
    region, how = _region(res, "aws", opts)
    for name, value in (("instance type", itype), ("region", region)):
        if isinstance(value, Unknown):
            return Unknown(f"{name} unknown: {value.reason}")
    if not isinstance(ec2_type, str) or not isinstance(region, str):
        return Unknown("instance type or region not set")
    ec2 = node_price("aws", ec2_type, region, res.facts, opts.overrides)
    return sagemaker.resource_price(res, region, how, ec2)


def resource_price(res: Resource, opts: CostOptions | None = None) -> HourlyPrice | Unknown:
    opts = opts or CostOptions()
    f = res.facts
    if isinstance(f.get("sagemaker.use"), str):
        return _sagemaker(res, opts)
    if res.source == "kubernetes":
        return _k8s_price(res, opts)
    unpriced = f.get("cost.unpriced")
    if unpriced:
        return Unknown(unpriced)  # a service billed at rates the catalog does not list
    provider = f.get("provider")
    itype = f.get("instance.type")
    region, how = _region(res, provider if isinstance(provider, str) else "", opts)
    for name, value in (("instance type", itype), ("region", region)):
        if isinstance(value, Unknown):
            return Unknown(f"{name} unknown: {value.reason}")
    if not isinstance(itype, str) or not isinstance(region, str) or not isinstance(provider, str):
        return Unknown("instance type or region not set")
    shape = f.get("cost.service_shape")
    if isinstance(shape, dict) and shape.get("service") == "cloud-run":
        run = cloud_run.instance_price(shape, region, how)  # its own per-second rates
        return run if isinstance(run, Unknown) else apply_overrides(run, provider, itype,
                                                                    opts.overrides)
    price = node_price(provider, f.get("cost.instance_type", itype), region, f, opts.overrides)
    if isinstance(price, Unknown):  # a type the catalog does not know: its cause, not a 2nd
        model = f.get("gpu.model")
        if isinstance(model, Unknown) and "catalog" in model.reason \
                and catalog.instance(provider, itype) is None:
            return Unknown(model.reason)
        return price
    note = f.get("cost.note")
    return replace(price, basis=f"{price.basis} ({how}" + (f"; {note})" if note else ")"))


def mixed_spot_fraction(res: Resource, count: Any) -> float | None:
    """Share of `count` nodes on spot in a pool split by an on-demand base and a percentage of
    the rest on demand (AWS mixed instances policies, Databricks first_on_demand). AWS rounds
    the on-demand share up."""
    base = res.facts.get("capacity.on_demand_base")
    pct = res.facts.get("capacity.on_demand_percent")
    if not isinstance(base, int) or not isinstance(pct, (int, float)) or \
            not isinstance(count, (int, float)) or count <= 0:
        return None
    on_demand = min(count, base) + math.ceil(max(count - base, 0) * pct / 100)
    return round((count - on_demand) / count, 6)


def spot_fraction(res: Resource) -> Any:
    """Share of the nodes on spot (ASG mixed instances), when the facts give one."""
    frac = res.facts.get("capacity.spot_fraction")
    if isinstance(frac, Unknown):
        return Unknown(f"spot share unknown: {frac.reason}")
    if isinstance(frac, (int, float)) and not isinstance(frac, bool) and 0 <= frac <= 1:
        return float(frac)
    return None


def _hourly(price: HourlyPrice, capacity: Any, fraction: Any) -> tuple[Any, str]:
    """(hourly price or Unknown, how it was chosen) for the capacity facts."""
    if isinstance(fraction, Unknown):
        return fraction, ""
    if isinstance(fraction, float) and 0 < fraction < 1:
        if price.spot is None or price.ondemand is None:
            return Unknown(f"mixed capacity needs both prices; {price.basis} lacks one"), ""
        blended = round(fraction * price.spot + (1 - fraction) * price.ondemand, 6)
        notes = "; ".join(n for n in (price.spot_override, price.ondemand_override) if n)
        how = (f"mixed {fraction:.0%} spot {usd_rate(price.spot)}/h + {1 - fraction:.0%} "
               f"on-demand {usd_rate(price.ondemand)}/h = {usd_rate(blended)}/h"
               + (f" [{notes}]" if notes else ""))
        return blended, how
    if isinstance(fraction, float):
        capacity = "spot" if fraction == 1 else "on-demand"
    if isinstance(capacity, Unknown):
        return Unknown(f"capacity unknown: {capacity.reason}"), ""
    cap = "spot" if str(capacity).lower() in SPOT_WORDS else "on-demand"
    hourly = price.for_capacity(cap)
    if hourly is None:
        return Unknown(f"no {cap} price for {price.basis}"), ""
    note = price.override_for(cap)
    return hourly, f"{cap} {usd_rate(hourly)}/h" + (f" [{note}]" if note else "")


def price_resource(res: Resource, hours: float = DEFAULT_HOURS,
                   options: CostOptions | None = None) -> None:
    """Set cost.hourly, cost.monthly, cost.hours and cost.basis facts on a resource."""
    opts = options or CostOptions(hours=hours)
    price = resource_price(res, opts)
    count, note = priced_count(res)
    res.facts["cost.count"] = count
    hours, hours_how = resource_hours(res, opts)
    res.facts["cost.hours"] = hours
    bounds = count_bounds(res)
    if res.facts.get("capacity") == "mixed" and "capacity.spot_fraction" not in res.facts:
        # The split depends on the size: take it at the priced size (the maximum for a pool
        # priced at zero nodes, so the blend still says something).
        frac = mixed_spot_fraction(res, count if count else (bounds[1] if bounds else None))
        if frac is not None:
            res.facts["capacity.spot_fraction"] = frac
    if isinstance(price, Unknown):
        res.set_fact("cost.monthly", price)
        res.facts["cost.hourly"] = price
        return
    hourly, how = _hourly(price, res.facts.get("capacity"), spot_fraction(res))
    if isinstance(hourly, Unknown):
        res.set_fact("cost.monthly", hourly)
        res.facts["cost.hourly"] = hourly
        return
    res.facts["cost.hourly"] = hourly
    if isinstance(count, Unknown):
        res.set_fact("cost.monthly", Unknown(f"count unknown: {count.reason}"))
        return
    _PRICED[res] = price
    monthly = round(hourly * count * hours, 2)
    res.facts["cost.monthly"] = monthly
    res.facts["cost.basis"] = (f"{price.basis} {how} × {count:g}"
                               + (f" ({note})" if note else "")
                               + f" × {hours:g} h ({hours_how}) = ${monthly:,.2f}/month; "
                               + _source(res))
    bounds = count_bounds(res)
    if bounds is not None:
        # An autoscaling pool: what it costs at either end of its range, beside the expected.
        low, high = (_at(res, price, nodes, hours) for nodes in bounds)
        if low is not None and high is not None:
            res.facts["cost.monthly_min"], res.facts["cost.monthly_max"] = low, high


def _source(res: Resource) -> str:
    """The priced cloud's price source and its date (a pod's cloud, else the provider)."""
    from gpulint.pricing.catalog_report import basis_source

    f = res.facts
    if sagemaker.source_of(res):
        return f"SageMaker rates: {sagemaker.source_of(res)}"
    cloud = f.get("cost.cloud") or f.get("provider.cloud") or f.get("provider")
    return basis_source(cloud) if isinstance(cloud, str) else \
        f"catalog {catalog.metadata().get('snapshot_date')}"


def _at(res: Resource, price: HourlyPrice, nodes: int, hours: float) -> float | None:
    """The monthly figure at `nodes` nodes (a mixed fleet's split depends on the size)."""
    frac = mixed_spot_fraction(res, nodes) if res.facts.get("capacity") == "mixed" \
        else spot_fraction(res)
    hourly, _ = _hourly(price, res.facts.get("capacity"), frac)
    return round(hourly * nodes * hours, 2) if isinstance(hourly, (int, float)) else None
