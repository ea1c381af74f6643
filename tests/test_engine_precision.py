"""Every precision spelling each serving engine documents, with the bits per weight we size it
at. A spelling an engine does not list is not guessed."""

from __future__ import annotations

import pytest

from gpulint.facts.model_decl import from_command
from gpulint.sizing.engine_precision import CHECKPOINT, engine_precision, kv_cache_bytes
from gpulint.sizing.precision import bits_per_param, normalize_precision

TGI = "text-generation-launcher"
# Bits per weight of our precision names (src/gpulint/sizing/estimate.py states each reason).
INT4, NF4, FP8, INT8, BF16 = 4.25, 4.127, 8.0, 8.0, 16.0

# text-generation-inference, docs/source/reference/launcher.md, QUANTIZE "Possible values":
# awq, compressed-tensors, eetq, exl2, gptq, marlin, bitsandbytes ("Bitsandbytes 8bit"),
# bitsandbytes-nf4 and bitsandbytes-fp4 ("Bitsandbytes 4bit"), fp8; DTYPE: float16, bfloat16.
TGI_CASES = [
    ("awq", INT4), ("gptq", INT4), ("marlin", INT4), ("eetq", INT8), ("bitsandbytes", INT8),
    ("bitsandbytes-nf4", NF4), ("bitsandbytes-fp4", NF4), ("fp8", FP8),
    ("float16", 16.0), ("bfloat16", BF16),
    ("exl2", None), ("compressed-tensors", None),  # the checkpoint's own width
]
# vLLM, `vllm serve --help` (EngineArgs): --dtype {auto,half,float16,bfloat16,float,float32};
# --quantization includes awq, awq_marlin, gptq, gptq_marlin, gptq_marlin_24, marlin, fp8,
# fbgemm_fp8, ptpc_fp8, experts_int8, modelopt, modelopt_fp4, mxfp4, gguf, compressed-tensors,
# bitsandbytes (in-flight quantization loads 4-bit weights), ...
VLLM_CASES = [
    ("awq", INT4), ("awq_marlin", INT4), ("gptq", INT4), ("gptq_marlin", INT4),
    ("gptq_marlin_24", INT4), ("marlin", INT4), ("fp8", FP8), ("fbgemm_fp8", FP8),
    ("ptpc_fp8", FP8), ("experts_int8", INT8), ("modelopt_fp4", 4.5), ("mxfp4", 4.25),
    ("bitsandbytes", NF4), ("half", 16.0), ("float16", 16.0), ("bfloat16", BF16),
    ("float", 32.0), ("float32", 32.0),
    ("modelopt", None), ("gguf", None), ("compressed-tensors", None),
]
# SGLang, `python -m sglang.launch_server --help`: --quantization {awq,fp8,gptq,marlin,
# gptq_marlin,awq_marlin,bitsandbytes,gguf,modelopt,modelopt_fp4,petit_nvfp4,w8a8_int8,
# w8a8_fp8,moe_wna16,qoq,w4afp8,mxfp4}; --dtype as vLLM's.
SGLANG_CASES = [
    ("awq", INT4), ("fp8", FP8), ("gptq", INT4), ("marlin", INT4), ("w8a8_int8", INT8),
    ("w8a8_fp8", FP8), ("petit_nvfp4", 4.5), ("modelopt_fp4", 4.5), ("mxfp4", 4.25),
    ("bitsandbytes", NF4), ("moe_wna16", None), ("gguf", None),
]


@pytest.mark.parametrize(("engine", "spelling", "bits"), [
    *[(TGI, s, b) for s, b in TGI_CASES],
    *[("vllm", s, b) for s, b in VLLM_CASES],
    *[("sglang", s, b) for s, b in SGLANG_CASES],
])
def test_each_documented_spelling_has_its_width(engine: str, spelling: str,
                                                bits: float | None) -> None:
    ours = engine_precision(engine, spelling)
    if bits is None:
        assert ours == CHECKPOINT
        return
    assert ours is not None and ours != CHECKPOINT
    name = normalize_precision(ours)
    assert name is not None
    assert bits_per_param(name) == pytest.approx(bits, abs=0.01)


def test_the_same_word_differs_between_engines() -> None:
    # TGI's bitsandbytes is LLM.int8; vLLM's in-flight bitsandbytes is 4-bit.
    assert engine_precision(TGI, "bitsandbytes") == "int8"
    assert engine_precision("vllm", "bitsandbytes") == "nf4"


@pytest.mark.parametrize("value", ["auto", "AUTO", " ", None])
def test_auto_declares_nothing(value: str | None) -> None:
    assert engine_precision("vllm", value) is None


def test_unknown_engine_or_spelling_is_passed_on_unchanged() -> None:
    assert engine_precision(None, "bitsandbytes-nf4") == "bitsandbytes-nf4"
    assert engine_precision("vllm", "made-up-quant") == "made-up-quant"


@pytest.mark.parametrize(("value", "expected"), [
    # vLLM --kv-cache-dtype {auto,fp8,fp8_e4m3,fp8_e5m2,fp8_inc}; SGLang {auto,fp8_e5m2,fp8_e4m3}
    ("auto", None), ("fp8", 1), ("fp8_e4m3", 1), ("fp8_e5m2", 1), ("fp8_inc", 1),
    ("bfloat16", 2), (None, None),
    # TGI --kv-cache-dtype {fp8_e4m3fn, fp8_e5m2} (text-generation-launcher reference); SGLang
    # fp4_e2m1 and vLLM nvfp4 store four bits a value.
    ("fp8_e4m3fn", 1), ("fp4_e2m1", 0.5), ("nvfp4", 0.5),
])
def test_kv_cache_dtype(value: str | None, expected: float | None) -> None:
    assert kv_cache_bytes(value) == expected


def test_tgi_quantize_env_is_read_with_the_engine() -> None:
    decl = from_command(["text-generation-launcher"],
                        {"MODEL_ID": "tiiuae/falcon-40b-instruct",
                         "QUANTIZE": "bitsandbytes-nf4"}, "container")
    assert decl is not None and decl.precision == "nf4"


def test_vllm_kv_cache_dtype_is_declared() -> None:
    decl = from_command(["vllm", "serve", "meta-llama/Llama-3.1-70B-Instruct",
                         "--kv-cache-dtype", "fp8"], {}, "container")
    assert decl is not None and decl.kv_cache_bytes == 1 and decl.precision is None


def test_tgi_memory_flags_are_read_from_its_environment() -> None:
    # text-generation-launcher reads CUDA_MEMORY_FRACTION, MAX_CONCURRENT_REQUESTS and
    # KV_CACHE_DTYPE from the environment (its launcher reference lists each env name).
    env = {"MODEL_ID": "meta-llama/Llama-3.1-8B-Instruct", "CUDA_MEMORY_FRACTION": "0.8",
           "MAX_CONCURRENT_REQUESTS": "32", "KV_CACHE_DTYPE": "fp8_e5m2"}
    decl = from_command(["text-generation-launcher"], env, "container")
    assert decl is not None
    assert (decl.gpu_memory_utilization, decl.max_seqs, decl.kv_cache_bytes) == (0.8, 32, 1)
    # The same names mean nothing to another engine.
    other = from_command(["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"], env, "c")
    assert other is not None and (other.gpu_memory_utilization, other.max_seqs) == (None, None)


def test_engine_sequence_caps_are_read() -> None:
    for flag in ("--max-num-seqs", "--max-running-requests", "--max-concurrent-requests"):
        decl = from_command(["vllm", "serve", "m/x-8b", flag, "16"], {}, "c")
        assert decl is not None and decl.max_seqs == 16


def test_a_memory_share_outside_zero_to_one_is_not_read() -> None:
    # vLLM's --gpu-memory-utilization is a fraction (0, 1]; "90" is not 90 %, and reading it
    # would make every model fit.
    decl = from_command(["vllm", "serve", "m/x-8b", "--gpu-memory-utilization", "90"], {}, "c")
    assert decl is not None and decl.gpu_memory_utilization is None
