"""GPUs a model server is given but does not use: more GPUs than its parallelism
(tensor × pipeline × data) uses.

Sets sizing.idle_gpus and sizing.used_gpus, and the cheaper request or instance as
alternative.idle (with explain.parallelism and explain.idle_fix for messages).
"""

from __future__ import annotations

from gpulint.derive.alternative import (
    Context,
    capacity,
    is_number,
    put,
    record,
    where,
)
from gpulint.fact_types import Resource
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Alternative, Unknown
from gpulint.pricing import offers
from gpulint.sizing import estimate as sizing
from gpulint.units import usd_whole as money

# Serving engines (ModelDecl.server) whose default uses one GPU however many the container has.
ONE_GPU_BY_DEFAULT = {"vllm": "vLLM uses one GPU unless --tensor-parallel-size is set",
                      "sglang": "SGLang uses one GPU unless --tp is set"}
# Serving engines whose default spreads the model over every visible GPU. NIM picks the
# profile (precision and tensor parallelism) that matches the GPUs it detects (NIM for LLMs
# "Environment Variables": NIM_MODEL_PROFILE defaults to auto-selection by GPU hardware).
ALL_GPUS_BY_DEFAULT = {"text-generation-launcher", "llama-server", "llama.cpp", "nim"}


# Why the GPUs used cannot be told when no parallelism is declared.
NOT_DECLARED = {
    "": "tensor parallelism is not declared and the serving engine (so its default) is not known",
    "tritonserver": "Triton places model instances on GPUs as each model's config.pbtxt says "
                    "(instance_group), which is not in the manifest",
}


def _parallelism(decl: ModelDecl) -> str:
    """'tensor parallelism 2 × pipeline parallelism 2 = 4 GPUs', naming only what is declared."""
    parts = [f"{name} parallelism {n}" for name, n in (
        ("tensor", decl.tensor_parallel), ("pipeline", decl.pipeline_parallel),
        ("data", decl.data_parallel)) if n]
    if len(parts) == 1:
        return parts[0].replace(" parallelism ", " parallelism is ", 1)
    return " × ".join(parts) + f" = {_gpus(decl.gpus_used)}"


def _gpus(n: int) -> str:
    return f"{n} GPU{'s' if n != 1 else ''}"


def apply(res: Resource, decl: ModelDecl, opts: Context,
          est: sizing.Estimate | None = None) -> None:
    f = res.facts
    if f.get("model.purpose") not in (None, "inference"):
        return  # trainers use every GPU through data parallelism
    if f.get("accelerator.kind", "gpu") != "gpu":
        return  # TPU and Neuron devices are split by their own compilers, not by TP flags
    # A multi-host group's parallelism spans all its hosts' GPUs.
    count = f.get("group.gpu_count", f.get("gpu.count"))
    if isinstance(count, Unknown):
        f["sizing.idle_gpus"] = Unknown(f"GPU count unknown: {count.reason}")
        return
    if not is_number(count):
        return
    if count <= 1:
        f["sizing.idle_gpus"] = 0
        return
    server = (decl.server or "").lower()
    if decl.parallel_unknown:
        f["sizing.idle_gpus"] = Unknown(decl.parallel_unknown)
        return
    if decl.parallel_declared:
        used, how = decl.gpus_used, f"{_parallelism(decl)} ({decl.source})"
    elif server in ONE_GPU_BY_DEFAULT:
        used, how = 1, ONE_GPU_BY_DEFAULT[server]
    elif server in ALL_GPUS_BY_DEFAULT:
        f["sizing.idle_gpus"] = 0
        return
    else:
        f["sizing.idle_gpus"] = Unknown(NOT_DECLARED.get(server, NOT_DECLARED[""]))
        return
    idle = int(count) - used
    f["sizing.used_gpus"] = used
    f["sizing.idle_gpus"] = max(0, idle)
    f["explain.parallelism"] = how
    if idle <= 0:
        return
    if f.get("model.fits") is False:
        f["explain.idle_fix"] = (f"the model does not fit on {_gpus(used)}: raise the tensor "
                              f"parallelism to {int(count)}")
    elif "group.gpu_count" in f:
        f["explain.idle_fix"] = (f"parallelism uses {_gpus(used)} of the {_gpus(int(count))} "
                              "of the "
                              f"{f.get('group.source')}: shrink the group or raise the parallelism")
    elif (need := _needed(res, est, used, int(count), opts)) >= count:
        # Fewer GPUs would not hold the model at typical load: the fix is to use them all.
        f["explain.idle_fix"] = (f"the model needs all {_gpus(int(count))} at typical load "
                                 f"({est.describe() if est else 'estimate'}): raise the tensor "
                                 f"parallelism to {int(count)}")
    elif res.source == "kubernetes":
        _fewer_gpus_per_pod(res, int(count), used, need)
    else:
        _smaller_instance(res, int(count), need, opts, need > used)


def _needed(res: Resource, est: sizing.Estimate | None, used: int, count: int,
            opts: Context) -> int:
    """The fewest GPUs, from those the server uses, that hold the model's typical-load
    estimate: a fix never offers fewer GPUs than the model needs."""
    mem = res.facts.get("gpu.memory_gib")
    if est is None or not is_number(mem):
        return used
    return next((n for n in range(used, count) if sizing.fits(est, mem, n, opts.sizing.headroom)),
                count)


def _fewer_gpus_per_pod(res: Resource, count: int, used: int, need: int) -> None:
    """A pod pays per GPU (its share of a node, or GPU-hours): request only the GPUs the server
    uses, or, when the model needs more than that, as many as it needs with the parallelism
    raised to match."""
    f = res.facts
    monthly = f.get("cost.monthly")
    fix = f"request {_gpus(need)} per pod"
    if need > used:
        fix += (f" and raise the tensor parallelism to {need} (the model needs {need} at typical "
                f"load, so {_gpus(used)} would not hold it)")
    alt = current = None
    if is_number(monthly):
        alt, current = round(monthly * need / count, 2), monthly
        fix += f": {money(alt)}/month instead of {money(monthly)}"
    saving = round(1 - need / count, 3)
    put(res, "idle", Alternative(f"{_gpus(need)} per pod", alt, current, saving, fix))
    f["explain.idle_fix"] = fix


def _smaller_instance(res: Resource, count: int, used: int, opts: Context,
                      for_memory: bool = False) -> None:
    """The cheapest instance in the same region with the same GPU and at least `used` of them."""
    f = res.facts
    gpu, place = f.get("gpu.model"), where(res, opts)
    hourly = f.get("cost.compare_hourly", f.get("cost.hourly"))  # EC2 offers: the EC2 basis
    found = None
    if isinstance(place, tuple) and isinstance(gpu, str):
        found = offers.cheapest_offer(
            place[0], place[1], capacity(res),
            lambda o: o.gpu_model == gpu and used <= o.gpu_count < count, opts.overrides)
    if found is None:
        needs = f"the model needs {_gpus(used)} at typical load and " if for_memory else ""
        span = f"{used}" if used == count - 1 else f"{used}–{count - 1}"
        f["explain.idle_fix"] = (f"{needs}no instance with {span} {gpu} GPUs is "
                                 f"priced here; set the tensor parallelism to {count} to use "
                                 "them all")
        return
    # `used` here is what the model needs; without a price the fix is named, saving not known.
    record(res, "idle", found, hourly if is_number(hourly) else None, opts.hours)
    f["explain.idle_fix"] = f["explain.idle_detail"]
