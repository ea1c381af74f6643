"""Precision names and the bits each stores per weight.

Every figure is a module constant with its source; docs/sizing.md explains how the estimate
uses them.
"""
from __future__ import annotations

import re

DEFAULT_PRECISION = "bf16"  # HF checkpoints of current LLMs ship in bf16

# Group-wise int4 (AWQ, GPTQ, generic int4): 4-bit weights plus one fp16
# scale and one fp16 zero point per group of 128 weights -> 4 + 32/128 bits.
INT4_GROUP_SIZE = 128
INT4_BITS = 4 + 32 / INT4_GROUP_SIZE  # 4.25
# bitsandbytes NF4 with double quantisation: QLoRA paper (Dettmers et al.
# 2023, sec. 3) puts the quantisation constants at 0.127 bits per parameter.
NF4_BITS = 4.127
# MXFP4 (OCP Microscaling spec): blocks of 32 fp4 values sharing one 8-bit
# scale -> 4 + 8/32 bits. gpt-oss ships its expert weights in this format.
MXFP4_BITS = 4 + 8 / 32
# NVFP4 (NVIDIA's Blackwell format, ModelOpt's FP4): blocks of 16 fp4 values sharing one fp8
# E4M3 scale -> 4 + 8/16 bits (the one fp32 scale per tensor is negligible).
NVFP4_BITS = 4 + 8 / 16

# GGUF bits per weight. The k-quant mixes are the measured figures that
# llama.cpp publishes for Llama 2 7B in tools/quantize/README.md (they
# include the tensors kept at higher precision). The legacy block types
# follow from the ggml block layout: 32 weights + one fp16 scale (+ one fp16
# min for the *_1 types), e.g. Q8_0 = (32*8 + 16) / 32 = 8.5.
GGUF_BITS = {
    "q2_k": 3.35, "q3_k_s": 3.50, "q3_k_m": 3.91, "q3_k_l": 4.27,
    "q4_k_s": 4.58, "q4_k_m": 4.84, "q5_k_s": 5.52, "q5_k_m": 5.68, "q6_k": 6.56,
    "q4_0": 4.5, "q4_1": 5.0, "q5_0": 5.5, "q5_1": 6.0, "q8_0": 8.5,
}

_FIXED_BITS = {
    "fp32": 32.0, "fp16": 16.0, "bf16": 16.0, "fp8": 8.0, "int8": 8.0,
    "int4": INT4_BITS, "awq": INT4_BITS, "gptq": INT4_BITS, "nf4": NF4_BITS,
    "mxfp4": MXFP4_BITS, "nvfp4": NVFP4_BITS,
}

_ALIASES = {
    "float32": "fp32", "f32": "fp32", "float": "fp32", "32": "fp32", "full": "fp32",
    "float16": "fp16", "half": "fp16", "f16": "fp16", "16": "fp16",
    "bfloat16": "bf16",
    "float8": "fp8", "fp8_e4m3": "fp8", "fp8_e5m2": "fp8", "e4m3": "fp8", "e5m2": "fp8",
    "fp8_e4m3fn": "fp8", "compressed-tensors-fp8": "fp8",
    "8bit": "int8", "8-bit": "int8", "w8a8": "int8", "w8a16": "int8", "llm.int8": "int8",
    "bitsandbytes-8bit": "int8", "bnb-8bit": "int8", "load_in_8bit": "int8", "q8": "int8",
    "4bit": "int4", "4-bit": "int4", "w4a16": "int4", "int4_awq": "awq",
    "awq_marlin": "awq", "gptq_marlin": "gptq", "exl2": "int4",
    "bitsandbytes": "nf4", "bitsandbytes-4bit": "nf4", "bnb-4bit": "nf4", "bnb": "nf4",
    "load_in_4bit": "nf4", "fp4": "nf4", "nf4": "nf4",
    "mx_fp4": "mxfp4",
}


def normalize_precision(value: str | None) -> str | None:
    """Canonical precision name, or None for "auto"/unknown values."""
    if value is None:
        return None
    key = str(value).strip().lower().replace(" ", "").replace("torch.", "")
    if not key or key in ("auto", "none", "default"):
        return None
    key = _ALIASES.get(key, key)
    if key in _FIXED_BITS:
        return key
    gguf = key.replace("-", "_")
    if gguf in GGUF_BITS:
        return gguf
    if gguf in ("bf16", "f16"):
        return "fp16" if gguf == "f16" else gguf
    # Other GGUF types (q3_k, iq4_xs ...) -> keep the name; bits_per_param
    # falls back to "n bits + 0.5 for block scales".
    if re.fullmatch(r"i?q[1-8](_[a-z0-9]+)*", gguf):
        return gguf
    return None


def bits_per_param(precision: str) -> float:
    """Bits stored per weight for a canonical precision name."""
    if precision in _FIXED_BITS:
        return _FIXED_BITS[precision]
    if precision in GGUF_BITS:
        return GGUF_BITS[precision]
    m = re.fullmatch(r"i?q([1-8])(_[a-z0-9]+)*", precision)
    if m:
        return int(m.group(1)) + 0.5  # assumption: block scales cost ~0.5 bit
    raise ValueError(f"unknown precision {precision!r}")
