"""Will the server start: the KV cache each engine leaves after the weights, from its memory
flag or its documented default, and how many sequences of the declared context it holds.

Model figures come from each model's published config.json and card (cited where used); the
memory method's own constants (activations, CUDA context) are gpulint's documented rule of
thumb (docs/sizing.md) and are imported, not restated.
"""

from __future__ import annotations

import math
import os

from gpulint import pipeline as scan
from gpulint.derive import fit
from gpulint.derive.alternative import Context
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource, Unknown
from gpulint.ruleset import load_rules
from gpulint.sizing.engine_memory import engine_memory
from gpulint.sizing.estimate import (
    ACTIVATION_CAP_GIB,
    ACTIVATION_FLOOR_GIB,
    ACTIVATION_FRACTION,
    CUDA_CONTEXT_GIB,
)

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "serving", "engines.yaml")
GIB = 2**30
H100_GIB = 80.0  # NVIDIA H100 SXM5 datasheet: 80 GB HBM3 (the catalog lists it as 80 GiB)

# meta-llama/Llama-3.1-8B config.json (huggingface.co/meta-llama/Llama-3.1-8B, July 2024):
# num_hidden_layers 32, num_key_value_heads 8, hidden_size 4096 / num_attention_heads 32 = head
# dim 128; the model page gives 8.03B parameters.
LLAMA_8B = {"params": 8.03e9, "layers": 32, "kv_heads": 8, "head_dim": 128}
# meta-llama/Llama-3.1-70B config.json: num_hidden_layers 80, num_key_value_heads 8, hidden_size
# 8192 / 64 heads = 128; the Llama 3.1 model card: 70B parameters.
LLAMA_70B = {"params": 70e9, "layers": 80, "kv_heads": 8, "head_dim": 128}

# Engine defaults, from each engine's documentation (sizing/engine_memory.py cites them):
VLLM_SHARE = 0.92  # vllm/config/cache.py gpu_memory_utilization (0.9 in 2024-2025 releases)
VLLM_SEQS_H100 = 1024  # EngineArgs.get_batch_defaults: GPUs of 70 GiB or more other than A100
TGI_SHARE = 1.0  # text-generation-launcher --cuda-memory-fraction [default: 1.0]
TGI_CONCURRENT = 128  # text-generation-launcher --max-concurrent-requests [default: 128]


def _expected(model: dict[str, float], context: int, share: float, tp: int = 1,
              kv_bytes: float = 2, cap: int | None = None) -> int:
    """Sequences of `context` whose KV cache fits after bf16 weights, activations and the CUDA
    context on each of `tp` H100s."""
    weights = model["params"] * 2 / GIB
    act = min(max(ACTIVATION_FLOOR_GIB, model["params"] * 2 * ACTIVATION_FRACTION / GIB),
              ACTIVATION_CAP_GIB)
    other = (weights + act) / tp + CUDA_CONTEXT_GIB
    kv = 2 * model["layers"] * model["kv_heads"] * model["head_dim"] * kv_bytes * context / GIB
    kv /= min(tp, model["kv_heads"])
    n = max(0, math.floor((H100_GIB * share - other) / kv))
    return min(n, cap) if cap is not None else n


def _scan() -> dict[str, Resource]:
    rules = [r for r in load_rules() if r.id == "gpu-model-does-not-fit"]
    result = scan.run([FIXTURE], rules)
    return {r.address: r for r in result.resources}


def test_each_engine_reports_its_maximum_concurrency_at_the_declared_context() -> None:
    res = _scan()
    vllm = res["Deployment/llm/vllm-8b-128k"].facts
    # 8B bf16 is about 17 GiB with runtime; 0.92 of 80 GiB leaves about 56.7 GiB for 16 GiB
    # sequences of 131072 tokens (128 KiB a token): 3.
    assert vllm["model.max_concurrency"] == _expected(LLAMA_8B, 131072, VLLM_SHARE,
                                                      cap=VLLM_SEQS_H100) == 3
    assert "vLLM's default --gpu-memory-utilization 0.92" in vllm["explain.max_concurrency"]
    capped = res["Deployment/llm/vllm-8b-capped"].facts
    # At 0.5 with an fp8 cache 11 sequences of 32768 tokens fit; --max-num-seqs 2 caps them.
    assert _expected(LLAMA_8B, 32768, 0.5, kv_bytes=1) == 11
    assert capped["model.max_concurrency"] == _expected(LLAMA_8B, 32768, 0.5, kv_bytes=1, cap=2)
    assert "capped by --max-num-seqs 2" in capped["explain.max_concurrency"]
    assert "--gpu-memory-utilization 0.5" in capped["explain.max_concurrency"]
    assert "2 concurrent sequences" in capped["model.estimate"]  # typical load within the cap
    tgi = res["Deployment/llm/tgi-8b-2k"].facts
    # MAX_TOTAL_TOKENS 2048 from the environment: 252 sequences fit in all 80 GiB, and TGI's
    # default --max-concurrent-requests caps them at 128.
    assert _expected(LLAMA_8B, 2048, TGI_SHARE) == 252
    assert tgi["model.max_concurrency"] == _expected(LLAMA_8B, 2048, TGI_SHARE,
                                                     cap=TGI_CONCURRENT) == 128
    assert "TGI's default --max-concurrent-requests 128" in tgi["explain.max_concurrency"]


def test_a_kv_cache_that_cannot_hold_one_declared_sequence_is_does_not_fit() -> None:
    res = _scan()["Deployment/llm/sglang-70b-128k"].facts
    # 70B over 2 H100s at --mem-fraction-static 0.85: 68 GiB each, 67.7 GiB of it weights and
    # runtime, and one 131072-token sequence needs 20 GiB of KV cache per GPU.
    assert _expected(LLAMA_70B, 131072, 0.85, tp=2) == 0
    assert res["model.max_concurrency"] == 0
    assert res["model.fits"] is False
    assert "--mem-fraction-static 0.85" in res["explain.provided"]


def _h100() -> Resource:
    res = Resource("Deployment/llm/x", "Deployment", "x.yaml", 1, "kubernetes")
    res.facts.update({"gpu.model": "H100", "gpu.memory_gib": H100_GIB, "gpu.count": 1.0,
                      "accelerator.kind": "gpu", "cost.hours": 730.0})
    return res


def test_an_undeclared_context_the_engine_fits_to_memory_is_no_error() -> None:
    # Llama-3.1-70B in fp8 on one H100 under SGLang at --mem-fraction-static 0.88 (70.4 GiB):
    # weights and runtime take about 69.7 GiB, and the 8192 tokens assumed for an undeclared
    # context would take 2.5 GiB more. SGLang sizes an undeclared context to its memory pool,
    # so that cannot stop it; declared, the same context is a close call.
    undeclared = _h100()
    fit.apply(undeclared, ModelDecl("meta-llama/Llama-3.1-70B-Instruct", "args", "fp8",
                                    gpu_memory_utilization=0.88, server="sglang"), Context())
    assert undeclared.facts["model.fits"] is True
    declared = _h100()
    fit.apply(declared, ModelDecl("meta-llama/Llama-3.1-70B-Instruct", "args", "fp8",
                                  context=8192, gpu_memory_utilization=0.88, server="sglang"),
              Context())
    assert isinstance(declared.facts["model.fits"], Unknown)
    assert "too close" in declared.facts["model.fits"].reason


def test_engine_defaults_are_the_documented_ones() -> None:
    assert engine_memory("vllm", None, None, 80, "H100").max_seqs == VLLM_SEQS_H100
    # vLLM keeps 256 on an A100 of 80 GiB (EngineArgs.get_batch_defaults: "a100" excluded).
    assert engine_memory("vllm", None, None, 80, "A100-80GB").max_seqs == 256
    assert engine_memory("vllm", None, None, 24, "L4").fraction == VLLM_SHARE
    assert engine_memory("sglang", None, None).fraction == 0.9  # docs: "default value is 0.9"
    assert engine_memory("sglang", None, None).max_seqs is None  # derived from the pool
    tgi = engine_memory("text-generation-launcher", None, None)
    assert (tgi.fraction, tgi.max_seqs) == (TGI_SHARE, TGI_CONCURRENT)
    # An engine gpulint does not know has no defaults: only what is declared.
    other = engine_memory("llama-server", None, None)
    assert (other.fraction, other.max_seqs) == (None, None)


def test_data_parallel_replicas_each_hold_their_own_kv_cache() -> None:
    # Two H100s, --data-parallel-size 2: each replica is one GPU holding the whole model, so the
    # concurrency is the single-GPU figure, per replica.
    res = _h100()
    res.facts["gpu.count"] = 2.0
    fit.apply(res, ModelDecl("meta-llama/Llama-3.1-8B-Instruct", "args", context=131072,
                             data_parallel=2, server="vllm"), Context())
    assert res.facts["model.max_concurrency"] == _expected(LLAMA_8B, 131072, VLLM_SHARE,
                                                           cap=VLLM_SEQS_H100)
    assert "per replica, 2 data-parallel replicas" in res.facts["explain.max_concurrency"]
