"""Find and record a resource's cheaper alternative, priced on the same basis as the resource.

Shared by the right-sizing checks (oversized, idle GPUs, previous generation): where the
resource runs, what it costs now, the cheapest acceptable offer there, and the facts and message
phrases that record it.
"""

from __future__ import annotations

from typing import Any, Iterable

from gpulint import providers
from gpulint.pricing import catalog
from gpulint.pricing import price as cost
from gpulint.pricing import offers
from gpulint.sizing import estimate as sizing
from gpulint.model import Resource, Unknown
from gpulint.config.sizing import SizingOptions
from gpulint.units import usd_whole as money


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def set_unknown(res: Resource, names: Iterable[str], reason: str) -> None:
    for name in names:
        res.facts[name] = Unknown(reason)


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


def where(res: Resource, opts: SizingOptions) -> tuple[str, str] | str:
    """(provider, region) of a resource's instance, or why it is not known. Kubernetes nodes are
    priced in the configured (or built-in) default region, as cost.py prices them."""
    f = res.facts
    provider = cloud(res) if res.source == "kubernetes" else f.get("provider")
    if not isinstance(provider, str) or provider not in providers.NAMES:
        return "the cloud provider is not known"
    if res.source == "kubernetes":
        if isinstance(f.get("region"), str):  # linked to a node pool (gpulint.linking)
            return provider, f["region"]
        return provider, opts.default_regions.get(provider) or catalog.default_region(provider)
    region = f.get("region")
    if isinstance(region, Unknown):
        return f"region unknown: {region.reason}"
    return (provider, region) if isinstance(region, str) else "region not set"


def _pod_current_hourly(res: Resource, opts: SizingOptions) -> float | None:
    """A bare pod's GPUs at the basis its alternatives are priced on (its cloud's GPU-hour)."""
    price = offers.per_gpu_price(str(res.facts.get("gpu.model")), cloud(res), capacity(res),
                                 opts.overrides)
    count = res.facts.get("gpu.count")
    share = res.facts.get("gpu.fraction", 1)  # a MIG slice pays its share of the GPU
    return price[0] * count * share if price and is_number(count) else None


def cheapest(res: Resource, accept: offers.Accept, pod_offers: list[offers.Offer],
             opts: SizingOptions) -> tuple[offers.Offer | None, float] | str:
    """(cheapest acceptable offer or None, current hourly price on the same basis), or why
    there is nothing to compare. Bare pods choose from `pod_offers`; everything else from the
    instances of its own provider and region at its capacity type."""
    if pod_without_node(res):
        current = _pod_current_hourly(res, opts)
        if current is None:
            return f"no per-GPU price for {res.facts.get('gpu.model')} to compare with"
        return (pod_offers[0] if pod_offers else None), current
    place = where(res, opts)
    if isinstance(place, str):
        return place
    hourly = res.facts.get("cost.hourly")  # a pod on a node: its GPUs' share of the node
    if not is_number(hourly):
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


def record(res: Resource, prefix: str, text: str, offer: offers.Offer, current_hourly: float,
           hours: float, holds: str = "") -> float:
    """Set <prefix>alternative, <prefix>alternative_monthly (and <prefix>current_monthly when
    the comparison basis differs from cost.monthly), text.<text>_detail and
    text.<text>_saving (`holds` says how it holds the estimate). Returns the saving as a
    fraction of the current cost."""
    f = res.facts
    count = f.get("cost.count") if is_number(f.get("cost.count")) else 1
    alt_monthly = offer.monthly(hours, count)
    current_monthly = round(current_hourly * count * hours, 2)
    f[f"{prefix}alternative"] = offer.name
    f[f"{prefix}alternative_monthly"] = alt_monthly
    if current_monthly != f.get("cost.monthly"):
        f[f"{prefix}current_monthly"] = current_monthly
    saving = max(0.0, current_monthly - alt_monthly)
    f[f"text.{text}_detail"] = (f"{offer.describe()}{holds}: {money(alt_monthly)}/month "
                                f"instead of {money(current_monthly)}")
    f[f"text.{text}_saving"] = f"{money(saving)}/month"
    return round(saving / current_monthly, 3) if current_monthly > 0 else 0.0
