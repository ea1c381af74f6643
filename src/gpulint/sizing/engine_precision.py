"""Precision spellings as each serving engine accepts them, mapped to our precision names.

The same word means different widths in different engines: TGI's `--quantize bitsandbytes` is
LLM.int8 (8-bit), vLLM's in-flight `--quantization bitsandbytes` loads 4-bit weights. So a
precision is read with the engine that was given it. The tables list each engine's documented
values (tests/test_engine_precision.py cites the documentation of each); anything else is not
guessed: the caller reports the model as "could not evaluate".
"""

from __future__ import annotations

# The method is named, but the bit width is the checkpoint's own (compressed-tensors, EXL2,
# GGUF, ModelOpt …): it is read from the model name (`-W4A16`, `-FP8`, `Q4_K_M` …) or not known.
CHECKPOINT = "checkpoint"

# text-generation-launcher --quantize / QUANTIZE and --dtype / DTYPE.
_TGI = {
    "awq": "awq", "gptq": "gptq", "marlin": "gptq", "exl2": CHECKPOINT, "eetq": "int8",
    "bitsandbytes": "int8", "bitsandbytes-nf4": "nf4", "bitsandbytes-fp4": "nf4",
    "fp8": "fp8", "compressed-tensors": CHECKPOINT,
    "float16": "fp16", "bfloat16": "bf16",
}
# Quantization methods vLLM and SGLang share, with the width of the weights they load.
_VLLM_FAMILY = {
    "awq": "awq", "awq_marlin": "awq", "gptq": "gptq", "gptq_marlin": "gptq",
    "gptq_marlin_24": "gptq", "marlin": "gptq", "moe_wna16": CHECKPOINT,
    "fp8": "fp8", "fbgemm_fp8": "fp8", "ptpc_fp8": "fp8", "w8a8_fp8": "fp8",
    "w8a8_int8": "int8", "experts_int8": "int8", "tpu_int8": "int8",
    "modelopt": CHECKPOINT, "modelopt_fp4": "nvfp4", "petit_nvfp4": "nvfp4", "mxfp4": "mxfp4",
    "gguf": CHECKPOINT, "compressed-tensors": CHECKPOINT, "quark": CHECKPOINT,
    "torchao": CHECKPOINT, "hqq": CHECKPOINT, "aqlm": CHECKPOINT, "auto-round": CHECKPOINT,
    "qqq": "int4", "w4afp8": "int4",
    # In-flight bitsandbytes loads 4-bit NF4 weights; a pre-quantized bnb checkpoint says its
    # width in its name (`-bnb-4bit`), which the caller prefers.
    "bitsandbytes": "nf4",
    # --dtype
    "half": "fp16", "float16": "fp16", "bfloat16": "bf16", "float": "fp32", "float32": "fp32",
}
ENGINE_SPELLINGS: dict[str, dict[str, str]] = {
    "text-generation-launcher": _TGI,
    "vllm": _VLLM_FAMILY,
    "sglang": _VLLM_FAMILY,
}
# --kv-cache-dtype values that store the KV cache in one byte per value (vLLM, SGLang, and TGI's
# fp8_e4m3fn / fp8_e5m2), and in four bits (SGLang's fp4_e2m1, vLLM's nvfp4).
FP8_KV_DTYPES = frozenset({"fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_e4m3fn",
                           "fp8_ds_mla", "fp8_per_token_head", "int8_per_token_head"})
FP4_KV_DTYPES = frozenset({"fp4_e2m1", "nvfp4", "nvfp4_4over6", "nvfp4_ds_mla"})
# Values that mean "the model's own": nothing is declared.
_AUTO = frozenset({"", "auto", "none", "default"})


def engine_precision(server: str | None, value: str | None) -> str | None:
    """Our precision name for an engine's spelling; CHECKPOINT when the checkpoint decides; the
    value unchanged when the engine is unknown or does not list it (the caller normalises or
    reports it); None when it means "auto"."""
    if value is None:
        return None
    key = value.strip().lower()
    if key in _AUTO:
        return None
    table = ENGINE_SPELLINGS.get((server or "").lower())
    if table is None:
        return value
    return table.get(key, value)


def kv_cache_bytes(value: str | None) -> float | None:
    """Bytes per KV value for a --kv-cache-dtype, or None for the model dtype (auto)."""
    if value is None or value.strip().lower() in _AUTO:
        return None
    key = value.strip().lower()
    if key in FP8_KV_DTYPES:
        return 1
    if key in FP4_KV_DTYPES:
        return 0.5
    if key in {"bfloat16", "float16", "half", "bf16", "fp16"}:
        return 2
    return None
