from __future__ import annotations

import csv
import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gpulint.sizing import estimate as sizing
from gpulint.sizing import model_catalog as models
from gpulint.sizing.model_catalog import MOE_FFN_FRACTION, ModelInfo, catalog_metadata, resolve

ROOT = Path(__file__).resolve().parent.parent
RAW_CSV = Path("/work/shared/data/models/models.csv")


# ---------------------------------------------------------------- catalog

def test_catalog_metadata_has_sources_with_commits() -> None:
    meta = catalog_metadata()
    assert meta["schema_version"] == 1
    assert len(meta["snapshot_date"]) == 10
    keys = {s["key"] for s in meta["sources"]}
    assert {"KH:<preset>", "DSV3", "WHISPER"} <= keys
    assert all(len(s["commit"]) == 40 for s in meta["sources"] if s["key"] != "URLs")


@pytest.mark.skipif(not RAW_CSV.exists(), reason="raw models.csv not available")
def test_catalog_is_up_to_date_with_csv(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "build_model_catalog.py"
    shipped = json.loads((ROOT / "src/gpulint/data/model_catalog.json").read_text())
    out = tmp_path / "cat.json"
    args = [sys.executable, str(script), "--out", str(out),
            "--snapshot-date", shipped["snapshot_date"]]
    subprocess.run(args, check=True, capture_output=True)
    assert out.read_text() == (ROOT / "src/gpulint/data/model_catalog.json").read_text()
    # deterministic: a second run gives identical bytes
    subprocess.run(args, check=True, capture_output=True)
    assert out.read_text() == (ROOT / "src/gpulint/data/model_catalog.json").read_text()


@pytest.mark.skipif(not RAW_CSV.exists(), reason="raw models.csv not available")
def test_build_refuses_below_row_floor(tmp_path: Path) -> None:
    small = tmp_path / "models.csv"
    with RAW_CSV.open(newline="") as src, small.open("w", newline="") as dst:
        rows = list(csv.reader(src))
        csv.writer(dst).writerows(rows[:20])
    out = tmp_path / "cat.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts/build_model_catalog.py"), "--csv", str(small),
         "--readme", str(RAW_CSV.with_name("README.md")), "--out", str(out)],
        capture_output=True, text=True)
    assert proc.returncode == 2
    assert not out.exists()


@pytest.mark.skipif(not RAW_CSV.exists(), reason="raw models.csv not available")
def test_every_csv_name_resolves_to_its_row() -> None:
    with RAW_CSV.open(newline="") as fh:
        for row in csv.DictReader(fh):
            if not row["params_total"]:
                continue
            for name in [row["canonical_id"], *row["aliases"].split(";")]:
                info = resolve(name)
                assert info is not None and info.id == row["canonical_id"], name


# ---------------------------------------------------------------- aliases

@pytest.mark.parametrize("name", [
    "meta-llama/Llama-3.1-8B",
    "meta-llama/llama-3.1-8b-instruct",          # case
    "META-LLAMA/META-LLAMA-3.1-8B-INSTRUCT",
    "llama3.1:8b",                              # Ollama tag
    "LLAMA3.1:8B",
    "llama3.1:8b-instruct-q4_K_M",              # Ollama tag with quant
    "hf://meta-llama/Llama-3.1-8B-Instruct",
    "hf://meta-llama/Llama-3.1-8B-Instruct@main",
    "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct",
    "s3://models-bucket/meta-llama/Llama-3.1-8B-Instruct/",
    "gs://bucket/weights/llama-3.1-8b-instruct",
    "pvc://model-store/llama-3.1-8b",
    "meta-llama/Llama-3.1-8B:v2",               # container-style tag
    "hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4",  # org + quant suffixes
])
def test_llama31_8b_spellings(name: str) -> None:
    info = resolve(name)
    assert info is not None
    assert info.id == "meta-llama/Llama-3.1-8B"
    assert info.params_total == 8_030_261_248
    assert info.estimated is False
    assert info.source == "catalog"


@pytest.mark.parametrize("name,expected_id", [
    ("TheBloke/Llama-2-7B-Chat-GPTQ", "meta-llama/Llama-2-7b-hf"),
    ("TheBloke/Mistral-7B-Instruct-v0.2-GGUF", "mistralai/Mistral-7B-Instruct-v0.2"),
    ("mistral-7b-instruct-v0.2.Q4_K_M.gguf", "mistralai/Mistral-7B-Instruct-v0.2"),
    ("mixtral:8x7b", "mistralai/Mixtral-8x7B-v0.1"),
    ("gemma2:9b-instruct-q8_0", "google/gemma-2-9b"),
    ("whisper:large", "openai/whisper-large-v3"),
    ("ViT-B/32", "openai/clip-vit-base-patch32"),
    ("unsloth/llama-3-8b-bnb-4bit", "meta-llama/Meta-Llama-3-8B"),
    ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "Qwen/Qwen2.5-7B"),
    ("/mnt/models/Qwen2.5-7B-Instruct/", "Qwen/Qwen2.5-7B"),
])
def test_variant_names(name: str, expected_id: str) -> None:
    info = resolve(name)
    assert info is not None and info.id == expected_id


@pytest.mark.parametrize("name,precision", [
    ("TheBloke/Llama-2-7B-Chat-GPTQ", "gptq"),
    ("TheBloke/Llama-2-7B-Chat-AWQ", "awq"),
    ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "int8"),
    ("neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8", "fp8"),
    ("unsloth/llama-3-8b-bnb-4bit", "nf4"),
    ("llama3.1:8b-instruct-q4_K_M", "q4_k_m"),
    ("mistral-7b-instruct-v0.2.Q8_0.gguf", "q8_0"),
    ("meta-llama/Llama-3.1-8B-Instruct", None),
    ("TheBloke/Mistral-7B-Instruct-v0.2-GGUF", None),  # quant type not named
])
def test_implied_precision(name: str, precision: str | None) -> None:
    info = resolve(name)
    assert info is not None
    assert info.implied_precision == precision


def test_release_precision_from_notes() -> None:
    assert resolve("deepseek-ai/DeepSeek-V3").release_precision == "fp8"
    assert resolve("gpt-oss:20b").release_precision == "mxfp4"
    assert resolve("llama3.1:8b").release_precision is None


def test_model_info_is_frozen() -> None:
    info = resolve("gpt2")
    assert isinstance(info, ModelInfo)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.params_total = 1  # type: ignore[misc]


# ---------------------------------------------------------------- MoE

def test_moe_total_vs_active() -> None:
    m = resolve("mistralai/Mixtral-8x7B-Instruct-v0.1")
    assert m.params_total == 46_702_792_704  # all experts are resident
    assert m.params_active == 12_900_000_000
    assert m.is_moe
    q = resolve("Qwen/Qwen3-30B-A3B")
    assert q.params_total == 30_532_122_624 and q.params_active == 3_300_000_000
    assert not resolve("llama3.1:8b").is_moe


# ---------------------------------------------------------------- fallback

@pytest.mark.parametrize("name,total", [
    ("acme/foo-7b", 7_000_000_000),
    ("acme/Baz-70B-Instruct-AWQ", 70_000_000_000),
    ("acme/qwen-like-1.5B", 1_500_000_000),
    ("tiny-lm-350m", 350_000_000),
    ("hf://acme/coder-33b-instruct@v1", 33_000_000_000),
])
def test_size_from_name(name: str, total: int) -> None:
    info = resolve(name)
    assert info is not None
    assert info.params_total == total
    assert info.estimated is True
    assert info.source == "name"
    assert "estimated from name" in info.params_source
    assert info.num_layers is None


def test_size_from_name_keeps_quant_suffix() -> None:
    assert resolve("acme/Baz-70B-Instruct-AWQ").implied_precision == "awq"


def test_unknown_moe_name_is_not_n_times_m() -> None:
    info = resolve("acme/frontier-8x7B")
    assert info.estimated and info.arch_kind == "decoder-moe"
    # The documented rule must land near Mixtral-8x7B's real 46.7B total
    # (KH:mixtral_8_7b_en), not at the naive 8 * 7 = 56B.
    assert info.params_total == pytest.approx(46.7e9, rel=0.05)
    assert info.params_total < 56e9
    assert info.params_total == int(7e9 * (1 + 7 * MOE_FFN_FRACTION))
    # top-2 active: Mixtral's 12.9B within 5%
    assert info.params_active == pytest.approx(12.9e9, rel=0.05)


def test_active_params_from_name() -> None:
    info = resolve("acme/moe-57B-A14B")
    assert info.params_total == 57_000_000_000
    assert info.params_active == 14_000_000_000


def test_catalog_row_without_count_uses_alias_size() -> None:
    # phi-2 has shapes in the catalog but no published count; its Ollama
    # alias "phi:2.7b" supplies a nominal size.
    info = resolve("microsoft/phi-2")
    assert info.params_total == 2_700_000_000
    assert info.estimated is True
    assert info.num_layers == 32  # catalog shapes are kept


@pytest.mark.parametrize("name", [
    "", "   ", "somemodel", "llama3.1:latest", "microsoft/Phi-3.5-mini-instruct",
    "stabilityai/stable-diffusion-2-1", "32",
])
def test_nothing_learned_returns_none(name: str) -> None:
    assert resolve(name) is None


def test_never_zero_params() -> None:
    assert resolve("acme/model-0b") is None


@pytest.mark.parametrize("name", ["google/gemma-1.1-7b-it", "gemma-1.1-7b-it",
                                  "google/codegemma-7b", "google/codegemma-1.1-7b-it",
                                  "codegemma:7b"])
def test_gemma_variants_resolve_to_the_gemma_7b_row(name: str) -> None:
    # keras-team/keras-hub gemma presets: gemma_1.1_instruct_7b_en and the code_gemma 7b presets
    # have 8,537,680,896 parameters and 28 layers, like gemma_7b_en (16 KV heads of 256).
    info = models.resolve(name)
    assert info is not None and info.id == "google/gemma-7b" and not info.estimated
    assert info.params_total == 8_537_680_896
    assert (info.num_kv_heads, info.head_dim) == (16, 256)


@pytest.mark.parametrize("name", ["deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1"])
def test_deepseek_v3_family_is_sized_in_its_published_fp8(name: str) -> None:
    # deepseek-ai/DeepSeek-V3 README_WEIGHTS.md: the released config.json carries an FP8
    # quantization_config; R1 uses the same architecture and weight format.
    info = models.resolve(name)
    assert info is not None and info.release_precision == "fp8"
    assert sizing.estimate_inference(info).inputs["precision"] == "fp8"
    # Serving arguments still decide: a bf16 deployment is sized in bf16.
    assert sizing.estimate_inference(info, "bf16").inputs["precision"] == "bf16"


def test_declared_params_size_a_known_row_without_a_count() -> None:
    assert models.resolve("microsoft/Phi-3.5-mini-instruct") is None
    assert models.known_id("phi3.5-mini") == "microsoft/Phi-3.5-mini-instruct"
    info = models.resolve("microsoft/Phi-3.5-mini-instruct", params=3_821_079_552)
    assert info is not None and info.params_total == 3_821_079_552
    assert info.num_layers == 32 and info.params_precision == "declared"
