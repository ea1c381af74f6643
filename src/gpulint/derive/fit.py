"""Compare what the declared model needs with what the GPUs give, and find a cheaper fit.

Runs after pricing on every GPU resource with a declared model. Sets the model.* facts,
model.fits, sizing.alternative / sizing.saving_fraction and the priced alternative.sizing, and
the explain.* phrases messages show. Thresholds come from the `sizing:` settings.
"""

from __future__ import annotations

import math
from dataclasses import replace

from gpulint.derive import serving
from gpulint.derive.alternative import (
    Context,
    capacity,
    cheapest,
    holds_on,
    is_number,
    pod_place,
    pod_without_node,
    record,
    set_unknown,
    where,
)
from gpulint.fact_types import Resource
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Unknown
from gpulint.pricing import offers
from gpulint.sizing import estimate as sizing
from gpulint.sizing import generations
from gpulint.sizing import model_catalog as models
from gpulint.sizing.engine_precision import CHECKPOINT
from gpulint.sizing.precision import normalize_precision

_TRAINING_METHODS = {"training": "full", "full": "full", "fine-tune": "full", "lora": "lora",
                     "qlora": "qlora"}
# Bytes per KV value (--kv-cache-dtype) → the precision the estimate sizes the KV cache at.
_KV_DTYPES = {1: "fp8", 0.5: "nvfp4"}
_FACTS = ("model.fits", "sizing.alternative", "sizing.saving_fraction")


def apply(res: Resource, decl: ModelDecl, opts: Context) -> sizing.Estimate | None:
    """Set the model and fit facts; returns the typical-load estimate, if there is one."""
    return _model(res, decl, opts)


def model_label(decl: ModelDecl, info: models.ModelInfo) -> str:
    """The declared name, saying so when its size was read from the name (and when the name
    looks like a typo of one the catalog knows)."""
    if info.read_as:
        return f"{decl.id} (not in the model catalog; sized as {info.id!r}: did you mean it?)"
    if not info.estimated:
        return decl.id
    return f"{decl.id} ({info.params_total / 1e9:g}B parameters, estimated from its name)"


def _precision(decl: ModelDecl, info: models.ModelInfo) -> str | Unknown | None:
    """The precision to size at: the declared one, the checkpoint's own when the engine leaves
    it to the checkpoint, None for the model's default. Never a silent guess."""
    fix = ("declare it with the gpulint.dev/precision label or models[].precision in the "
           "configuration")
    if decl.precision is None:
        return None
    if decl.precision == CHECKPOINT:
        own = info.implied_precision or info.release_precision
        if own:
            return own
        return Unknown(f"{decl.server or 'the engine'}'s quantization takes its width from the "
                       f"checkpoint, and {decl.id!r} does not say it in its name; {fix}")
    if normalize_precision(decl.precision) is None:
        return Unknown(f"precision {decl.precision!r} is not one gpulint knows; {fix}")
    return decl.precision


def _estimates(res: Resource, decl: ModelDecl, info: models.ModelInfo, precision: str | None,
               opts: Context) -> tuple[sizing.Estimate, sizing.Estimate]:
    """(minimum to start, typical load). Serving needs at least one full-context sequence of KV
    cache to start; right-sizing uses the configured (or documented default) concurrency."""
    purpose = (decl.purpose or "").lower()
    if purpose in _TRAINING_METHODS or (not purpose and res.facts.get("workload") == "training"):
        method = _TRAINING_METHODS.get(purpose)
        res.facts["model.purpose"] = "training" if method in (None, "full") else method
        if method is not None:
            est = sizing.estimate_training(info, method, precision)
            return est, est
        # Method not stated: an error may only rest on the smallest method the command does not
        # rule out (QLoRA when it asks for a 4-bit loader, else LoRA); right-sizing keeps the
        # largest (all weights), so neither finding rests on a guess in its own favour.
        low = "qlora" if decl.four_bit or info.implied_precision == "nf4" else "lora"
        least = sizing.estimate_training(info, low, None if low == "qlora" else precision)
        least = replace(least, inputs={**least.inputs, "method_assumed": True})
        return least, sizing.estimate_training(info, "full", precision)
    res.facts["model.purpose"] = "inference"
    args = (info, precision, decl.context or opts.sizing.context)
    # Pipeline stages split weights and KV cache by layer as tensor ranks do by head, so one
    # replica's memory is spread over tensor × pipeline GPUs; data-parallel replicas each hold
    # it all.
    def estimate(concurrency: int | None) -> sizing.Estimate:
        return sizing.estimate_inference(
            *args, concurrency=concurrency, tensor_parallel=decl.gpus_per_replica,
            gpu_memory_utilization=decl.gpu_memory_utilization,
            kv_cache_dtype=_KV_DTYPES.get(decl.kv_cache_bytes or 0))

    typical = opts.sizing.concurrency
    if decl.max_seqs and typical:  # the engine never decodes more at once than its cap
        typical = min(typical, decl.max_seqs)
    return estimate(1), estimate(typical)


def _model(res: Resource, decl: ModelDecl, opts: Context) -> sizing.Estimate | None:
    """Model facts, model.fits and the oversized alternative; returns the typical estimate."""
    f = res.facts
    f["model.source"] = decl.source
    info = models.resolve(decl.id)
    if info is None:
        reason = f"model {decl.id!r} {models.unknown_reason(decl.id)}"
        res.set_fact("model.id", Unknown(reason))
        set_unknown(res, _FACTS, reason)
        return None
    f["model.id"] = info.id
    f["model.params_b"] = round(info.params_total / 1e9, 2)
    f["model.estimated"] = info.estimated
    f["explain.model_label"] = model_label(decl, info)
    precision = _precision(decl, info)
    if isinstance(precision, Unknown):
        res.set_fact("model.precision", precision)
        set_unknown(res, _FACTS, precision.reason)
        return None
    try:
        minimum, est = _estimates(res, decl, info, precision, opts)
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
    elif (decl.nodes or 1) > 1 and is_number(count) and f.get("model.purpose") != "inference":
        # A launcher spreading one training over hosts (torchrun --nnodes, accelerate
        # --num_machines, deepspeed --num_nodes): each host is a pod like this one.
        count = count * (decl.nodes or 1)
        f["group.gpu_count"], f["group.source"] = count, f"training launch over {decl.nodes} hosts"
    if not (is_number(mem) and is_number(count)):
        _gpus_unknown(res, mem, count)
        return est
    usable = min(count, decl.gpus_per_replica) if decl.parallel_declared else count
    f["gpu.total_memory_gib"] = round(mem * count, 1)
    fits = _fit(res, minimum, info, decl, mem, count, usable, opts)
    if fits is None:
        return est
    f["sizing.utilization"] = round(est.total_gib / (mem * count), 3)
    mig = f" MIG {f['gpu.mig_profile']}" if f.get("gpu.mig_profile") else ""  # slices, not GPUs
    if fits:  # when it does not, _fit worded what is given against what is needed
        f["explain.provided"] = f"{count:g}× {f.get('gpu.model')}{mig} ({mem * count:.1f} GiB)"
    if fits and usable < count:
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
        _alternative(res, est, opts, oversized=True)
    return est


def _gpus_unknown(res: Resource, mem: object, count: object) -> None:
    name, value = ("GPU memory", mem) if not is_number(mem) else ("GPU count", count)
    gpu = res.facts.get("gpu.model")
    why = value.reason if isinstance(value, Unknown) else \
        gpu.reason if isinstance(gpu, Unknown) else "not known"
    set_unknown(res, _FACTS, f"{name} unknown: {why}")


def _fit(res: Resource, minimum: sizing.Estimate, info: models.ModelInfo, decl: ModelDecl,
         mem: float, count: float, usable: float, opts: Context) -> bool | None:
    """Set model.fits. "Does not fit" is said only when the estimate rests on catalog figures
    and declared (or engine-default) values, and exceeds the usable memory by more than the
    sizing.fit_margin; a closer call, or a size read from the name alone, is "could not
    evaluate". None when unknown."""
    f = res.facts
    r = serving.room(minimum, decl, mem, usable, f.get("gpu.model"), opts.sizing.fit_headroom)
    serving.report(res, minimum, decl, r, info.estimated)
    share, room, n = r.share, r.room, max(1, math.floor(usable))
    need = r.need if r.kv_binding else r.need - r.kv
    if need <= room:
        # An undeclared context the engine fits to the memory left cannot stop it starting.
        f["model.fits"] = True
        return True
    if info.estimated:
        why = (f"the model's size is estimated from its name ({info.params_total / 1e9:g}B), and "
               f"that estimate needs {need:.1f} GiB per GPU of the {room:.1f} GiB usable; "
               "declare the model (models: in the configuration) to check the fit")
    elif need <= room * (1 + opts.sizing.fit_margin):
        why = (f"it needs {need:.1f} GiB per GPU, within {opts.sizing.fit_margin:.0%} of the "
               f"{room:.1f} GiB usable: too close for an estimate to decide "
               "(sizing.fit_margin)")
    else:
        f["model.fits"] = False
        # Need and room in the same terms (per GPU, after headroom), so the message can never
        # state a need smaller than what it says is given.
        if n > 1 or not r.kv_binding:
            what = minimum.describe() if r.kv_binding \
                else "weights and runtime, before any KV cache"
            f["model.minimum"] = f"{need:.1f} GiB on each of {n:g} GPUs ({what})" if n > 1 \
                else f"{need:.1f} GiB ({what})"
        gpus = f"{count:g}× {f.get('gpu.model')}"
        where = (f"{'each of ' if n > 1 else ''}the {n:g} of {gpus} that tensor parallelism "
                 f"{n:g} uses") if usable < count else f"{'each of ' if n > 1 else ''}{gpus}"
        basis = r.basis or f"{share:.0%}"
        f["explain.provided"] = f"{room:.1f} GiB usable on {where} ({basis} of {mem:g} GiB)"
        return False
    set_unknown(res, ("model.fits", *_FACTS[1:]), why)
    return None


def _alternative(res: Resource, est: sizing.Estimate, opts: Context,
                 oversized: bool = False) -> None:
    """The cheapest instance (or GPU count, for a bare pod) that holds the estimate: same
    provider and region, same GPU vendor, current generation (docs/sizing.md)."""
    f = res.facts
    if f.get("accelerator.kind", "gpu") != "gpu":
        # A TPU or Neuron workload does not move to a GPU by resizing.
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        f["explain.alternative_detail"] = "not proposed for a non-GPU accelerator"
        return
    model = f.get("gpu.model")
    gpu = model if isinstance(model, str) else None
    vendor = generations.vendor(gpu)

    def pod_fit(cand: str, mem: float, n: int) -> bool:
        row = generations.lookup(cand)
        return row is not None and not row.previous and row.vendor == (vendor or "nvidia") \
            and sizing.fits(est, mem, n, opts.sizing.headroom)

    pod = offers.pod_offers(pod_place(res), capacity(res), pod_fit, opts.overrides) \
        if pod_without_node(res) else []
    fits = offers.both(offers.fits(est, opts.sizing.headroom), offers.same_vendor(gpu))
    found = cheapest(res, offers.both(fits, offers.current_generation), pod, opts,
                     unpriced=oversized)
    if isinstance(found, str):
        set_unknown(res, _FACTS[1:], found)
        f["explain.alternative_detail"] = f"not known ({found})"
        return
    offer, current = found
    older = ""
    if offer is None and oversized and not pod_without_node(res):
        # No current-generation fit here: an older one still shows how oversized it is.
        again = cheapest(res, fits, [], opts, unpriced=True)
        offer = again[0] if isinstance(again, tuple) else None
        older = "; previous generation, as no current-generation GPU that holds it is priced here"
    if offer is None:
        if oversized:  # the GPUs are more than it needs, but nothing here is known to fit
            _no_fit(res, est, gpu, opts)
            return
        f["explain.alternative_detail"] = "not in the catalog for this provider and region"
    # SageMaker ml.* types are priced as (and compared with) the EC2 type of the same name.
    same = offer is not None and (offer.name == f.get("cost.instance_type",
                                                      f.get("instance.type")) or (
        pod_without_node(res) and offer.gpu_model == gpu and offer.gpu_count == f["gpu.count"]))
    # Oversized means more GPU than the model needs: the fit must have fewer GPUs or less GPU
    # memory. A cheaper host with the same (or larger) GPUs is a host or generation question.
    count, mem = f.get("gpu.count"), f.get("gpu.memory_gib")
    not_smaller = oversized and offer is not None and is_number(count) and is_number(mem) \
        and offer.gpu_count >= count and offer.total_memory_gib >= count * mem - 0.05
    if offer is None or same or not_smaller:
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        if not_smaller:
            f["explain.alternative_detail"] = "no smaller GPU configuration holds it"
        return
    fraction = record(res, "sizing", offer, current, opts.hours, holds_on(est, offer), older)
    f["sizing.saving_fraction"] = fraction
    f["sizing.saving_not_known"] = isinstance(fraction, Unknown)


def _no_fit(res: Resource, est: sizing.Estimate, gpu: str | None, opts: Context) -> None:
    """Oversized by the estimate, yet no instance here is known to hold it: could not evaluate,
    with why, rather than no finding."""
    f = res.facts
    place = pod_place(res) if pod_without_node(res) else where(res, opts)
    here = f"{place[0]} {place[1]}" if isinstance(place, tuple) else "its cloud and region"
    vendor = generations.vendor(gpu) or "GPU"
    why = (f"no {vendor} instance that holds {est.describe()} with "
           f"{opts.sizing.headroom:.0%} headroom is priced in {here}, so no smaller fit "
           "can be named; set the region, or check the catalog (gpulint catalog)")
    set_unknown(res, _FACTS[1:], why)
    f["explain.alternative_detail"] = f"not known ({why})"
