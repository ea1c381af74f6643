"""Compare what the declared model needs with what the GPUs give, and find a cheaper fit.

Runs after pricing on every GPU resource with a declared model. Sets the model.* facts,
model.fits, sizing.alternative / sizing.saving_fraction and the priced alternative.sizing, and
the explain.* phrases messages show. Thresholds come from the `sizing:` settings.
"""

from __future__ import annotations

from gpulint.derive.alternative import (
    Context,
    capacity,
    cheapest,
    cloud,
    holds_on,
    is_number,
    pod_without_node,
    record,
    set_unknown,
)
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource, Unknown
from gpulint.pricing import offers
from gpulint.sizing import estimate as sizing
from gpulint.sizing import generations
from gpulint.sizing import model_catalog as models

_TRAINING_METHODS = {"training": "full", "full": "full", "fine-tune": "full", "lora": "lora",
                     "qlora": "qlora"}
_FACTS = ("model.fits", "sizing.alternative", "sizing.saving_fraction")


def apply(res: Resource, decl: ModelDecl, opts: Context) -> sizing.Estimate | None:
    """Set the model and fit facts; returns the typical-load estimate, if there is one."""
    return _model(res, decl, opts)


def model_label(decl: ModelDecl, info: models.ModelInfo) -> str:
    """The declared name, saying so when its size was read from the name."""
    if not info.estimated:
        return decl.id
    return f"{decl.id} ({info.params_total / 1e9:g}B parameters, estimated from its name)"


def _estimates(res: Resource, decl: ModelDecl, info: models.ModelInfo,
               opts: Context) -> tuple[sizing.Estimate, sizing.Estimate]:
    """(minimum to start, typical load). Serving needs at least one full-context sequence of KV
    cache to start; right-sizing uses the configured (or documented default) concurrency."""
    purpose = (decl.purpose or "").lower()
    if purpose in _TRAINING_METHODS or (not purpose and res.facts.get("workload") == "training"):
        method = _TRAINING_METHODS.get(purpose, "full")
        res.facts["model.purpose"] = method if method != "full" else "training"
        est = sizing.estimate_training(info, method, decl.precision)
        return est, est
    res.facts["model.purpose"] = "inference"
    args = (info, decl.precision, decl.context or opts.sizing.context)
    # Pipeline stages split weights and KV cache by layer as tensor ranks do by head, so one
    # replica's memory is spread over tensor × pipeline GPUs; data-parallel replicas each hold it all.
    kwargs = {"tensor_parallel": decl.gpus_per_replica,
              "gpu_memory_utilization": decl.gpu_memory_utilization}
    return (sizing.estimate_inference(*args, concurrency=1, **kwargs),
            sizing.estimate_inference(*args, concurrency=opts.sizing.concurrency, **kwargs))


def _model(res: Resource, decl: ModelDecl, opts: Context) -> sizing.Estimate | None:
    """Model facts, model.fits and the oversized alternative; returns the typical estimate."""
    f = res.facts
    f["model.source"] = decl.source
    info = models.resolve(decl.id)
    if info is None:
        reason = (f"model {decl.id!r} is not in the model catalog and its size cannot be read "
                  "from its name")
        res.set_fact("model.id", Unknown(reason))
        set_unknown(res, _FACTS, reason)
        return None
    f["model.id"] = info.id
    f["model.params_b"] = round(info.params_total / 1e9, 2)
    f["model.estimated"] = info.estimated
    f["explain.model_label"] = model_label(decl, info)
    try:
        minimum, est = _estimates(res, decl, info, opts)
    except (ValueError, KeyError, TypeError, ZeroDivisionError) as e:
        res.set_fact("model.fits", Unknown(f"memory estimate failed: {e}"))
        set_unknown(res, _FACTS[1:], f"memory estimate failed: {e}")
        return None
    f["model.precision"] = est.inputs.get("precision")
    f["model.required_gib"] = round(minimum.total_gib, 1)
    f["model.minimum"] = minimum.describe()
    f["model.estimate"] = est.describe()
    if decl.tensor_parallel:
        f["model.tensor_parallel"] = decl.tensor_parallel
    mem, count = f.get("gpu.memory_gib"), f.get("gpu.count")
    if "group.gpu_count" in f:  # a model served across the hosts of a multi-host group
        count = f["group.gpu_count"]
    for name, value in (("GPU memory", mem), ("GPU count", count)):
        if not is_number(value):
            gpu = f.get("gpu.model")
            why = value.reason if isinstance(value, Unknown) else \
                gpu.reason if isinstance(gpu, Unknown) else "not known"
            set_unknown(res, _FACTS, f"{name} unknown: {why}")
            return est
    usable = min(count, decl.gpus_per_replica) if decl.parallel_declared else count
    f["model.fits"] = sizing.fits(minimum, mem, usable, opts.sizing.fit_headroom)
    f["gpu.total_memory_gib"] = round(mem * count, 1)
    f["sizing.utilization"] = round(est.total_gib / (mem * count), 3)
    mig = f" MIG {f['gpu.mig_profile']}" if f.get("gpu.mig_profile") else ""  # slices, not GPUs
    f["explain.provided"] = f"{count:g}× {f.get('gpu.model')}{mig} ({mem * count:.1f} GiB)"
    if usable < count:
        f["explain.provided"] += (f", of which tensor parallelism {usable:g} uses "
                               f"{mem * usable:.1f} GiB")
    if "group.gpu_count" in f:
        f["explain.provided"] += f" across a {f['group.source']}"
        # Resizing a multi-host group is not one instance swap: no alternative is proposed.
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        f["explain.alternative_detail"] = "not proposed for a multi-host group"
    elif not f["model.fits"]:
        _alternative(res, minimum, opts)  # the cheapest instance it starts on
    elif not sizing.fits(est, mem, usable, opts.sizing.headroom):
        # Starts, but typical load needs more: not oversized, whatever else is cheaper.
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
    else:
        _alternative(res, est, opts)
    return est


def _alternative(res: Resource, est: sizing.Estimate, opts: Context) -> None:
    """The cheapest instance (or GPU count, for a bare pod) that holds the estimate: same
    provider and region, same GPU vendor, current generation (docs/sizing.md)."""
    f = res.facts
    if f.get("accelerator.kind", "gpu") != "gpu":
        # A TPU or Neuron workload does not move to a GPU by resizing.
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        f["explain.alternative_detail"] = "not proposed for a non-GPU accelerator"
        return
    gpu = f.get("gpu.model") if isinstance(f.get("gpu.model"), str) else None
    vendor = generations.vendor(gpu)

    def pod_fit(cand: str, mem: float, n: int) -> bool:
        row = generations.lookup(cand)
        return row is not None and not row.previous and row.vendor == (vendor or "nvidia") \
            and sizing.fits(est, mem, n, opts.sizing.headroom)

    pod = offers.pod_offers(cloud(res), capacity(res), pod_fit, opts.overrides) \
        if pod_without_node(res) else []
    found = cheapest(res, offers.both(offers.fits(est, opts.sizing.headroom), offers.same_vendor(gpu),
                                      offers.current_generation), pod, opts)
    if isinstance(found, str):
        set_unknown(res, _FACTS[1:], found)
        f["explain.alternative_detail"] = f"not known ({found})"
        return
    offer, current = found
    if offer is None:
        f["explain.alternative_detail"] = "not in the catalog for this provider and region"
    # SageMaker ml.* types are priced as (and compared with) the EC2 type of the same name.
    same = offer is not None and (offer.name == f.get("cost.instance_type",
                                                      f.get("instance.type")) or (
        pod_without_node(res) and offer.gpu_model == gpu and offer.gpu_count == f["gpu.count"]))
    if offer is None or same:
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        return
    f["sizing.saving_fraction"] = record(res, "sizing", offer, current, opts.hours,
                                         holds_on(est, offer))
