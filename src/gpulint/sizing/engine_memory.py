"""How much GPU memory each serving engine takes, and how many sequences its KV cache holds.

An engine loads the weights, then gives the rest of the share of GPU memory it is allowed to
the KV cache. The share and the cap on sequences decoded at once are engine flags; when a
manifest does not set them, each engine's documented default applies, which counts as declared
(it is what the server will do). Each default is cited below with the documentation it comes
from. A server whose KV cache cannot hold one sequence of the declared context does not start
(vLLM refuses it) or cannot serve that context (SGLang and TGI cap requests below it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

VLLM = "vllm"
SGLANG = "sglang"
TGI = "text-generation-launcher"

# vLLM --gpu-memory-utilization, "the fraction of GPU memory to be used for the model
# executor", per instance and GPU: 0.9 in the releases of 2024-2025
# (https://docs.vllm.ai/en/v0.8.5/serving/engine_args.html), 0.92 in vllm/config/cache.py of
# later sources (vllm-project/vllm at 002f10e0cfa1373a19a0d2756598a34b700d20e5). The image tag
# does not say which, so the larger: an error never rests on the smaller share.
VLLM_MEMORY_FRACTION = 0.92
# vLLM --max-num-seqs has no static default: EngineArgs.get_batch_defaults (vllm/engine/
# arg_utils.py) sets 1024 for the OpenAI server on GPUs of at least 70 GiB other than A100, and
# 256 elsewhere. https://github.com/vllm-project/vllm/blob/main/vllm/engine/arg_utils.py
VLLM_MAX_SEQS = 256
VLLM_MAX_SEQS_LARGE_GPU = 1024
VLLM_LARGE_GPU_GIB = 70
# SGLang --mem-fraction-static (weights and KV cache pool): "The default value is 0.9"
# (https://docs.sglang.io/advanced_features/server_arguments.html). Recent releases derive a
# lower value from the GPU's memory, so 0.9 is the most SGLang will take: an error built on it
# rests on a lower bound of the need against an upper bound of the room.
SGLANG_MEMORY_FRACTION = 0.9
# SGLang --max-running-requests defaults to None: derived from the memory pool, no fixed cap.
# TGI (text-generation-launcher) --cuda-memory-fraction / CUDA_MEMORY_FRACTION "[default: 1.0]"
# and --max-concurrent-requests / MAX_CONCURRENT_REQUESTS "[default: 128]".
# https://huggingface.co/docs/text-generation-inference/reference/launcher
TGI_MEMORY_FRACTION = 1.0
TGI_MAX_CONCURRENT = 128

_FRACTION_FLAG = {VLLM: "--gpu-memory-utilization", SGLANG: "--mem-fraction-static",
                  TGI: "--cuda-memory-fraction"}
_SEQS_FLAG = {VLLM: "--max-num-seqs", SGLANG: "--max-running-requests",
              TGI: "--max-concurrent-requests"}
_NAME = {VLLM: "vLLM", SGLANG: "SGLang", TGI: "TGI"}


@dataclass(frozen=True)
class EngineMemory:
    """The memory share and sequence cap a server runs with, and where each came from."""

    engine: str | None  # VLLM, SGLANG, TGI or None (not a known engine)
    fraction: float | None  # share of each GPU's memory for weights + KV cache (None: unknown)
    fraction_basis: str  # "--gpu-memory-utilization 0.85" / "vLLM's default 0.9"
    max_seqs: int | None  # sequences decoded at once (None: no fixed cap)
    seqs_basis: str


def engine_memory(server: str | None, fraction: float | None, max_seqs: int | None,
                  gpu_memory_gib: float | None = None, gpu_name: str | None = None
                  ) -> EngineMemory:
    """The share and cap of `server`: the declared values, else the engine's documented
    defaults; for an engine gpulint does not know, only what is declared."""
    engine = server if server in _NAME else None
    name = _NAME.get(engine or "", "")
    if fraction is not None:
        f_basis = f"{_FRACTION_FLAG.get(engine or '', 'declared memory share')} {_share(fraction)}"
    elif engine is not None:
        fraction = {VLLM: VLLM_MEMORY_FRACTION, SGLANG: SGLANG_MEMORY_FRACTION,
                    TGI: TGI_MEMORY_FRACTION}[engine]
        f_basis = f"{name}'s default {_FRACTION_FLAG[engine]} {_share(fraction)}"
    else:
        f_basis = "engine not known"
    if max_seqs is not None:
        s_basis = f"{_SEQS_FLAG.get(engine or '', 'declared limit')} {max_seqs}"
    elif engine == VLLM:
        large = (gpu_memory_gib or 0) >= VLLM_LARGE_GPU_GIB and "a100" not in (
            gpu_name or "").lower()
        max_seqs = VLLM_MAX_SEQS_LARGE_GPU if large else VLLM_MAX_SEQS
        s_basis = f"vLLM's default --max-num-seqs {max_seqs}"
    elif engine == TGI:
        max_seqs = TGI_MAX_CONCURRENT
        s_basis = f"TGI's default --max-concurrent-requests {max_seqs}"
    else:
        s_basis = "no fixed cap"
    return EngineMemory(engine, fraction, f_basis, max_seqs, s_basis)


def _share(fraction: float) -> str:
    return "1.0" if fraction == 1 else f"{fraction:g}"  # as the flags are written


def max_concurrency(room_gib: float, other_gib: float, kv_per_sequence_gib: float,
                    cap: int | None) -> int:
    """Sequences whose KV cache fits in what `room_gib` leaves after `other_gib` (weights,
    activations, runtime), capped by the engine's limit; 0 when not even one fits."""
    if kv_per_sequence_gib <= 0:
        return 0
    n = max(0, math.floor((room_gib - other_gib) / kv_per_sequence_gib + 1e-9))
    return min(n, cap) if cap is not None else n
