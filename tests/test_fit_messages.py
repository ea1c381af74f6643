"""A "does not fit" message can never state a need that is not larger than what it says is
given, and a size read from a name alone is never a "does not fit"."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gpulint.derive import fit
from gpulint.derive.alternative import Context
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource, Unknown

MODELS = ["meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct",
          "Qwen/Qwen2.5-32B-Instruct", "mistralai/Mixtral-8x7B-Instruct-v0.1",
          "google/gemma-1.1-7b-it", "tiiuae/falcon-40b-instruct", "deepseek-ai/DeepSeek-R1",
          "acme/in-house-13b"]
PRECISIONS = [None, "bf16", "fp8", "awq", "nf4", "int8", "q4_k_m"]
# GPU memory figures of the catalog's GPUs (GiB): T4, L4, A10G, L40S, A100-40GB, A100-80GB, H100.
MEMORY = [15.0, 22.35, 22.35, 44.7, 40.0, 80.0, 80.0]


def _gpu_resource(mem: float, count: float) -> Resource:
    res = Resource("Deployment/llm/x", "Deployment", "x.yaml", 1, "kubernetes")
    res.facts.update({"gpu.model": "L4", "gpu.memory_gib": mem, "gpu.count": count,
                      "accelerator.kind": "gpu", "cost.hours": 730.0})
    return res


def _need_and_given(res: Resource) -> tuple[float, float]:
    minimum, provided = res.facts["model.minimum"], res.facts["explain.provided"]
    each = re.search(r"([\d.]+) GiB on each", minimum) or re.match(r"([\d.]+) GiB \(", minimum)
    need = float(each.group(1)) if each else float(re.search(r": ([\d.]+) GiB", minimum).group(1))
    return need, float(re.match(r"([\d.]+) GiB usable", provided).group(1))


@settings(max_examples=150, deadline=None)
@given(model=st.sampled_from(MODELS), precision=st.sampled_from(PRECISIONS),
       mem=st.sampled_from(MEMORY), count=st.sampled_from([0.5, 1, 2, 4, 8]),
       tp=st.sampled_from([None, 1, 2, 4, 8]), context=st.sampled_from([None, 2048, 32768]),
       server=st.sampled_from(["vllm", "sglang", "text-generation-launcher", None]))
def test_a_does_not_fit_message_states_a_need_above_what_is_given(
        model: str, precision: str | None, mem: float, count: float, tp: int | None,
        context: int | None, server: str | None) -> None:
    res = _gpu_resource(mem, count)
    decl = ModelDecl(model, "container args", precision, tensor_parallel=tp, context=context,
                     server=server)
    fit.apply(res, decl, Context())
    fits = res.facts.get("model.fits")
    if fits is False:
        need, given_gib = _need_and_given(res)
        assert need > given_gib, (res.facts["model.minimum"], res.facts["explain.provided"])
        assert res.facts["model.estimated"] is False  # never from a name alone
    if res.facts.get("model.estimated"):
        assert fits is not False


def test_a_close_call_is_could_not_evaluate() -> None:
    # Llama 3.1 8B in bf16 with one 8k sequence needs about 18.0 GiB (weights 15.0, KV 1.0,
    # activations and CUDA context); an A10G's 22.35 GiB at 75% is 16.8 GiB usable: 7% short,
    # within the default 10% margin, so too close to call; at 70% (15.6 GiB) it does not fit.
    res = _gpu_resource(22.35, 1)
    decl = ModelDecl("meta-llama/Llama-3.1-8B-Instruct", "args", "bf16",
                     gpu_memory_utilization=0.75)
    fit.apply(res, decl, Context())
    fits = res.facts["model.fits"]
    assert isinstance(fits, Unknown) and "too close for an estimate to decide" in fits.reason
    res = _gpu_resource(22.35, 1)
    fit.apply(res, ModelDecl(decl.id, "args", "bf16", gpu_memory_utilization=0.7), Context())
    assert res.facts["model.fits"] is False


def test_a_misspelt_catalog_name_is_sized_as_that_model_and_says_so() -> None:
    res = _gpu_resource(22.35, 1)
    fit.apply(res, ModelDecl("mistralai/Mistrl-7B-Instruct-v0.3", "args"), Context())
    assert "sized as 'mistralai/Mistral-7B-Instruct-v0.3': did you mean it?" in \
        res.facts["explain.model_label"]
    assert res.facts["model.id"] == "mistralai/Mistral-7B-Instruct-v0.3"
    res = _gpu_resource(22.35, 1)
    fit.apply(res, ModelDecl("acme/in-house-13b", "args"), Context())
    assert "typo" not in res.facts["explain.model_label"]


def test_a_different_version_is_not_a_typo() -> None:
    from gpulint.sizing.model_catalog import likely_typo

    assert likely_typo("microsoft/Phi-4-mini-instruct") is None  # a newer model, not a typo
    assert likely_typo("meta-llama/Llama-3.1-8B-Instuct") == "meta-llama/Llama-3.1-8B"
