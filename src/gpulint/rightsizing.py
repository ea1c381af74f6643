"""Compare what the declared model needs with what the GPUs give, and find a cheaper fit.

Sets the model.*, sizing.* and gpu.generation facts the right-sizing rules test, plus `text.*`
facts: ready-made phrases (with their inputs) that rule messages use as placeholders.
Thresholds come from the rules' options (docs/sizing.md, "Rule options").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Iterable

from gpulint import catalog, cost, generations, models, offers, sizing
from gpulint.facts.declared_model import ModelDecl
from gpulint.model import Resource, Unknown

DEFAULT_MIN_RELATIVE_THROUGHPUT = 0.9


@dataclass(frozen=True)
class SizingOptions:
    headroom: float = sizing.DEFAULT_HEADROOM  # share of GPU memory an alternative may fill
    fit_headroom: float = sizing.DEFAULT_HEADROOM  # share the model must start within
    concurrency: int | None = None  # typical-load sequences (None: sizing's default)
    context: int | None = None  # tokens when the manifest declares none (None: sizing's)
    min_relative_throughput: float = DEFAULT_MIN_RELATIVE_THROUGHPUT
    hours: float = cost.DEFAULT_HOURS


# rule id -> rule option -> (SizingOptions field, type, lowest, highest)
RULE_KNOBS: dict[str, dict[str, tuple[str, type, float, float]]] = {
    "gpu-model-does-not-fit": {"headroom": ("fit_headroom", float, 0.05, 1.0)},
    "gpu-oversized-for-model": {"headroom": ("headroom", float, 0.05, 1.0),
                                "concurrency": ("concurrency", int, 1, 100_000),
                                "context": ("context", int, 1, 100_000_000)},
    "gpu-previous-generation": {"min_relative_throughput": ("min_relative_throughput", float,
                                                            0.0, 100.0)},
}


def options_from_rules(rules: Iterable[Any], rule_options: dict[str, dict[str, Any]],
                       hours: float = cost.DEFAULT_HOURS) -> tuple[SizingOptions, list[str]]:
    """Sizing knobs from the rules' option defaults overridden by configured rule options.
    Returns the options and a problem per value that is not usable (that knob keeps its
    default)."""
    defaults = {r.id: dict(r.options or {}) for r in rules}
    values: dict[str, Any] = {"hours": hours}
    problems: list[str] = []
    for rule_id, knobs in RULE_KNOBS.items():
        configured = (rule_options or {}).get(rule_id, {})
        for option, (name, kind, lo, hi) in knobs.items():
            # The configured value, else the rule file's default; None keeps sizing's default.
            for value in (configured.get(option), defaults.get(rule_id, {}).get(option)):
                if value is None:
                    continue
                if isinstance(value, (int, float)) and not isinstance(value, bool) \
                        and lo <= value <= hi and (kind is float or float(value).is_integer()):
                    values[name] = kind(value)
                    break
                problems.append(f"rule option {rule_id}.{option} = {value!r} must be "
                                f"{'a whole number' if kind is int else 'a number'} from {lo:g} "
                                f"to {hi:g}; using the default")
    known = {f.name for f in fields(SizingOptions)}
    return SizingOptions(**{k: v for k, v in values.items() if k in known}), problems


_TRAINING_METHODS = {"training": "full", "full": "full", "fine-tune": "full", "lora": "lora",
                     "qlora": "qlora"}
# Serving engines whose default uses one GPU however many the container is given.
_ONE_GPU_BY_DEFAULT = {"vllm": "vLLM uses one GPU unless --tensor-parallel-size is set",
                       "sglang": "SGLang uses one GPU unless --tp is set"}
# Serving engines whose default spreads the model over every visible GPU.
_ALL_GPUS_BY_DEFAULT = {"text-generation-launcher", "llama-server", "llama.cpp"}


def _money(v: float) -> str:
    return f"${v:,.0f}"


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _estimates(res: Resource, decl: ModelDecl, info: models.ModelInfo,
               opts: SizingOptions) -> tuple[sizing.Estimate, sizing.Estimate]:
    """(minimum to start, typical load). Serving needs at least one full-context sequence of KV
    cache to start; right-sizing uses the configured (or documented default) concurrency."""
    purpose = (decl.purpose or "").lower()
    if purpose in _TRAINING_METHODS or (not purpose and res.facts.get("workload") == "training"):
        method = _TRAINING_METHODS.get(purpose, "full")
        res.facts["model.purpose"] = method if method != "full" else "training"
        est = sizing.estimate_training(info, method, decl.precision)
        return est, est
    res.facts["model.purpose"] = "inference"
    args = (info, decl.precision, decl.context or opts.context)
    kwargs = {"tensor_parallel": decl.tensor_parallel or 1,
              "gpu_memory_utilization": decl.gpu_memory_utilization}
    return (sizing.estimate_inference(*args, concurrency=1, **kwargs),
            sizing.estimate_inference(*args, concurrency=opts.concurrency, **kwargs))


def _unknown(res: Resource, names: Iterable[str], reason: str) -> None:
    for name in names:
        res.facts[name] = Unknown(reason)


_SIZING_FACTS = ("model.fits", "sizing.alternative", "sizing.saving_fraction")
_GENERATION_FACTS = ("gpu.generation", "sizing.generation_saving_fraction")


def model_label(decl: ModelDecl, info: models.ModelInfo) -> str:
    """The declared name, saying so when its size was read from the name."""
    if not info.estimated:
        return decl.id
    return f"{decl.id} ({info.params_total / 1e9:g}B parameters, estimated from its name)"


def apply(res: Resource, opts: SizingOptions = SizingOptions()) -> None:
    """Set model.*, sizing.* and gpu.generation facts on a GPU resource."""
    decl: ModelDecl | None = res.facts.get("model.declared")
    est = _model(res, decl, opts) if decl is not None else None
    if decl is not None:
        _parallelism(res, decl, est, opts)
    if res.facts.get("model.fits") is not False:
        _generation(res, est if isinstance(est, sizing.Estimate) else None, opts)


def _model(res: Resource, decl: ModelDecl, opts: SizingOptions) -> sizing.Estimate | None:
    """Model facts and the oversized/does-not-fit facts; the typical-load estimate."""
    res.facts["model.source"] = decl.source
    info = models.resolve(decl.id)
    if info is None:
        reason = (f"model {decl.id!r} is not in the model catalog and its size cannot be read "
                  "from its name")
        res.set_fact("model.id", Unknown(reason))
        _unknown(res, _SIZING_FACTS, reason)
        return None
    res.facts["model.id"] = info.id
    res.facts["model.params_b"] = round(info.params_total / 1e9, 2)
    res.facts["model.estimated"] = info.estimated
    res.facts["text.model_label"] = model_label(decl, info)
    try:
        minimum, est = _estimates(res, decl, info, opts)
    except (ValueError, KeyError, TypeError, ZeroDivisionError) as e:
        res.set_fact("model.fits", Unknown(f"memory estimate failed: {e}"))
        _unknown(res, _SIZING_FACTS[1:], f"memory estimate failed: {e}")
        return None
    res.facts["model.precision"] = est.inputs.get("precision")
    res.facts["model.required_gib"] = round(minimum.total_gib, 1)
    res.facts["model.minimum"] = minimum.describe()
    res.facts["model.estimate"] = est.describe()
    if decl.tensor_parallel:
        res.facts["model.tensor_parallel"] = decl.tensor_parallel
    mem, count = res.facts.get("gpu.memory_gib"), res.facts.get("gpu.count")
    for name, value in (("GPU memory", mem), ("GPU count", count)):
        if not _number(value):
            gpu = res.facts.get("gpu.model")
            why = value.reason if isinstance(value, Unknown) else \
                gpu.reason if isinstance(gpu, Unknown) else "not known"
            _unknown(res, _SIZING_FACTS, f"{name} unknown: {why}")
            return est
    usable = min(count, decl.tensor_parallel) if decl.tensor_parallel else count
    res.facts["model.fits"] = sizing.fits(minimum, mem, usable, opts.fit_headroom)
    provided = f"{count:g}× {res.facts.get('gpu.model')} ({mem * count:.1f} GiB)"
    if usable < count:
        provided += f", of which tensor parallelism {usable:g} uses {mem * usable:.1f} GiB"
    res.facts["text.provided"] = provided
    res.facts["gpu.total_memory_gib"] = round(mem * count, 1)
    res.facts["sizing.utilization"] = round(est.total_gib / (mem * count), 3)
    if not res.facts["model.fits"]:
        _alternative(res, minimum, opts)  # the cheapest instance it starts on
    elif not sizing.fits(est, mem, usable, opts.headroom):
        # Starts, but typical load needs more: not oversized, whatever else is cheaper.
        res.facts["sizing.alternative"] = None
        res.facts["sizing.saving_fraction"] = 0.0
    else:
        _alternative(res, est, opts)
    return est


def _capacity(res: Resource) -> str:
    c = res.facts.get("capacity")
    return c if isinstance(c, str) else "on-demand"


def _pod_without_node(res: Resource) -> bool:
    return res.source == "kubernetes" and not isinstance(res.facts.get("instance.type"), str)


def _where(res: Resource) -> tuple[str, str] | str:
    """(provider, region) of a resource's instance, or why it is not known."""
    f = res.facts
    provider = f.get("provider.cloud") if res.source == "kubernetes" else f.get("provider")
    if not isinstance(provider, str) or provider not in {"aws", "gcp", "azure"}:
        return "the cloud provider is not known"
    if res.source == "kubernetes":
        return provider, catalog.default_region(provider)
    region = f.get("region")
    if isinstance(region, Unknown):
        return f"region unknown: {region.reason}"
    return (provider, region) if isinstance(region, str) else "region not set"


def _pod_current_hourly(res: Resource) -> float | None:
    """A bare pod's GPUs at the same per-GPU basis its alternatives are priced on."""
    f = res.facts
    cloud = f.get("provider.cloud") if isinstance(f.get("provider.cloud"), str) else None
    price = offers.per_gpu_price(str(f.get("gpu.model")), cloud, _capacity(res))
    count = f.get("gpu.count")
    return price[0] * count if price and _number(count) else None


def _cheapest(res: Resource, est: sizing.Estimate | None, headroom: float,
              accept: offers.Accept, pod_offers: list[offers.Offer]
              ) -> tuple[offers.Offer | None, float | None] | str:
    """(cheapest offer, current hourly on the same basis) or why there is none to compare."""
    if _pod_without_node(res):
        current = _pod_current_hourly(res)
        if current is None:
            return f"no per-GPU price for {res.facts.get('gpu.model')} to compare with"
        return (pod_offers[0] if pod_offers else None), current
    where = _where(res)
    if isinstance(where, str):
        return where
    provider, region = where
    found = sorted(offers.instance_offers(provider, region, _capacity(res), accept),
                   key=lambda o: (o.hourly, o.name))
    hourly = res.facts.get("cost.hourly")  # a pod on a node: its GPUs' share of the node
    if not _number(hourly):
        return "the current price is not known"
    return (found[0] if found else None), hourly


def _set_alternative(res: Resource, prefix: str, text: str, offer: offers.Offer,
                     current_hourly: float, opts: SizingOptions) -> float:
    """Record an alternative as <prefix>alternative[_monthly] and text.<text>_detail/_saving;
    returns the saving fraction."""
    f = res.facts
    count = f.get("cost.count") if _number(f.get("cost.count")) else 1
    alt_monthly = offer.monthly(opts.hours, count)
    current_monthly = round(current_hourly * count * opts.hours, 2)
    f[f"{prefix}alternative"] = offer.name
    f[f"{prefix}alternative_monthly"] = alt_monthly
    if current_monthly != f.get("cost.monthly"):
        f[f"{prefix}current_monthly"] = current_monthly
    saving = max(0.0, current_monthly - alt_monthly)
    f[f"text.{text}_detail"] = (f"{offer.describe()}: {_money(alt_monthly)}/month instead of "
                                f"{_money(current_monthly)}")
    f[f"text.{text}_saving"] = f"{_money(saving)}/month"
    return round(saving / current_monthly, 3) if current_monthly > 0 else 0.0


def _alternative(res: Resource, est: sizing.Estimate, opts: SizingOptions) -> None:
    """The cheapest instance (or GPU count, for a bare pod) that holds the estimate."""
    f = res.facts
    gpu = f.get("gpu.model") if isinstance(f.get("gpu.model"), str) else None
    pod = []
    if _pod_without_node(res):
        cloud = f.get("provider.cloud") if isinstance(f.get("provider.cloud"), str) else None
        pod = offers.gpu_offers(est, opts.headroom, cloud, generations.vendor(gpu) or "nvidia",
                                _capacity(res))
    found = _cheapest(res, est, opts.headroom,
                      offers.both(offers.fits(est, opts.headroom), offers.same_vendor(gpu),
                                  offers.current_generation), pod)
    if isinstance(found, str):
        _unknown(res, ("sizing.alternative", "sizing.saving_fraction"), found)
        f["text.alternative_detail"] = f"not known ({found})"
        return
    offer, current = found
    if offer is None:
        f["text.alternative_detail"] = "not in the catalog for this provider and region"
    if offer is None or offer.name == f.get("instance.type") or \
            (_pod_without_node(res) and offer.gpu_model == gpu and offer.gpu_count == f["gpu.count"]):
        f["sizing.alternative"] = None
        f["sizing.saving_fraction"] = 0.0
        return
    f["sizing.saving_fraction"] = _set_alternative(res, "sizing.", "alternative", offer, current, opts)


def _parallelism(res: Resource, decl: ModelDecl, est: sizing.Estimate | None,
                 opts: SizingOptions) -> None:
    """GPUs the serving engine leaves idle: more GPUs than its (tensor) parallelism uses."""
    f = res.facts
    if f.get("model.purpose") not in (None, "inference"):
        return  # trainers use every GPU through data parallelism
    count = f.get("gpu.count")
    if isinstance(count, Unknown):
        f["sizing.idle_gpus"] = Unknown(f"GPU count unknown: {count.reason}")
        return
    if not _number(count) or count <= 1:
        if _number(count):
            f["sizing.idle_gpus"] = 0
        return
    server = (decl.server or "").lower()
    if decl.tensor_parallel:
        used, how = decl.tensor_parallel, f"tensor parallelism is {decl.tensor_parallel} ({decl.source})"
    elif server in _ONE_GPU_BY_DEFAULT:
        used, how = 1, _ONE_GPU_BY_DEFAULT[server]
    elif server in _ALL_GPUS_BY_DEFAULT:
        f["sizing.idle_gpus"] = 0
        return
    else:
        f["sizing.idle_gpus"] = Unknown("tensor parallelism is not declared and the serving "
                                        "engine (so its default) is not known")
        return
    idle = int(count) - used
    f["sizing.used_gpus"] = used
    f["sizing.idle_gpus"] = max(0, idle)
    f["text.parallelism"] = how
    if idle <= 0:
        return
    if f.get("model.fits") is False:
        f["text.idle_fix"] = (f"the model does not fit on {used} GPU{'s' if used != 1 else ''}: "
                              f"raise the tensor parallelism to {int(count)}")
        return
    _idle_fix(res, int(count), used, opts)


def _idle_fix(res: Resource, count: int, used: int, opts: SizingOptions) -> None:
    f = res.facts
    monthly = f.get("cost.monthly")
    if res.source == "kubernetes":
        f["sizing.idle_alternative"] = f"{used} GPU{'s' if used != 1 else ''} per pod"
        if _number(monthly):
            alt = round(monthly * used / count, 2)
            f["sizing.idle_alternative_monthly"] = alt
            f["text.idle_fix"] = (f"request {used} GPU{'s' if used != 1 else ''} per pod: "
                                  f"{_money(alt)}/month instead of {_money(monthly)}")
        else:
            f["text.idle_fix"] = f"request {used} GPU{'s' if used != 1 else ''} per pod"
        return
    gpu = f.get("gpu.model")
    where = _where(res)
    found = None
    if isinstance(where, tuple) and isinstance(gpu, str) and _number(f.get("cost.hourly")):
        same_gpu = [o for o in offers.instance_offers(
            where[0], where[1], _capacity(res),
            lambda s: s.gpu_model == gpu and used <= s.gpu_count < count)]
        found = min(same_gpu, key=lambda o: (o.hourly, o.name), default=None)
    if found is None:
        f["text.idle_fix"] = (f"no instance with fewer {gpu} GPUs is priced here; set the "
                              f"tensor parallelism to {count} to use them all")
        return
    _set_alternative(res, "sizing.idle_", "idle", found, f["cost.hourly"], opts)
    f["text.idle_fix"] = f"{f['text.idle_detail']}"


def _generation(res: Resource, est: sizing.Estimate | None, opts: SizingOptions) -> None:
    """A previous-generation GPU where a current one does the same work for less per hour.

    Same work: the current-generation GPUs (same vendor, same provider and region, same capacity)
    hold the same memory estimate with the same headroom, or without a model at least the same
    memory per GPU and in total, and give at least `min_relative_throughput` of the summed
    memory bandwidth and of the summed 16-bit tensor throughput."""
    f = res.facts
    gpu, count = f.get("gpu.model"), f.get("gpu.count")
    if isinstance(gpu, Unknown):
        _unknown(res, _GENERATION_FACTS, f"GPU model unknown: {gpu.reason}")
        return
    if not isinstance(gpu, str):
        return
    row = generations.lookup(gpu)
    if row is None:
        _unknown(res, _GENERATION_FACTS, f"GPU {gpu} is not in the generations table")
        return
    f["gpu.generation"] = row.status
    f["text.generation"] = f"{gpu} ({row.architecture}, {row.year})"
    if not row.previous:
        return
    if not row.rated:
        f["sizing.generation_saving_fraction"] = Unknown(f"no datasheet throughput for {gpu}")
        return
    if not _number(count) or count < 1:
        f["sizing.generation_saving_fraction"] = Unknown(
            "GPU count unknown" if not _number(count) else "a fraction of a GPU")
        return
    mem = f.get("gpu.memory_gib") if _number(f.get("gpu.memory_gib")) else 0.0

    def holds(gpu_mem: float, n: float) -> bool:
        if est is not None:
            return sizing.fits(est, gpu_mem, n, opts.headroom)
        return gpu_mem >= mem and gpu_mem * n >= mem * count

    def enough(cand: str | None, n: float) -> float | None:
        other = generations.lookup(cand)
        if other is None or other.previous or other.vendor != row.vendor:
            return None
        rel = generations.relative_throughput(row, count, other, n)
        return rel if rel is not None and rel >= opts.min_relative_throughput else None

    pod: list[offers.Offer] = []
    if _pod_without_node(res):
        cloud = f.get("provider.cloud") if isinstance(f.get("provider.cloud"), str) else None
        for cand, cand_mem in catalog.gpu_models().items():
            n = next((n for n in range(1, offers.MAX_POD_GPUS + 1)
                      if enough(cand, n) is not None and holds(cand_mem, n)), None)
            price = offers.per_gpu_price(cand, cloud, _capacity(res)) if n else None
            if n and price:
                pod.append(offers.Offer(price[1], f"{n}× {cand}", price[2].rsplit(" ", 1)[-1],
                                        cand, n, cand_mem, round(price[0] * n, 6), price[2]))
        pod.sort(key=lambda o: (o.hourly, o.name))
    found = _cheapest(res, est, opts.headroom, lambda s: enough(s.gpu_model, s.gpu_count)
                      is not None and holds(s.gpu_memory_gib or 0, s.gpu_count), pod)
    if isinstance(found, str):
        f["sizing.generation_saving_fraction"] = Unknown(found)
        return
    offer, current = found
    if offer is None or offer.hourly >= current:
        f["sizing.generation_alternative"] = None
        f["sizing.generation_saving_fraction"] = 0.0
        return
    rel = enough(offer.gpu_model, offer.gpu_count) or 0.0
    fraction = _set_alternative(res, "sizing.generation_", "generation", offer, current, opts)
    f["sizing.generation_saving_fraction"] = fraction
    work = f"holds the same estimate ({est.describe()})" if est is not None \
        else "has at least the same GPU memory"
    f["text.generation_detail"] = (
        f"{f['text.generation_detail']}; it {work} and gives at least {rel:.2f}× of both the "
        "memory bandwidth and the 16-bit tensor throughput")
