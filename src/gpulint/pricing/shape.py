"""The node a Kubernetes pod that names only a GPU model lands on, in its own cloud and region.

A pod of N GPUs of model M runs on a node with at least N GPUs of M: the cheapest such node shape
in that cloud's region (an instance type, or on GCP an n1 host with M attached), of which the pod
pays its share. A pod is never priced at another cloud's or another region's rates.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpulint import providers
from gpulint.config.overrides import PricingOverrides
from gpulint.pricing import catalog
from gpulint.pricing.components import where
from gpulint.pricing.price_types import HourlyPrice, apply_overrides, estimate_note

# GCP attaches T4/V100/P4/P100 to n1 hosts; the smallest standard host is the cheapest node.
_GCP_HOST = "n1-standard-1"


@dataclass(frozen=True)
class Shape:
    provider: str
    name: str  # instance type, or "n1-standard-1 + 4× nvidia-tesla-t4"
    region: str
    gpu_model: str
    gpu_count: float
    price: HourlyPrice  # the whole node, with the basis naming its catalog row


def _instance_shapes(provider: str, region: str, model: str,
                     overrides: PricingOverrides | None) -> list[Shape]:
    wanted = model.casefold()
    out = []
    for spec in catalog.instances(provider):
        if (spec.gpu_model or "").casefold() != wanted or spec.gpu_count < 1:
            continue  # a fractional GPU (g6f) is not a node a whole-GPU pod lands on
        p = catalog.price(provider, spec.name, region)
        if p is None or p.ondemand is None:
            continue
        listed = HourlyPrice(p.ondemand, p.spot, f"{provider} {spec.name} "
                                                 f"{where(provider, spec.name, region)}"
                             + estimate_note(provider, spec.name, region))
        out.append(Shape(provider, spec.name, region, spec.gpu_model or model, spec.gpu_count,
                         apply_overrides(listed, provider, spec.name, overrides)))
    return out


def _gcp_attached_shapes(region: str, model: str, min_gpus: int,
                         overrides: PricingOverrides | None) -> list[Shape]:
    wanted = model.casefold()
    host = catalog.gcp_host_price(_GCP_HOST, region)
    out = []
    for acc in catalog.gcp_accelerators():
        if (acc.gpu_model or "").casefold() != wanted or "n1" not in (acc.note or ""):
            continue
        p = catalog.gcp_accelerator_price(acc.name, region)
        if host is None or host.ondemand is None or p is None or p.ondemand is None:
            continue
        n = min_gpus
        listed = HourlyPrice(_plus(host.ondemand, n, p.ondemand), _plus(host.spot, n, p.spot),
                             f"gcp {_GCP_HOST} + {n:g}× {acc.name} {region}"
                             + estimate_note("gcp-accelerator", acc.name, region))
        out.append(Shape("gcp", f"{_GCP_HOST} + {n:g}× {acc.name}", region,
                         acc.gpu_model or model, n,
                         apply_overrides(listed, "gcp", _GCP_HOST, overrides)))
    return out


def _plus(host: float | None, n: int, gpu: float | None) -> float | None:
    return None if host is None or gpu is None else round(host + n * gpu, 6)


def node_shapes(provider: str, region: str, model: str, min_gpus: int,
                overrides: PricingOverrides | None = None) -> list[Shape]:
    """Node shapes of `provider` in `region` with at least `min_gpus` GPUs of `model`,
    cheapest whole node first (fewer GPUs first on a tie)."""
    shapes = _instance_shapes(provider, region, model, overrides)
    if provider == "gcp":
        shapes += _gcp_attached_shapes(region, model, max(1, min_gpus), overrides)
    big = [s for s in shapes if s.gpu_count >= min_gpus and s.price.ondemand is not None]
    return sorted(big, key=lambda s: (s.price.ondemand or 0.0, s.gpu_count, s.name))


def cheapest_shape(provider: str, region: str, model: str, min_gpus: int,
                   overrides: PricingOverrides | None = None) -> Shape | None:
    shapes = node_shapes(provider, region, model, min_gpus, overrides)
    return shapes[0] if shapes else None


def regions_with(provider: str, model: str, min_gpus: int) -> list[str]:
    """Regions of `provider` where some node shape holds `min_gpus` GPUs of `model` (for the
    message when the pod's own region has none)."""
    wanted = model.casefold()
    found: set[str] = set()
    for spec in catalog.instances(provider):
        if (spec.gpu_model or "").casefold() == wanted and spec.gpu_count >= max(1, min_gpus):
            found.update(catalog.regions(provider, spec.name))
    if provider == "gcp":
        for acc in catalog.gcp_accelerators():
            if (acc.gpu_model or "").casefold() == wanted and "n1" in (acc.note or ""):
                found.update(catalog.price_table("gcp-accelerator", acc.name))
    return sorted(found)


def only_cloud(model: str) -> str | None:
    """The cloud when only one offers this GPU model (A10G: aws), else None. Only clouds a model
    alone may put a pod on count (providers.Cloud.assumed_from_gpu)."""
    wanted = model.casefold()
    assumed = {c.name for c in providers.CLOUDS if c.assumed_from_gpu}
    clouds = {spec.provider for p in catalog.providers() if p in assumed
              for spec in catalog.instances(p)
              if (spec.gpu_model or "").casefold() == wanted and spec.gpu_count >= 1}
    if any((a.gpu_model or "").casefold() == wanted and "n1" in (a.note or "")
           for a in catalog.gcp_accelerators()):
        clouds.add("gcp")
    return next(iter(clouds)) if len(clouds) == 1 else None
