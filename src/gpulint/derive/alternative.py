"""Find and record a resource's cheaper alternative, priced on the same basis as the resource.

Shared by the right-sizing checks (oversized, idle GPUs, previous generation): where the
resource runs, what it costs now, the cheapest acceptable offer there, and the facts and message
phrases that record it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from gpulint import providers
from gpulint.config.cost import DEFAULT_HOURS
from gpulint.config.overrides import PricingOverrides
from gpulint.config.sizing import SizingSettings
from gpulint.fact_types import Resource
from gpulint.model import Alternative, Unknown
from gpulint.pricing import catalog, offers
from gpulint.pricing import price as cost
from gpulint.sizing import estimate as sizing
from gpulint.units import usd_whole as money


@dataclass(frozen=True)
class Context:
    """What the derivers of one resource read: the sizing settings, and the basis the resource
    is priced on (alternatives are priced the same way: same negotiated prices, hours, and for
    Kubernetes nodes the same configured default region)."""

    sizing: SizingSettings = field(default_factory=SizingSettings)
    hours: float = DEFAULT_HOURS
    overrides: PricingOverrides | None = None
    default_regions: Mapping[str, str] = field(default_factory=dict)


def is_number(v: Any) -> TypeGuard[float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def number_or(v: Any, default: float) -> float:
    """A fact's value when it is a number (not unknown, absent or a flag), else `default`."""
    return v if is_number(v) else default


def set_unknown(res: Resource, names: Iterable[str], reason: str) -> None:
    for name in names:
        res.facts_by_name[name] = Unknown(reason)


def capacity(res: Resource) -> str:
    """"spot" or "on-demand", as cost.py prices the resource."""
    c = res.facts.get("capacity")
    return "spot" if isinstance(c, str) and c.lower() in cost.SPOT_WORDS else "on-demand"


def pod_without_node(res: Resource) -> bool:
    """A Kubernetes workload that names a GPU model but no instance type."""
    return res.source == "kubernetes" and not isinstance(res.facts.get("instance.type"), str)


def cloud(res: Resource) -> str | None:
    """The cloud of a Kubernetes workload, when its node selection says."""
    c = res.facts.get("provider.cloud")
    return c if isinstance(c, str) else None


def where(res: Resource, opts: Context) -> tuple[str, str] | str:
    """(provider, region) of a resource's instance, or why it is not known. Kubernetes nodes are
    priced in the configured (or built-in) default region, as cost.py prices them."""
    f = res.facts
    provider = cloud(res) if res.source == "kubernetes" else f.get("provider")
    if not isinstance(provider, str) or provider not in providers.NAMES:
        return "the cloud provider is not known"
    if res.source == "kubernetes":
        linked = f.get("region")
        if isinstance(linked, str):  # linked to a node pool (gpulint.linking)
            return provider, linked
        return provider, opts.default_regions.get(provider) or catalog.default_region(provider)
    region = f.get("region")
    if isinstance(region, Unknown):
        return f"region unknown: {region.reason}"
    return (provider, region) if isinstance(region, str) else "region not set"


def pod_place(res: Resource) -> tuple[str, str] | None:
    """(cloud, region) a pod naming only a GPU model is priced in; None when not known (its
    alternatives stay there, never in another cloud or region)."""
    c, r = res.facts.get("cost.cloud"), res.facts.get("cost.region")
    return (c, r) if isinstance(c, str) and isinstance(r, str) else None


def cheapest(res: Resource, accept: offers.Accept, pod_offers: list[offers.Offer],
             opts: Context, unpriced: bool = False
             ) -> tuple[offers.Offer | None, float | None] | str:
    """(cheapest acceptable offer or None, current hourly price on the same basis), or why
    there is nothing to compare. Bare pods choose from `pod_offers`; everything else from the
    instances of its own provider and region at its capacity type. With `unpriced`, a resource
    without a price still gets its offer (current None): the fit does not need a price."""
    # A pod's share of its node, or the node's price; a SageMaker endpoint's EC2 rate, the
    # basis its EC2 alternatives are priced on.
    current = res.facts.get("cost.compare_hourly", res.facts.get("cost.hourly"))
    hourly = float(current) if is_number(current) else None
    if pod_without_node(res):
        if hourly is None and not unpriced:
            return "the current price is not known" + (
                f": {current.reason}" if isinstance(current, Unknown) else "")
        return (pod_offers[0] if pod_offers else None), hourly
    place = where(res, opts)
    if isinstance(place, str):
        return place
    if hourly is None and not unpriced:
        return "the current price is not known"
    return offers.cheapest_offer(place[0], place[1], capacity(res), accept,
                                 opts.overrides), hourly


def holds_on(est: sizing.Estimate, offer: offers.Offer) -> str:
    """How the offer holds an estimate made for another GPU count (the split changes the
    total: per-GPU parts such as the CUDA context, or a replicated MLA cache)."""
    n = max(1, int(offer.gpu_count))
    if n == est.gpu_count:
        return ""
    return f", holding it on {n} GPU{'s' if n != 1 else ''} ({est.per_gpu_gib(n) * n:.1f} GiB)"


# Alternative kind -> (the fact naming its offer, the explain.* phrase prefix).
_NAMES = {"sizing": ("sizing.alternative", "alternative"),
          "idle": ("sizing.idle_alternative", "idle"),
          "generation": ("sizing.generation_alternative", "generation")}


def record(res: Resource, kind: str, offer: offers.Offer, current_hourly: float | None,
           hours: float, holds: str = "", then: str = "") -> float | Unknown:
    """Set alternative.<kind> (the priced Alternative), the fact naming its offer, and the
    explain.<phrase>_detail and explain.<phrase>_saving phrases (`holds` says how it holds the
    estimate, `then` what follows the price). Returns the saving as a fraction of the current
    cost on the same basis; Unknown when the resource has no price (the fit still stands)."""
    f = res.facts
    count = number_or(f.get("cost.count"), 1)
    alt_monthly = offer.monthly(hours, count)
    if current_hourly is None:
        cost = f.get("cost.monthly")
        why = cost.reason if isinstance(cost, Unknown) else "the resource is not priced"
        detail = (f"{offer.describe()}{holds}: {money(alt_monthly)}/month{then}; the saving is "
                  f"not known ({why})")
        put(res, kind, Alternative(offer.name, alt_monthly, None, 0.0, detail))
        return Unknown(f"saving not known: {why}")
    current_monthly = round(current_hourly * count * hours, 2)
    saving = max(0.0, current_monthly - alt_monthly)
    fraction = round(saving / current_monthly, 3) if current_monthly > 0 else 0.0
    detail = (f"{offer.describe()}{holds}: {money(alt_monthly)}/month "
              f"instead of {money(current_monthly)}{then}")
    put(res, kind, Alternative(offer.name, alt_monthly, current_monthly, fraction, detail))
    return fraction


def put(res: Resource, kind: str, alt: Alternative) -> None:
    """Record a priced alternative of one kind (alternative.<kind> and its phrases)."""
    named, phrase = _NAMES[kind]
    f = res.facts_by_name  # alternative.<kind>, explain.<phrase>_…: names made from `kind`
    f[f"alternative.{kind}"] = alt
    f[named] = alt.offer
    f[f"explain.{phrase}_detail"] = alt.detail
    if alt.monthly is not None and alt.current_monthly is not None:
        f[f"explain.{phrase}_saving"] = \
            f"{money(max(0.0, alt.current_monthly - alt.monthly))}/month"
