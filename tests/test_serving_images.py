"""The model a serving container runs, named only by its image (NVIDIA NIM) or by the env var
its engine documents, reaches the model catalog, so fit, oversize and idle checks run."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.facts.model_decl import (
    declared_model,
    model_from_image,
    model_uri_name,
    server_from_image,
)
from gpulint.ruleset import load_rules
from gpulint.sizing import model_catalog

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "serving_images")


def _scan(name: str) -> pipeline.ScanResult:
    return pipeline.run([os.path.relpath(os.path.join(DATA, name))], load_rules(), Settings())


@pytest.mark.parametrize(("image", "model"), [
    ("nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3", "meta/llama-3.1-8b-instruct"),
    ("nvcr.io/nim/mistralai/mixtral-8x7b-instruct-v01:latest",
     "mistralai/mixtral-8x7b-instruct-v01"),
    ("NVCR.IO/nim/meta/llama3-8b-instruct@sha256:0123abcd", "meta/llama3-8b-instruct"),
    ("nvcr.io/nim/nvidia/llm-nim:1.12.0", None),  # the LLM-agnostic NIM: its env names it
    ("nvcr.io/nvidia/tritonserver:24.08-py3", None),  # not a NIM
    ("vllm/vllm-openai:v0.10.1", None),
    ("", None),
])
def test_the_model_of_a_nim_image(image: str, model: str | None) -> None:
    assert model_from_image(image) == model


def test_a_nim_image_names_its_engine() -> None:
    assert server_from_image("nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3") == "nim"


@pytest.mark.parametrize(("value", "name"), [
    ("hf://mistralai/Mistral-7B-Instruct-v0.3", "mistralai/Mistral-7B-Instruct-v0.3"),
    ("ngc://nim/meta/llama-3.1-8b-instruct:hf-8c22764-nim1.3b", "meta/llama-3.1-8b-instruct"),
    ("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct"),
    ("/models/llama", "/models/llama"),
])
def test_model_uris_name_the_model(value: str, name: str) -> None:
    assert model_uri_name(value) == name


def test_an_8b_nim_on_two_h100s_is_oversized() -> None:
    # Llama 3.1 8B has 8.03B parameters (meta-llama/Llama-3.1-8B-Instruct model card, Hugging
    # Face): about 16 GB of bf16 weights, far below two 80 GB H100s (NVIDIA H100 datasheet).
    result = _scan("nim-llama-8b.yaml")
    [res] = result.resources
    assert declared_model(res) is not None
    assert declared_model(res).id == "meta/llama-3.1-8b-instruct"
    assert declared_model(res).source == "container nim-llm image"
    assert res.facts.get("model.id") == "meta-llama/Llama-3.1-8B"
    assert res.facts.get("workload") == "inference"
    assert [f.rule for f in result.findings] == ["gpu-oversized-for-model"]
    # NIM picks the profile that spreads the model over the GPUs it sees: none idle.
    assert res.facts.get("sizing.idle_gpus") == 0


def test_the_llm_agnostic_nim_takes_its_model_from_the_env() -> None:
    [res] = _scan("nim-generic.yaml").resources
    assert declared_model(res) is not None
    assert declared_model(res).id == "mistralai/Mistral-7B-Instruct-v0.3"
    assert declared_model(res).source == "container nim env NIM_MODEL_NAME"
    assert res.facts.get("model.fits") is True


def test_tgi_takes_its_model_from_model_id() -> None:
    [res] = _scan("tgi-env.yaml").resources
    assert declared_model(res) is not None
    assert declared_model(res).id == "Qwen/Qwen2.5-7B-Instruct"
    assert declared_model(res).server == "text-generation-launcher"


def test_a_misspelt_nim_model_gets_the_catalogs_did_you_mean() -> None:
    # Llama 3.3 70B has 70.6B parameters (meta-llama/Llama-3.3-70B-Instruct model card): about
    # 141 GB in bf16, far above one 24 GB L4 (NVIDIA L4 datasheet).
    result = pipeline.run([os.path.relpath(os.path.join(DATA, "nim-typo.yaml"))], load_rules(),
                          Settings())
    [res] = result.resources
    decl = declared_model(res)
    assert decl is not None and decl.id == "meta/llama-3.3-70b-instrukt"
    [fit] = [f for f in result.findings if f.rule == "gpu-model-does-not-fit"]
    assert "'meta-llama/Llama-3.3-70B-Instruct': did you mean it?" in fit.message
    assert model_catalog.likely_typo(decl.id) == "meta-llama/Llama-3.3-70B-Instruct"
