"""`gpulint explain-model` through the CLI runner."""

from __future__ import annotations

import json

from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.pricing import catalog


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["explain-model", *args])
    return result.exit_code, result.stdout, result.stderr


def test_text_shows_estimate_breakdown_assumptions_and_options() -> None:
    code, out, _ = run("meta-llama/Llama-3.1-8B-Instruct")
    assert code == 0
    # The estimate line states its inputs.
    assert "Llama-3.1-8B, bf16, 8k context, 8 concurrent sequences: 25.0 GiB" in out
    for part in ("weights", "kv_cache", "activations", "cuda_context", "total"):
        assert f"  {part}" in out
    assert "context 8192 tokens: default, the model's maximum (131072) capped at 8192" in out
    assert "8 concurrent sequences: default" in out
    # One line per provider at least, with a monthly figure at 730 h.
    for provider in ("aws", "gcp", "azure"):
        assert f"\n  {provider} " in out
    assert "g6e.xlarge" in out and "/month" in out and "730 h/month" in out


def test_json_figures_are_consistent() -> None:
    code, out, _ = run("meta-llama/Llama-3.1-8B-Instruct", "--provider", "aws", "--region",
                       "us-east-1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    est = data["estimate"]
    assert abs(sum(est["components_gib"].values()) - est["total_gib"]) < 0.05
    assert est["inputs"]["context_tokens"] == 8192 and est["inputs"]["concurrency"] == 8
    assert list(data["options"]) == ["aws"]
    first = data["options"]["aws"][0]
    assert first["region"] == "us-east-1"
    price = catalog.price("aws", first["instance_type"], "us-east-1")
    assert price is not None and first["hourly_usd"] == price.ondemand
    assert first["monthly_usd"] == round(price.ondemand * 730, 2)
    hourly = [o["hourly_usd"] for o in data["options"]["aws"]]
    assert hourly == sorted(hourly)
    # Every option holds the estimate with 10% headroom.
    for o in data["options"]["aws"]:
        assert o["total_gpu_memory_gib"] * 0.9 >= est["total_gib"] - 0.5 * o["gpu_count"]


def test_declared_inputs_change_the_estimate_and_drop_the_default_notes() -> None:
    _, base, _ = run("Qwen/Qwen2.5-7B-Instruct", "--format", "json")
    code, out, _ = run("Qwen/Qwen2.5-7B-Instruct", "--precision", "fp8", "--context", "32768",
                       "--concurrency", "4", "--format", "json")
    assert code == 0
    small, big = json.loads(base), json.loads(out)
    assert big["estimate"]["inputs"]["precision"] == "fp8"
    weights = [m["estimate"]["components_gib"]["weights"] for m in (big, small)]
    assert weights[0] < weights[1]
    assert big["estimate"]["inputs"]["context_tokens"] == 32768
    assert not any(a.startswith(("context", "precision", "4 concurrent"))
                   for a in big["assumptions"])


def test_quantized_and_gguf_names_imply_their_precision() -> None:
    _, out, _ = run("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "--format", "json")
    data = json.loads(out)
    assert data["estimate"]["inputs"]["precision"] == "awq"
    assert "precision awq: implied by the name" in data["assumptions"]
    _, out, _ = run("/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "--format", "json")
    assert json.loads(out)["estimate"]["inputs"]["precision"] == "q4_k_m"


def test_tensor_parallel_only_lists_instances_with_that_many_gpus() -> None:
    code, out, _ = run("meta-llama/Llama-3.1-70B-Instruct", "--tensor-parallel", "4",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert "tensor parallel 4" in data["estimate"]["summary"]
    assert all(o["gpu_count"] >= 4 for found in data["options"].values() for o in found)


def test_training_purposes() -> None:
    _, full, _ = run("meta-llama/Llama-3.1-8B", "--purpose", "training", "--format", "json")
    _, qlora, _ = run("meta-llama/Llama-3.1-8B", "--purpose", "qlora", "--format", "json")
    f, q = json.loads(full), json.loads(qlora)
    assert "full fine-tune" in f["estimate"]["summary"]
    assert "QLoRA" in q["estimate"]["summary"]
    # 16 bytes per parameter of model state against 4-bit frozen weights.
    assert f["estimate"]["total_gib"] > 5 * q["estimate"]["total_gib"]


def test_estimated_model_says_so() -> None:
    code, out, _ = run("acme/support-bot-13b-chat", "--provider", "aws")
    assert code == 0
    assert "13B parameters (estimated from its name)" in out
    assert "(approximate)" in out


def test_current_only_leaves_out_previous_generation() -> None:
    _, out, _ = run("meta-llama/Llama-3.1-8B", "--provider", "gcp", "--top", "10",
                    "--format", "json")
    assert any(o["generation"] == "previous" for o in json.loads(out)["options"]["gcp"])
    _, out, _ = run("meta-llama/Llama-3.1-8B", "--provider", "gcp", "--top", "10",
                    "--current-only", "--format", "json")
    assert all(o["generation"] == "current" for o in json.loads(out)["options"]["gcp"])


def test_a_misspelt_model_is_sized_as_the_catalog_model_and_says_so() -> None:
    # One edit away (a typo in the variant): read as the catalog model, never silently.
    code, out, _ = run("meta-llama/Llama-3.1-8B-Instrct", "--provider", "aws", "--top", "1")
    assert code == 0
    assert "'meta-llama/Llama-3.1-8B-Instrct' is not in the model catalog: did you mean " \
        "'meta-llama/Llama-3.1-8B'? Sized as that model." in out
    assert "128k" not in out and "8k context" in out  # the catalog's context, not a 4k default


def test_a_name_close_to_catalog_names_is_not_sized_from_its_digits() -> None:
    # Two edits from Llama-3.1-8B-Instruct: its digits would give "8B", but the name is too close
    # to catalog names for that to be a safe reading.
    code, out, err = run("meta-llama/Lama-3.1-8B-Instrct")
    assert code == 2 and out == ""
    assert "could not evaluate: model 'meta-llama/Lama-3.1-8B-Instrct'" in err
    assert "did you mean 'meta-llama/Llama-3.1-8B'" in err


def test_unknown_model_exits_2_and_says_why() -> None:
    code, out, err = run("acme/unheard-of-model")
    assert code == 2 and out == ""
    assert "is not in the model catalog and its size cannot be read from its name" in err


def test_unknown_precision_and_region_are_usage_errors() -> None:
    code, _, err = run("meta-llama/Llama-3.1-8B", "--precision", "fp5")
    assert code == 2 and "unknown precision 'fp5'" in err
    code, _, err = run("meta-llama/Llama-3.1-8B", "--provider", "gcp", "--region", "us-east-1")
    assert code == 2 and "no gcp prices in region 'us-east-1'" in err


def test_registered_in_the_command_list() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert "explain-model" in result.stdout


def test_mla_cache_is_shown_whole_on_every_gpu() -> None:
    code, out, _ = run("deepseek-ai/DeepSeek-V3", "--provider", "aws", "--top", "1")
    assert code == 0
    assert "37B active per token" in out
    assert "precision fp8: the published weights" in out
    assert "kept whole on every GPU (MLA latent cache)" in out


def test_known_model_without_a_size_asks_for_params() -> None:
    code, _, err = run("microsoft/Phi-3.5-mini-instruct")
    assert code == 2
    assert "is in the model catalog, but without a published parameter count" in err
    assert "--params" in err and "did you mean" not in err
    code, out, _ = run("microsoft/Phi-3.5-mini-instruct", "--params", "3.821079552")
    assert code == 0 and "3.82B parameters" in out


def test_did_you_mean_never_suggests_the_name_typed() -> None:
    from gpulint.cli.explain import suggest

    assert suggest("microsoft/Phi-3.5-mini-instruct") != "microsoft/Phi-3.5-mini-instruct"
    assert suggest("microsoft/Phi-3.5-mini-instrct") == "microsoft/Phi-3.5-mini-instruct"


def test_deepseek_r1_default_is_its_published_fp8() -> None:
    code, out, _ = run("deepseek-ai/DeepSeek-R1", "--provider", "aws")
    assert code == 0
    assert "DeepSeek-R1, fp8," in out and "precision fp8: the published weights" in out


def test_each_inference_option_says_how_many_sequences_of_the_context_it_holds() -> None:
    from gpulint.sizing.estimate import (
        ACTIVATION_FRACTION,
        CUDA_CONTEXT_GIB,
    )
    code, out, _ = run("meta-llama/Llama-3.1-8B-Instruct", "--context", "131072",
                       "--concurrency", "1", "--top", "10", "--provider", "aws",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    # Llama-3.1-8B config.json: 32 layers, 8 KV heads of 128 → 128 KiB a token in 16 bits, 16 GiB
    # a 131072-token sequence; 8.03B parameters (model page) → 14.96 GiB of bf16 weights.
    weights, kv = 8.03e9 * 2 / 2**30, 2 * 32 * 8 * 128 * 2 * 131072 / 2**30
    other = weights * (1 + ACTIVATION_FRACTION) + CUDA_CONTEXT_GIB
    singles = [o for o in data["options"]["aws"] if o["gpu_count"] == 1]
    assert singles
    for o in singles:
        assert o["max_concurrency"] == int((o["gpu_memory_gib"] * 0.9 - other) // kv)
    text = run("meta-llama/Llama-3.1-8B-Instruct", "--provider", "aws")[1]
    assert " seqs" in text and "seqs: sequences of 8192 tokens" in text
    training = json.loads(run("meta-llama/Llama-3.1-8B-Instruct", "--purpose", "lora",
                              "--provider", "aws", "--format", "json")[1])
    assert all("max_concurrency" not in o for o in training["options"]["aws"])
