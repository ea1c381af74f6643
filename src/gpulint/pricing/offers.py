"""Priced GPU offers from the catalog that hold a memory estimate.

Used by right-sizing (the cheapest fit in a resource's own provider and region) and by
`gpulint explain-model` (the cheapest fits per provider). An offer is a whole instance, or for a
Kubernetes pod that names only a GPU model, N GPUs as their share of the cheapest node shape
holding them in the pod's own cloud and region.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gpulint.config.overrides import PricingOverrides
from gpulint.pricing import catalog, shape
from gpulint.pricing import price as cost
from gpulint.providers import ANY_REGION
from gpulint.sizing import estimate as sizing
from gpulint.sizing import generations


@dataclass(frozen=True)
class Offer:
    provider: str
    name: str  # instance type, or "N× GPU" for GPUs requested by a pod
    region: str
    gpu_model: str
    gpu_count: float
    gpu_memory_gib: float
    hourly: float
    basis: str = ""  # where a per-GPU price comes from

    @property
    def total_memory_gib(self) -> float:
        return round(self.gpu_count * self.gpu_memory_gib, 1)

    def describe(self) -> str:
        hw = f"{self.gpu_count:g}× {self.gpu_model}, {self.total_memory_gib:g} GiB"
        if self.name.endswith(f"× {self.gpu_model}"):
            hw = f"{self.total_memory_gib:g} GiB"
        return f"{self.name} ({hw}, ${self.hourly:,.4g}/h in {self.region})"

    def monthly(self, hours: float, count: float = 1) -> float:
        return round(self.hourly * count * hours, 2)


# Accepts or rejects an offer (tests read gpu_model, gpu_count and gpu_memory_gib).
Accept = Callable[["Offer"], bool]


def _hourly(p: catalog.Price | None, provider: str, name: str, capacity: str,
            overrides: PricingOverrides | None) -> float | None:
    """The price a resource of this type would pay: list price, or the configured override."""
    if p is None:
        return None
    price = cost.apply_overrides(cost.HourlyPrice(p.ondemand, p.spot, ""), provider, name,
                                 overrides)
    return price.for_capacity(capacity)


_PRICED: dict[tuple[object, ...], tuple[Offer, ...]] = {}
_PLUS = "GPU-hours; the vCPUs and memory the pod requests are billed on top"


def priced(provider: str, region: str | None = None, capacity: str = "on-demand",
           overrides: PricingOverrides | None = None) -> tuple[Offer, ...]:
    """Every priced GPU instance of a provider, in one region or at its cheapest region,
    cheapest first. Computed once per catalog file, provider, region, capacity and overrides."""
    key = (catalog.active_origin(), provider, region, capacity, overrides)
    if key in _PRICED:
        return _PRICED[key]
    out = []
    for spec in catalog.instances(provider):
        if spec.accelerator_kind != "gpu" or not spec.gpu_memory_gib or not spec.gpu_model:
            continue
        if "partitions" in (spec.note or ""):
            continue  # Azure NVv4: the catalog cannot say how much of the GPU a size gets
        where = [region] if region else catalog.regions(provider, spec.name)
        prices = [(h, r) for r in where
                  if (h := _hourly(catalog.price(provider, spec.name, r), provider, spec.name,
                                   capacity, overrides))]
        if prices:
            hourly, best_region = min(prices)
            if best_region not in catalog.regions(provider, spec.name):
                best_region = ANY_REGION  # priced at its one price for every region
            out.append(Offer(provider, spec.name, best_region, spec.gpu_model, spec.gpu_count,
                             spec.gpu_memory_gib, hourly))
            if catalog.components(provider):  # a GPU class: a pod takes 1, 2, 4 or 8 of it
                out += [Offer(provider, f"{n}× {spec.name}", best_region, spec.gpu_model, n,
                              spec.gpu_memory_gib, round(hourly * n, 6), _PLUS)
                        for n in POD_GPU_COUNTS[1:]]
    _PRICED[key] = tuple(sorted(out, key=lambda o: (o.hourly, o.name)))
    return _PRICED[key]


def instance_offers(provider: str, region: str | None = None, capacity: str = "on-demand",
                    accept: Accept | None = None,
                    overrides: PricingOverrides | None = None) -> list[Offer]:
    """The priced instances that `accept` takes, cheapest first."""
    return [o for o in priced(provider, region, capacity, overrides)
            if accept is None or accept(o)]


def cheapest_offer(provider: str, region: str | None, capacity: str, accept: Accept,
                   overrides: PricingOverrides | None = None) -> Offer | None:
    """The cheapest priced instance that `accept` takes (tested cheapest first)."""
    return next((o for o in priced(provider, region, capacity, overrides) if accept(o)), None)


def fits(est: sizing.Estimate, headroom: float, tensor_parallel: int | None = None) -> Accept:
    """Accept instances that hold the estimate; with a declared tensor parallelism, on that
    many GPUs."""
    def accept(offer: Offer) -> bool:
        count = offer.gpu_count
        if tensor_parallel:
            if count < tensor_parallel:
                return False
            count = tensor_parallel
        return sizing.fits(est, offer.gpu_memory_gib, count, headroom)
    return accept


def same_vendor(gpu_model: str | None) -> Accept:
    """CUDA work stays on NVIDIA and ROCm work on AMD: moving between them is not a resize."""
    want = generations.vendor(gpu_model)

    def accept(offer: Offer) -> bool:
        return want is None or generations.vendor(offer.gpu_model) == want
    return accept


def current_generation(offer: Offer) -> bool:
    """gpulint never proposes a GPU that its own previous-generation rule would flag."""
    row = generations.lookup(offer.gpu_model)
    return row is not None and not row.previous


def both(*tests: Accept) -> Accept:
    return lambda offer: all(t(offer) for t in tests)


def pod_gpus_price(gpu_model: str, provider: str, region: str, count: int,
                   capacity: str = "on-demand",
                   overrides: PricingOverrides | None = None) -> tuple[float, str] | None:
    """(USD per hour, basis) of `count` GPUs of a model as their share of the cheapest node
    shape holding them in this cloud and region (the basis cost.py prices such a pod on)."""
    node = shape.cheapest_shape(provider, region, gpu_model, count, overrides)
    hourly = node.price.for_capacity(capacity) if node else None
    if node is None or hourly is None:
        return None
    return hourly * count / node.gpu_count, f"{count}/{node.gpu_count:g} GPUs of {node.price.basis}"


# Tensor-parallel degrees a pod may ask for, up to the largest GPU count of one node (8).
POD_GPU_COUNTS = (1, 2, 4, 8)


def pod_offers(place: tuple[str, str] | None, capacity: str,
               holds: Callable[[str, float, int], bool],
               overrides: PricingOverrides | None = None) -> list[Offer]:
    """For a pod naming only a GPU model, priced in `place` (cloud, region): of each GPU model,
    the fewest GPUs (1, 2, 4 or 8) for which holds(gpu, memory, n) is true, as their share of
    the cheapest node shape in that same cloud and region. None when the place is not known:
    an alternative never moves a workload to another cloud or region. Cheapest first."""
    if place is None:
        return []
    provider, region = place
    out = []
    for gpu, mem in catalog.gpu_models().items():
        n = next((n for n in POD_GPU_COUNTS if holds(gpu, mem, n)), None)
        price = pod_gpus_price(gpu, provider, region, n, capacity, overrides) if n else None
        if n is None or price is None:
            continue
        hourly, basis = price
        out.append(Offer(provider, f"{n}× {gpu}", region, gpu, n, mem, round(hourly, 6), basis))
    return sorted(out, key=lambda o: (o.hourly, o.name))
