"""Will the server start, and how many sequences its KV cache holds.

A serving engine takes a share of each GPU's memory (its memory flag, or its documented
default), loads the weights into it, and leaves the rest to the KV cache. This module splits
the one-sequence minimum estimate into the KV cache of that sequence and everything else, so
the fit can say whether one sequence of the declared context fits, and the resource can report
how many do (model.max_concurrency).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpulint.fact_types import Resource
from gpulint.facts.model_decl import ModelDecl
from gpulint.sizing import estimate as sizing
from gpulint.sizing.engine_memory import SGLANG, TGI, EngineMemory, engine_memory, max_concurrency


@dataclass(frozen=True)
class Room:
    """One GPU's memory as the server sees it, and the minimum estimate split on it."""

    share: float  # share of the GPU's memory the server may take
    basis: str  # where the share came from, for messages
    room: float  # GiB the server may take on each GPU it uses
    need: float  # GiB the one-sequence minimum needs on each GPU
    kv: float  # of which the KV cache of that one sequence
    kv_binding: bool  # whether that sequence's context is declared (or the engine's own)
    engine: EngineMemory | None  # None for training


def room(minimum: sizing.Estimate, decl: ModelDecl, mem: float, usable: float,
         gpu_name: object, fit_headroom: float) -> Room:
    """The share, room and split need of a fit on `usable` GPUs of `mem` GiB."""
    n = max(1, math.floor(usable))
    need = minimum.per_gpu_gib(n)
    eng = None
    share, basis = fit_headroom, ""
    kv = 0.0
    binding = True
    if minimum.kind == "inference":
        eng = engine_memory(decl.server, decl.gpu_memory_utilization, decl.max_seqs, mem,
                            gpu_name if isinstance(gpu_name, str) else None)
        if eng.fraction is not None:
            share, basis = eng.fraction, eng.fraction_basis
        total_kv = minimum.components.get("kv_cache", 0.0)
        kv = total_kv / min(n, minimum.shard_limit.get("kv_cache", n))
        # TGI and SGLang fit an undeclared context to the memory left (TGI's max-total-tokens
        # defaults to min(max_allocatable, max_position_embeddings)): there the assumed
        # context's KV cache cannot make the server fail.
        binding = decl.context is not None or eng.engine not in (TGI, SGLANG)
    space = mem * usable * share if usable < 1 else mem * share
    return Room(share, basis, space, need, kv, binding, eng)


def report(res: Resource, minimum: sizing.Estimate, decl: ModelDecl, r: Room,
           estimated: bool = False) -> None:
    """model.max_concurrency and its wording, for a server with a KV cache (per replica: data
    parallel replicas each hold their own)."""
    if r.engine is None or r.kv <= 0:
        return
    other = r.need - r.kv
    count = max_concurrency(r.room, other, r.kv, r.engine.max_seqs)
    unlimited = max_concurrency(r.room, other, r.kv, None)
    ctx = minimum.inputs["context_tokens"]
    said = "declared" if decl.context is not None else "not declared; assumed"
    free = max(0.0, r.room - other)
    text = (f"{count} sequence{'s' if count != 1 else ''} of {ctx} tokens (context {said}): "
            f"{free:.1f} GiB of KV cache per GPU after weights and runtime, "
            f"{r.kv * 1024:.0f} MiB per sequence, "
            + (r.basis or f"sizing.fit_headroom {r.share:g} (engine not known)"))
    if r.engine.max_seqs is not None and unlimited > r.engine.max_seqs:
        text += f"; capped by {r.engine.seqs_basis}"
    if count == 0 and not r.kv_binding:
        text += "; the engine shortens an undeclared context to what the KV cache holds"
    if (decl.data_parallel or 1) > 1:
        text += f"; per replica, {decl.data_parallel} data-parallel replicas"
    if estimated:
        text += "; approximate: the model's size is estimated from its name"
    res.facts["model.max_concurrency"] = count
    res.facts["explain.max_concurrency"] = text
