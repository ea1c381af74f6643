"""A previous-generation GPU where a current one does the same work for less per hour.

Same work (docs/sizing.md, "GPU generations and the same work"): current-generation GPUs of the
same vendor, in the same provider, region and capacity type, that hold the same memory estimate
with the same headroom (with no model: at least the same memory per GPU and in total), and give
at least `min_relative_throughput` of both the summed memory bandwidth and the summed 16-bit
tensor throughput. Sets gpu.generation and sizing.generation_* facts.
"""

from __future__ import annotations

from gpulint.derive.alternative import (
    Context,
    capacity,
    cheapest,
    is_number,
    number_or,
    pod_place,
    pod_without_node,
    record,
    set_unknown,
)
from gpulint.fact_types import Resource
from gpulint.pricing import offers
from gpulint.sizing import estimate as sizing
from gpulint.sizing import generations

FACTS = ("gpu.generation", "sizing.generation_saving_fraction")


def apply(res: Resource, est: sizing.Estimate | None, opts: Context) -> None:
    f = res.facts
    gpu, count = f.get("gpu.model"), f.get("gpu.count")
    if f.get("accelerator.kind", "gpu") != "gpu":
        return  # TPU, Trainium, Inferentia…: GPU generations do not apply
    if not isinstance(gpu, str):
        if gpu is not None:
            set_unknown(res, FACTS, f"GPU model unknown: {getattr(gpu, 'reason', gpu)}")
        return
    row = generations.lookup(gpu)
    if row is None:
        set_unknown(res, FACTS, f"GPU {gpu} is not in the generations table")
        return
    f["gpu.generation"] = row.status
    f["explain.generation"] = f"{gpu} ({row.architecture}, {row.year})"
    if not row.previous:
        return
    if not row.rated:
        set_unknown(res, FACTS[1:], f"no datasheet throughput figures for {gpu}")
        return
    if not is_number(count) or count < 1:
        set_unknown(res, FACTS[1:], "GPU count unknown" if not is_number(count)
                    else "a fraction of a GPU")
        return
    mem = number_or(f.get("gpu.memory_gib"), 0.0)

    def holds(gpu_mem: float, n: float) -> bool:
        if est is not None:
            return sizing.fits(est, gpu_mem, n, opts.sizing.headroom)
        return gpu_mem >= mem and gpu_mem * n >= mem * count

    def throughput(cand: str | None, n: float) -> float | None:
        """Relative throughput of n candidate GPUs, if they qualify as the same work."""
        other = generations.lookup(cand)
        if other is None or other.previous or other.vendor != row.vendor:
            return None
        rel = generations.relative_throughput(row, count, other, n)
        return rel if rel is not None and rel >= opts.sizing.min_relative_throughput else None

    def same_work(cand: str, cand_mem: float, n: float) -> bool:
        return throughput(cand, n) is not None and holds(cand_mem, n)

    pod = offers.pod_offers(pod_place(res), capacity(res), same_work, opts.overrides) \
        if pod_without_node(res) else []
    found = cheapest(res, lambda o: same_work(o.gpu_model, o.gpu_memory_gib, o.gpu_count), pod,
                     opts)
    if isinstance(found, str):
        set_unknown(res, FACTS[1:], found)
        return
    offer, current = found
    if offer is None or current is None or offer.hourly >= current:
        f["sizing.generation_alternative"] = None
        f["sizing.generation_saving_fraction"] = 0.0
        return
    rel = throughput(offer.gpu_model, offer.gpu_count) or 0.0
    label = f.get("explain.model_label", f.get("model.id"))
    work = f"holds the same estimate for {label} ({est.describe()})" if est is not None \
        else "has at least the same GPU memory"
    f["sizing.generation_saving_fraction"] = record(
        res, "generation", offer, current, opts.hours,
        then=(f"; it {work} and gives at least {rel:.2f}× of both the memory bandwidth and "
              "the 16-bit tensor throughput"))
