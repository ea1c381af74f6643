from __future__ import annotations

import pytest

from gpulint.sizing.estimate import (
    CUDA_CONTEXT_GIB,
    DEFAULT_CONCURRENCY,
    GIB,
    Estimate,
    estimate_inference,
    estimate_training,
    fits,
    kv_bytes_per_token,
    min_gpus,
)
from gpulint.sizing.model_catalog import ModelInfo, resolve
from gpulint.sizing.precision import bits_per_param, normalize_precision

GB = 1e9  # vendors and papers quote decimal GB


def model(name: str) -> ModelInfo:
    info = resolve(name)
    assert info is not None, name
    return info


# ------------------------------------------------------------ precisions

@pytest.mark.parametrize("raw,canon", [
    ("bf16", "bf16"), ("bfloat16", "bf16"), ("torch.bfloat16", "bf16"),
    ("FP16", "fp16"), ("float16", "fp16"), ("half", "fp16"), ("F16", "fp16"),
    ("float32", "fp32"), ("fp8", "fp8"), ("fp8_e4m3", "fp8"), ("int8", "int8"),
    ("w8a8", "int8"), ("awq", "awq"), ("awq_marlin", "awq"), ("GPTQ", "gptq"),
    ("int4", "int4"), ("bitsandbytes", "nf4"), ("bnb-4bit", "nf4"), ("nf4", "nf4"),
    ("Q4_K_M", "q4_k_m"), ("q8_0", "q8_0"), ("Q2_K", "q2_k"), ("mxfp4", "mxfp4"),
    ("auto", None), ("", None), (None, None), ("banana", None),
])
def test_normalize_precision(raw: str | None, canon: str | None) -> None:
    assert normalize_precision(raw) == canon


def test_bits_per_param() -> None:
    assert bits_per_param("fp32") == 32
    assert bits_per_param("bf16") == 16
    assert bits_per_param("fp8") == 8
    # int4 with an fp16 scale + fp16 zero per 128-weight group: 4.25 bits
    assert bits_per_param("awq") == pytest.approx(4.25)
    # QLoRA paper (Dettmers et al. 2023): NF4 + double quant ~4.127 bits
    assert bits_per_param("nf4") == pytest.approx(4.127)
    # llama.cpp tools/quantize/README.md, Llama 2 7B table: Q4_K_M 4.84 bpw
    assert bits_per_param("q4_k_m") == pytest.approx(4.84)
    # ggml block layout: 32 int8 + one fp16 scale -> 8.5 bits
    assert bits_per_param("q8_0") == pytest.approx(8.5)
    with pytest.raises(ValueError):
        bits_per_param("banana")


# ------------------------------------------------------------ weights

def test_llama2_7b_fp16_weights() -> None:
    # 6.74B params x 2 bytes = 13.48 GB, the figure quoted for Llama-2-7B in
    # fp16 (e.g. Hugging Face / NVIDIA serving guides: "~13.5 GB").
    e = estimate_inference(model("llama-2-7b"), "fp16", 4096, 1)
    assert e.components["weights"] * GIB == pytest.approx(13.5 * GB, rel=0.01)


def test_quantised_weights_are_smaller() -> None:
    m = model("TheBloke/Llama-2-7B-Chat-GPTQ")
    e = estimate_inference(m, context_tokens=4096, concurrency=1)
    assert e.inputs["precision"] == "gptq"  # implied by the name
    # 6.74B x 4.25 bits = 3.58 GB
    assert e.components["weights"] * GIB == pytest.approx(3.58 * GB, rel=0.01)
    # an explicit precision beats the name
    assert estimate_inference(m, "fp16").inputs["precision"] == "fp16"


def test_mixtral_all_experts_resident() -> None:
    # Mixtral-8x7B: 46.7B total must be in memory although 12.9B are
    # active per token (Mixtral paper / HF blog: 47B total, 13B active).
    e = estimate_inference(model("mixtral-8x7b"), "bf16", 4096, 1)
    assert e.components["weights"] * GIB == pytest.approx(46.7e9 * 2, rel=0.01)
    assert not fits(e, 80, 1)          # 87 GiB of weights > one 80 GiB GPU
    assert fits(e, 80, 2)


# ------------------------------------------------------------ KV cache

def test_llama2_7b_kv_per_token_half_mib() -> None:
    # 2 (K,V) x 32 layers x 32 heads x 128 dim x 2 bytes = 0.5 MiB/token:
    # the figure in NVIDIA's "Mastering LLM Techniques: Inference
    # Optimization" blog (2023), which also gives ~2 GB for one 4k sequence.
    per_layer, layers, _ = kv_bytes_per_token(model("llama-2-7b"))
    assert per_layer * layers == 512 * 1024
    e = estimate_inference(model("llama-2-7b"), "fp16", 4096, 1)
    assert e.components["kv_cache"] == pytest.approx(2.0, rel=1e-9)


def test_llama3_70b_gqa_kv_per_token() -> None:
    # GQA with 8 KV heads: 2 x 80 x 8 x 128 x 2 bytes = 320 KiB per token.
    per_layer, layers, limit = kv_bytes_per_token(model("llama3:70b"))
    assert per_layer * layers == 320 * 1024
    assert limit == 8


def test_deepseek_v3_mla_kv_per_token() -> None:
    # MLA caches kv_lora_rank 512 + qk_rope_head_dim 64 per layer
    # (DSV3 config_671B.json): 61 x 576 x 2 bytes = 70,272 bytes.
    per_layer, layers, limit = kv_bytes_per_token(model("deepseek-v3"))
    assert per_layer * layers == 61 * 576 * 2
    assert limit == 1  # the latent is replicated on every TP rank
    # ~28x smaller than it would be as 128 full-width MHA heads
    assert per_layer * layers < 2 * 61 * 128 * 128 * 2 / 25


def test_fp8_kv_cache_halves_kv() -> None:
    m = model("llama3.1:8b")
    a = estimate_inference(m, "bf16", 8192, 4)
    b = estimate_inference(m, "bf16", 8192, 4, kv_cache_dtype="fp8")
    assert b.components["kv_cache"] == pytest.approx(a.components["kv_cache"] / 2)


def test_kv_cache_ignores_weight_quantisation() -> None:
    m = model("llama3.1:8b")
    a = estimate_inference(m, "bf16", 8192, 4)
    b = estimate_inference(m, "awq", 8192, 4)
    assert a.components["kv_cache"] == b.components["kv_cache"]


def test_sliding_window_every_layer_caps_kv() -> None:
    # Mistral-7B-v0.1 windows every layer at 4096 tokens
    m = model("mistral-7b")
    at_4k = estimate_inference(m, "bf16", 4096, 1).components["kv_cache"]
    at_32k = estimate_inference(m, "bf16", 32768, 1).components["kv_cache"]
    assert at_32k == pytest.approx(at_4k)


def test_sliding_window_alternating_layers() -> None:
    # Gemma 2 9B: 42 layers, half local (window 4096), 8 KV heads x 256.
    m = model("gemma2:9b")
    kv = estimate_inference(m, "bf16", 8192, 1).components["kv_cache"] * GIB
    per_layer = 2 * 8 * 256 * 2
    assert kv == 21 * 8192 * per_layer + 21 * 4096 * per_layer


def test_unknown_architecture_is_approximate() -> None:
    e = estimate_inference(model("acme/foo-7b"))
    assert e.approximate
    assert e.components["kv_cache"] > 0
    # the rule of thumb lands within 10% of Llama-3-8B's 128 KiB/token
    per_layer, layers, _ = kv_bytes_per_token(model("acme/foo-8b"))
    assert per_layer * layers == pytest.approx(128 * 1024, rel=0.10)
    assert not estimate_inference(model("llama3.1:8b")).approximate


def test_encoder_has_no_kv_cache() -> None:
    e = estimate_inference(model("bert-base-uncased"))
    assert e.components["kv_cache"] == 0
    assert e.inputs["concurrency"] == 1


# ------------------------------------------------------------ defaults

def test_defaults() -> None:
    e = estimate_inference(model("llama3.1:8b"))
    assert e.inputs["precision"] == "bf16"
    assert e.inputs["context_tokens"] == 8192  # 128k capped at 8k
    assert e.inputs["concurrency"] == DEFAULT_CONCURRENCY
    assert estimate_inference(model("llama-2-7b")).inputs["context_tokens"] == 4096
    # DeepSeek-V3 defaults to its released FP8 weights
    assert estimate_inference(model("deepseek-v3")).inputs["precision"] == "fp8"


def test_unrecognised_precision_is_noted() -> None:
    e = estimate_inference(model("llama3.1:8b"), "banana")
    assert e.inputs["precision"] == "bf16"
    assert e.approximate


# ------------------------------------------------------------ published fits

def test_llama2_70b_fp16_needs_two_80gb_gpus() -> None:
    # 70B x 2 bytes = 140 GB: more than one 80 GB GPU, fits on two.
    e = estimate_inference(model("llama2:70b"), "fp16", 4096, 1)
    assert min_gpus(e, 80) == 2


def test_gpt_oss_published_memory() -> None:
    # OpenAI's gpt-oss announcement (2025): gpt-oss-120b runs on a single
    # 80 GB GPU and gpt-oss-20b within 16 GB of memory (MXFP4 weights).
    big = estimate_inference(model("gpt-oss-120b"), context_tokens=8192, concurrency=1)
    assert big.inputs["precision"] == "mxfp4"
    assert fits(big, 80 * GB / GIB, 1)
    small = estimate_inference(model("gpt-oss-20b"), context_tokens=8192, concurrency=1)
    assert fits(small, 16 * GB / GIB, 1)
    # ...and would not in bf16
    assert not fits(estimate_inference(model("gpt-oss-120b"), "bf16", 8192, 1), 80, 1)


# Whisper README (openai/whisper, commit c0d2f624): "Required VRAM" per
# model. The reference code holds fp32 weights, so estimate at fp32 with
# one 448-token decoder stream. README figures are rounded ("~10 GB");
# tolerance: estimate between 60% and 125% of the figure.
@pytest.mark.parametrize("name,vram_gb", [
    ("whisper-tiny", 1), ("whisper-base", 1), ("whisper-small", 2),
    ("whisper-medium", 5), ("whisper-large-v3", 10), ("whisper-turbo", 6),
])
def test_whisper_required_vram(name: str, vram_gb: float) -> None:
    e = estimate_inference(model(name), "fp32", 448, 1)
    ratio = e.total_gib * GIB / (vram_gb * GB)
    assert 0.6 <= ratio <= 1.25, (name, e.total_gib, ratio)


# ------------------------------------------------------------ training

def test_full_finetune_16_bytes_per_param() -> None:
    # ZeRO paper (Rajbhandari et al. 2020, sec. 3.1): mixed-precision Adam
    # holds 2 + 2 + 12 = 16 bytes per parameter; a 7.5B model needs 120 GB
    # of model states.
    e = estimate_training(model("acme/gpt-7.5b"), "full")
    states = sum(v for k, v in e.components.items()
                 if k in ("weights", "gradients", "master_weights", "optimizer"))
    assert states * GIB == pytest.approx(120 * GB, rel=1e-9)


def test_qlora_65b_on_one_48gb_gpu() -> None:
    # QLoRA paper (Dettmers et al. 2023): a 65B model fine-tunes on a single
    # 48 GB GPU. Full fine-tuning or 16-bit LoRA of the same model cannot.
    m = model("huggyllama/llama-65b")
    gpu = 48 * GB / GIB
    assert fits(estimate_training(m, "qlora", seq_len=512), gpu, 1)
    assert not fits(estimate_training(m, "lora", seq_len=512), gpu, 1)
    assert not fits(estimate_training(m, "full", seq_len=512), gpu, 1)


def test_lora_adapter_fraction_and_checkpointing() -> None:
    m = model("llama-2-7b")
    lora = estimate_training(m, "lora")
    assert lora.components["adapters+optimizer"] * GIB == pytest.approx(m.params_total * 0.005 * 16)
    no_ckpt = estimate_training(m, "lora", gradient_checkpointing=False)
    assert no_ckpt.components["activations"] > 5 * lora.components["activations"]
    with pytest.raises(ValueError):
        estimate_training(m, "dpo")


def test_training_shards_states_but_not_activations() -> None:
    e = estimate_training(model("llama-2-7b"), "full", seq_len=4096, micro_batch=4)
    one = e.per_gpu_gib(1)
    eight = e.per_gpu_gib(8)
    act = e.components["activations"] + CUDA_CONTEXT_GIB
    assert eight == pytest.approx((one - act) / 8 + act)


# ------------------------------------------------------------ fits

def test_tensor_parallel_split_and_kv_replication() -> None:
    e = estimate_inference(model("llama3:70b"), "bf16", 8192, 8, tensor_parallel=4)
    assert not fits(e, 80, 1)
    assert not fits(e, 80, 2)
    assert fits(e, 80, 4)
    assert min_gpus(e, 80) == 4
    # total over 4 GPUs counts the CUDA context 4 times
    assert e.total_gib == pytest.approx(e.per_gpu_gib(4) * 4)
    # MQA (1 KV head): KV does not shrink with more GPUs
    g = estimate_inference(model("gemma-2b"), "bf16", 8192, 32)
    assert g.per_gpu_gib(2) - g.components["kv_cache"] == pytest.approx(
        (g.components["weights"] + g.components["activations"]) / 2 + CUDA_CONTEXT_GIB)


def test_fractional_gpu_and_headroom() -> None:
    e = Estimate(kind="inference", label="x", components={"weights": 10.0, "cuda_context": 0.5},
                 inputs={"precision": "bf16", "tensor_parallel": 1})
    assert fits(e, 24, 1)
    assert not fits(e, 24, 0.25)       # a quarter slice has 6 GiB
    assert fits(e, 24, 0.5)            # 12 GiB * 0.9 = 10.8 >= 10.5
    assert not fits(e, 11, 1)          # 11 * 0.9 = 9.9 < 10.5
    assert fits(e, 11, 1, headroom=1.0)
    assert not fits(e, 24, 0)
    gmu = Estimate(kind="inference", label="x", components={"weights": 10.0, "cuda_context": 0.5},
                   inputs={"precision": "bf16", "tensor_parallel": 1,
                           "gpu_memory_utilization": 0.4})
    assert not fits(gmu, 24, 1)        # vLLM capped at 40% = 9.6 GiB
    assert min_gpus(gmu, 24) == 2


def test_min_gpus_none_when_too_large() -> None:
    e = estimate_inference(model("deepseek-v3"), "bf16")
    assert min_gpus(e, 24, max_gpus=8) is None
    assert min_gpus(e, 80) == 32


# ------------------------------------------------------------ describe

def test_describe_states_inputs() -> None:
    e = estimate_inference(model("meta-llama/Llama-3.1-8B-Instruct"), "bf16", 8192, 16)
    assert e.describe() == ("Llama-3.1-8B, bf16, 8k context, 16 concurrent sequences: "
                            f"{e.total_gib:.1f} GiB")
    assert e.total_gib == pytest.approx(14.96 + 16.0 + 1.5 + 0.5, abs=0.05)
    approx = estimate_inference(model("acme/foo-7b"), context_tokens=4096, concurrency=1)
    assert approx.describe().endswith("GiB (approximate)")
    t = estimate_training(model("llama-2-7b"), "qlora")
    assert t.describe().startswith("Llama-2-7b-hf, nf4, QLoRA, seq 2k x batch 1: ")
    assert "inference" in estimate_inference(model("resnet50")).describe()
