"""GPU memory estimates for serving and fine-tuning a model.

Every figure the estimate rests on is a module constant below, with the
reason for its value; docs/sizing.md explains the method. All memory is
reported in GiB (2**30 bytes), the unit of the GPU price catalog.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gpulint.config.sizing import DEFAULT_CONCURRENCY, DEFAULT_HEADROOM
from gpulint.sizing.model_catalog import ModelInfo
from gpulint.sizing.precision import DEFAULT_PRECISION, bits_per_param, normalize_precision

__all__ = [
    "Estimate",
    "estimate_inference",
    "estimate_training",
    "fits",
    "kv_bytes_per_token",
    "min_gpus",
]

GIB = 1024**3

# ------------------------------------------------------------ inference model
# vLLM and TGI allocate the KV cache in the model dtype ("auto") even for
# int4/fp8 weights, so KV is 2 bytes per value unless an fp8 cache is set.
KV_DEFAULT_BYTES = 2
# Context assumed when a deployment declares none: the model's own limit,
# capped at 8192 because 128k limits are rarely used in full and a cap
# keeps a missing flag from dominating the estimate.
DEFAULT_CONTEXT_CAP = 8192
DEFAULT_CONTEXT_UNKNOWN = 4096  # decoder without a published max_context
DEFAULT_CONTEXT_ENCODER_DECODER = 1024  # BART's limit; >= T5's 512, Whisper's 448
# CUDA context + cuBLAS/NCCL workspaces, per GPU (observed 0.3-1 GiB).
CUDA_CONTEXT_GIB = 0.5
# Activations, allocator slack and sampler buffers as a share of the 16-bit
# size of the *active* weights (the "x1.2" serving rule of thumb puts all
# overhead at 20%; KV is counted separately here, so half of that).
ACTIVATION_FRACTION = 0.10
ACTIVATION_FLOOR_GIB = 0.25
# ...but activations scale with width x batched tokens, not with depth: a
# 70B prefill of 8192 tokens holds ~1 GiB of MLP intermediates (8192 x
# 28672 x 2 x 2 bytes). Cap so large models are not charged 10+ GiB.
ACTIVATION_CAP_GIB = 4.0
# Diffusion pipelines decode large latents through a VAE that the parameter
# counts leave out; assume activations of half the weight size.
DIFFUSION_ACTIVATION_FRACTION = 0.5

# Unknown architecture: dense transformers have P ~= 12 * L * d^2 and, for
# Llama/GPT shapes, d ~= 128 * L, so L ~= (P / 196608) ** (1/3). KV is then
# sized like Llama 3 (GQA, 8 KV heads of dim 128): that matches 8B/70B
# Llama 3 within 10%, and undercounts old MHA models (Llama 2 7B) ~4x.
RULE_KV_HEADS = 8
RULE_HEAD_DIM = 128
RULE_PARAMS_PER_LAYER_CUBED = 12 * 128 * 128  # 196608
# MLA rows without figures: DeepSeek-V2/V3 latent (512) + rope key (64).
RULE_MLA_LATENT = 512 + 64

GENERATIVE_KINDS = {"decoder", "decoder-moe", "vlm-decoder", "encoder-decoder"}
DIFFUSION_KINDS = {"diffusion-unet", "diffusion-mmdit"}

# ------------------------------------------------------------- training model
# Mixed-precision Adam, per parameter (ZeRO paper, Rajbhandari et al. 2020,
# sec. 3.1): fp16/bf16 weights 2 + gradients 2 + fp32 master weights 4 +
# Adam momentum 4 + variance 4 = 16 bytes.
FULL_FT_BYTES = {"weights": 2, "gradients": 2, "master_weights": 4, "optimizer": 8}
# LoRA adapters as a share of base parameters: rank 16 on every linear
# projection of Llama-2-7B is ~40M params (0.6%); the QLoRA paper calls 0.2%
# "commonly used". 0.5% sits between; adapters train with the same 16 B/param.
LORA_ADAPTER_FRACTION = 0.005
DEFAULT_TRAIN_SEQ_LEN = 2048
DEFAULT_MICRO_BATCH = 1
# Activation memory per layer per token, in units of hidden size, from
# Korthikanti et al. 2022 ("Reducing Activation Recomputation"): 34*s*b*h
# bytes per layer without recomputation once flash attention removes the
# 5*a*s^2*b term. With full checkpointing only each layer's 2-byte input is
# kept, plus one layer's working set during its recomputation.
ACT_BYTES_PER_HIDDEN_FULL = 34
ACT_BYTES_PER_HIDDEN_CKPT = 2
# Logits for the loss: bf16 logits plus an fp32 copy for the softmax.
LOGIT_BYTES = 2 + 4
RULE_VOCAB = 32000  # Llama 2 vocabulary, when the catalog has none



@dataclass(frozen=True)
class Estimate:
    """A memory estimate. Components are GiB; those named in `per_gpu`
    are needed on every GPU, the rest is split across GPUs (up to the
    divisor limit in `shard_limit`)."""

    kind: str  # "inference" | "training"
    label: str
    components: dict[str, float]
    inputs: dict[str, Any]
    approximate: bool = False
    notes: tuple[str, ...] = ()
    per_gpu: tuple[str, ...] = ("cuda_context",)
    shard_limit: dict[str, int] = field(default_factory=dict)

    def per_gpu_gib(self, gpu_count: int) -> float:
        """Memory needed on each of `gpu_count` GPUs."""
        n = max(1, int(gpu_count))
        need = 0.0
        for name, gib in self.components.items():
            if name in self.per_gpu:
                need += gib
            else:
                need += gib / min(n, self.shard_limit.get(name, n))
        return need

    @property
    def gpu_count(self) -> int:
        return int(self.inputs.get("tensor_parallel", 1))

    @property
    def total_gib(self) -> float:
        """Memory summed over the GPUs the estimate was made for."""
        return self.per_gpu_gib(self.gpu_count) * self.gpu_count

    def describe(self) -> str:
        i = self.inputs
        parts = [self.label, i["precision"]]
        if self.kind == "inference":
            if i.get("kv_cache"):
                parts.append(f"{_tokens(i['context_tokens'])} context")
                parts.append(f"{i['concurrency']} concurrent sequence"
                             + ("s" if i["concurrency"] != 1 else ""))
            else:
                parts.append("inference")
            if self.gpu_count > 1:
                parts.append(f"tensor parallel {self.gpu_count}")
        else:
            method = {"full": "full fine-tune (mixed-precision Adam)",
                      "lora": "LoRA", "qlora": "QLoRA"}[i["method"]]
            if i.get("method_assumed"):
                method += " (method not stated: the smallest the command allows)"
            parts.append(method)
            parts.append(f"seq {_tokens(i['seq_len'])} x batch {i['micro_batch']}")
        approx = " (approximate)" if self.approximate else ""
        return f"{', '.join(parts)}: {self.total_gib:.1f} GiB{approx}"


def _tokens(n: int) -> str:
    return f"{n // 1024}k" if n >= 1024 and n % 1024 == 0 else str(n)


def _resolve_precision(model: ModelInfo, precision: str | None,
                       notes: list[str]) -> str:
    if precision is not None:
        p = normalize_precision(precision)
        if p is not None:
            return p
        if str(precision).strip().lower() not in ("auto", ""):
            notes.append(f"unrecognised precision {precision!r}; assumed {DEFAULT_PRECISION}")
    for p in (model.implied_precision, model.release_precision):
        q = normalize_precision(p)
        if q is not None:
            return q
    return DEFAULT_PRECISION


def _rule_layers(params: int) -> int:
    cube_root: float = (params / RULE_PARAMS_PER_LAYER_CUBED) ** (1 / 3)
    return max(1, round(cube_root))


def kv_bytes_per_token(model: ModelInfo, kv_bytes: float = KV_DEFAULT_BYTES,
                       notes: list[str] | None = None) -> tuple[float, int, int]:
    """(bytes per token per layer, number of layers, KV split limit for TP).

    Returns zero bytes for models without a KV cache (encoders, CNNs ...).
    Assumptions made are appended to `notes`.
    """
    notes = notes if notes is not None else []
    if model.arch_kind not in GENERATIVE_KINDS and model.arch_kind is not None:
        return 0.0, 0, 1
    layers = model.num_layers
    if layers is None:
        # No shapes at all: the rule of thumb, sized on active parameters
        # (MoE experts do not add attention layers).
        layers = _rule_layers(model.params_active or model.params_total)
        if model.attention == "MLA":
            notes.append(f"architecture unknown; KV by rule of thumb ({layers} layers, "
                         f"MLA latent {RULE_MLA_LATENT})")
            return RULE_MLA_LATENT * kv_bytes, layers, 1
        notes.append(f"architecture unknown; KV by rule of thumb ({layers} layers, "
                     f"{RULE_KV_HEADS} KV heads x {RULE_HEAD_DIM})")
        per_layer = 2 * RULE_KV_HEADS * RULE_HEAD_DIM * kv_bytes
        if model.arch_kind == "encoder-decoder":
            per_layer *= 2
        return float(per_layer), layers, RULE_KV_HEADS
    if model.attention == "MLA":
        latent = (model.kv_lora_rank or 0) + (model.qk_rope_head_dim or 0)
        if not model.kv_lora_rank:
            latent = RULE_MLA_LATENT
            notes.append(f"MLA latent size unknown; assumed {RULE_MLA_LATENT} (DeepSeek-V2/V3)")
        # The latent is one vector per token per layer, replicated on each
        # tensor-parallel rank.
        return latent * kv_bytes, layers, 1
    kv_heads = model.num_kv_heads
    if kv_heads is None and model.attention == "MHA":
        kv_heads = model.num_attention_heads
    if kv_heads is None and model.attention == "MQA":
        kv_heads = 1
    head_dim = model.head_dim
    if head_dim is None and model.hidden_size and model.num_attention_heads:
        head_dim = model.hidden_size // model.num_attention_heads
        notes.append("head_dim taken as hidden_size / heads")
    if kv_heads is None:
        kv_heads = RULE_KV_HEADS
        notes.append(f"KV heads unknown; assumed {RULE_KV_HEADS} (Llama-3-style GQA)")
    if head_dim is None:
        head_dim = RULE_HEAD_DIM
        notes.append(f"head_dim unknown; assumed {RULE_HEAD_DIM}")
    per_layer = 2 * kv_heads * head_dim * kv_bytes  # K and V
    if model.arch_kind == "encoder-decoder":
        per_layer *= 2  # decoder self-attention + cross-attention caches
    return float(per_layer), layers, kv_heads


def _kv_layer_tokens(model: ModelInfo, layers: int, context: int,
                     notes: list[str]) -> int:
    """Sum over layers of the tokens each layer keeps (sliding windows)."""
    window = model.sliding_window
    if not window or window >= context:
        return layers * context
    every = model.sliding_window_global_every
    if every is None:
        notes.append("sliding-window layer pattern unknown; all layers counted in full")
        return layers * context
    global_layers = layers // every if every else 0
    return global_layers * context + (layers - global_layers) * window


def estimate_inference(model: ModelInfo, precision: str | None = None,
                       context_tokens: int | None = None,
                       concurrency: int | None = None, tensor_parallel: int = 1,
                       gpu_memory_utilization: float | None = None,
                       kv_cache_dtype: str | None = None) -> Estimate:
    """Memory to serve `model`: weights + KV cache + runtime overhead."""
    notes: list[str] = []
    prec = _resolve_precision(model, precision, notes)
    tp = max(1, int(tensor_parallel))
    weights = model.params_total * bits_per_param(prec) / 8

    kv_prec = normalize_precision(kv_cache_dtype)
    kv_bytes = (bits_per_param(kv_prec) / 8 if kv_prec in ("fp8", "int8", "fp32", "nvfp4")
                else KV_DEFAULT_BYTES)
    per_layer, layers, kv_limit = kv_bytes_per_token(model, kv_bytes, notes)
    generative = per_layer > 0
    if context_tokens is None:
        if model.arch_kind == "encoder-decoder" and not model.max_context:
            context_tokens = DEFAULT_CONTEXT_ENCODER_DECODER
        elif model.max_context:
            context_tokens = min(model.max_context, DEFAULT_CONTEXT_CAP)
        else:
            context_tokens = DEFAULT_CONTEXT_UNKNOWN
    if concurrency is None:
        concurrency = DEFAULT_CONCURRENCY if generative else 1
    kv = 0.0
    if generative:
        kv = per_layer * _kv_layer_tokens(model, layers, context_tokens, notes) * concurrency

    active = model.params_active or model.params_total
    frac = (DIFFUSION_ACTIVATION_FRACTION if model.arch_kind in DIFFUSION_KINDS
            else ACTIVATION_FRACTION)
    activations = min(max(ACTIVATION_FLOOR_GIB * GIB, active * 2 * frac),
                      ACTIVATION_CAP_GIB * GIB)
    if model.arch_kind is None and not notes:
        notes.append("architecture unknown")
    if model.arch_kind in DIFFUSION_KINDS:
        notes.append("diffusion activations are a rule of thumb")

    components = {
        "weights": weights / GIB,
        "kv_cache": kv / GIB,
        "activations": activations / GIB,
        "cuda_context": CUDA_CONTEXT_GIB,
    }
    inputs = {
        "model": model.id, "precision": prec, "params_total": model.params_total,
        "context_tokens": context_tokens, "concurrency": concurrency,
        "tensor_parallel": tp, "gpu_memory_utilization": gpu_memory_utilization,
        "kv_cache_dtype": kv_prec or "auto", "kv_cache": generative,
    }
    return Estimate(
        kind="inference", label=model.short_name, components=components, inputs=inputs,
        approximate=bool(notes) or model.estimated, notes=tuple(notes),
        per_gpu=("cuda_context",), shard_limit={"kv_cache": kv_limit},
    )


def estimate_training(model: ModelInfo, method: str = "full", precision: str | None = None,
                      seq_len: int | None = None, micro_batch: int | None = None,
                      gradient_checkpointing: bool = True,
                      adapter_fraction: float = LORA_ADAPTER_FRACTION) -> Estimate:
    """Memory to fine-tune `model` on one GPU (or sharded, see fits())."""
    if method not in ("full", "lora", "qlora"):
        raise ValueError(f"method must be full, lora or qlora, not {method!r}")
    notes: list[str] = []
    p = model.params_total
    components: dict[str, float] = {}
    if method == "full":
        prec = "bf16" if precision is None else (normalize_precision(precision) or "bf16")
        for name, nbytes in FULL_FT_BYTES.items():
            components[name] = p * nbytes / GIB
        prec_label = prec
    else:
        if method == "qlora":
            prec = "nf4"
        else:
            prec = _resolve_precision(model, precision, notes)
        components["weights"] = p * bits_per_param(prec) / 8 / GIB
        adapters = p * adapter_fraction
        components["adapters+optimizer"] = adapters * sum(FULL_FT_BYTES.values()) / GIB
        prec_label = prec

    if seq_len is None:
        seq_len = min(model.max_context or DEFAULT_TRAIN_SEQ_LEN, DEFAULT_TRAIN_SEQ_LEN)
    if micro_batch is None:
        micro_batch = DEFAULT_MICRO_BATCH
    layers = model.num_layers
    hidden = model.hidden_size
    if layers is None or hidden is None:
        layers = layers or _rule_layers(model.params_active or p)
        hidden = hidden or 128 * layers
        notes.append(f"activation shapes unknown; assumed {layers} layers of width {hidden}")
    vocab = model.vocab_size or RULE_VOCAB
    tokens = seq_len * micro_batch
    if gradient_checkpointing:
        act = tokens * hidden * (layers * ACT_BYTES_PER_HIDDEN_CKPT + ACT_BYTES_PER_HIDDEN_FULL)
    else:
        act = tokens * hidden * layers * ACT_BYTES_PER_HIDDEN_FULL
    act += tokens * vocab * LOGIT_BYTES
    components["activations"] = act / GIB
    components["cuda_context"] = CUDA_CONTEXT_GIB

    inputs = {
        "model": model.id, "method": method, "precision": prec_label,
        "params_total": p, "seq_len": seq_len, "micro_batch": micro_batch,
        "gradient_checkpointing": gradient_checkpointing, "tensor_parallel": 1,
        "adapter_fraction": adapter_fraction if method != "full" else None,
    }
    # Activations belong to each data-parallel rank's micro-batch: per GPU.
    return Estimate(
        kind="training", label=model.short_name, components=components, inputs=inputs,
        approximate=bool(notes) or model.estimated, notes=tuple(notes),
        per_gpu=("cuda_context", "activations"),
    )


def fits(estimate: Estimate, gpu_memory_gib: float, gpu_count: float,
         headroom: float = DEFAULT_HEADROOM) -> bool:
    """Whether the estimate fits on `gpu_count` GPUs of `gpu_memory_gib`.

    With several GPUs the weights (and KV cache, up to one KV head per GPU)
    are split by tensor parallelism, or for training by ZeRO-3/FSDP
    sharding of weights, gradients and optimizer state. A fractional count
    (a time-sliced or MIG share) gets that fraction of one GPU's memory.
    A declared vLLM gpu_memory_utilization replaces the headroom, since
    vLLM will not use more than that share.
    """
    if gpu_count <= 0 or gpu_memory_gib <= 0:
        return False
    share = estimate.inputs.get("gpu_memory_utilization") or headroom
    if gpu_count < 1:
        return estimate.per_gpu_gib(1) <= gpu_memory_gib * gpu_count * share
    return estimate.per_gpu_gib(math.floor(gpu_count)) <= gpu_memory_gib * share


def min_gpus(estimate: Estimate, gpu_memory_gib: float,
             headroom: float = DEFAULT_HEADROOM, max_gpus: int = 64) -> int | None:
    """Smallest power-of-two GPU count that fits, or None up to max_gpus.

    Powers of two because tensor-parallel degrees must divide the head count.
    """
    n = 1
    while n <= max_gpus:
        if fits(estimate, gpu_memory_gib, n, headroom):
            return n
        n *= 2
    return None
