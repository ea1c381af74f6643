"""The serving-command parser in facts/declared_model.py, one engine or argument form per test."""

from __future__ import annotations

import pytest

from gpulint.facts.model_decl import from_command, from_tags


def _cmd(*args: str, env: dict[str, str] | None = None):
    return from_command(list(args), env or {}, "container c")


def test_vllm_serve_positional_with_every_sizing_flag() -> None:
    d = _cmd("vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct", "--dtype", "bfloat16",
             "--tensor-parallel-size", "2", "--max-model-len", "16384",
             "--gpu-memory-utilization", "0.85")
    assert d is not None
    assert (d.id, d.precision, d.tensor_parallel, d.context, d.gpu_memory_utilization, d.server) \
        == ("meta-llama/Llama-3.1-8B-Instruct", "bf16", 2, 16384, 0.85, "vllm")
    assert d.source == "container c args"


def test_vllm_quantization_wins_over_dtype() -> None:
    d = _cmd("python3", "-m", "vllm.entrypoints.openai.api_server",
             "--model=TheBloke/Llama-2-13B-AWQ", "--dtype", "half", "--quantization", "awq")
    assert d is not None and d.id == "TheBloke/Llama-2-13B-AWQ" and d.precision == "awq"


def test_a_quantization_switch_that_is_off_is_no_precision() -> None:
    # JetStream's checkpoint converter (kubernetes-engine-samples, llm-serving-tpus-jetstream):
    # `-q=False` keeps the weights as they are.
    d = _cmd("convert", "-s=jetstream-pytorch", "-m=google/gemma-7b-it", "-q=False", "-h=True")
    assert d is not None and d.id == "google/gemma-7b-it" and d.precision is None
    d = _cmd("text-generation-launcher", "--model-id", "google/gemma-7b", "--quantize", "none")
    assert d is not None and d.precision is None


def test_python_dash_m_is_the_program_not_the_model() -> None:
    d = _cmd("python", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen2.5-14B-Instruct",
             "--tp", "2")
    assert d is not None
    assert (d.id, d.tensor_parallel, d.server) == ("Qwen/Qwen2.5-14B-Instruct", 2, "sglang")


def test_tgi_flags() -> None:
    d = _cmd("text-generation-launcher", "--model-id", "mistralai/Mistral-7B-Instruct-v0.3",
             "--quantize", "bitsandbytes-nf4", "--num-shard", "2", "--max-total-tokens", "4096")
    assert d is not None
    assert (d.id, d.precision, d.tensor_parallel, d.context, d.server) == (
        "mistralai/Mistral-7B-Instruct-v0.3", "nf4", 2, 4096, "text-generation-launcher")


def test_llama_cpp_server_dash_m_and_context() -> None:
    d = _cmd("llama-server", "-m", "/models/llama-3-8b-instruct.Q4_K_M.gguf", "-c", "8192")
    assert d is not None and d.id == "/models/llama-3-8b-instruct.Q4_K_M.gguf" and d.context == 8192


def test_kserve_model_id_and_storage_uri() -> None:
    d = _cmd("--model_name=chat", "--model_id=google/gemma-2-9b-it")
    assert d is not None and d.id == "google/gemma-2-9b-it"  # model_name is the served alias
    assert _cmd("--model_name=chat") is None
    d = _cmd("--storage-uri", "hf://google/gemma-2-9b-it")
    assert d is not None and d.id == "hf://google/gemma-2-9b-it"
    d = _cmd("--model_id", "google/gemma-2-9b-it", "--storage-uri", "hf://other/model")
    assert d is not None and d.id == "google/gemma-2-9b-it"


def test_shell_string_with_setup_steps() -> None:
    d = _cmd("sh", "-c", "pip install -q hf_transfer && vllm serve Qwen/Qwen2.5-7B-Instruct "
             "--max-model-len 8192")
    assert d is not None and d.id == "Qwen/Qwen2.5-7B-Instruct" and d.context == 8192


def test_bash_path_and_dash_c_is_not_the_context_flag() -> None:
    d = _cmd("/bin/bash", "-c", "exec vllm serve $MODEL --max-model-len 4096",
             env={"MODEL": "microsoft/phi-4"})
    assert d is not None and d.id == "microsoft/phi-4" and d.context == 4096


def test_kubernetes_var_reference_expands_from_env() -> None:
    d = _cmd("vllm", "serve", "$(MODEL_ID)", "--tensor-parallel-size", "$(TP)",
             env={"MODEL_ID": "Qwen/Qwen2.5-72B-Instruct", "TP": "4"})
    assert d is not None and d.id == "Qwen/Qwen2.5-72B-Instruct" and d.tensor_parallel == 4


def test_unset_reference_stays_visible_for_the_caller() -> None:
    d = _cmd("vllm", "serve", "$(SECRET_MODEL)")
    assert d is not None and d.id == "$(SECRET_MODEL)"


def test_model_from_env_when_args_name_none() -> None:
    d = _cmd("text-generation-launcher",
             env={"MODEL_ID": "bigcode/starcoder2-15b", "NUM_SHARD": "2"})
    assert d is not None and d.id == "bigcode/starcoder2-15b" and d.tensor_parallel == 2
    assert d.source == "container c env MODEL_ID"


@pytest.mark.parametrize("args", [[], ["nginx", "-g", "daemon off;"], ["python", "train.py"]])
def test_no_model(args: list[str]) -> None:
    assert _cmd(*args) is None


def test_tags_precision_and_purpose() -> None:
    d = from_tags({"gpulint.dev/model": "meta-llama/Llama-3.1-70B", "precision": "fp8",
                   "gpulint.dev/purpose": "lora"}, "label")
    assert d is not None and (d.id, d.precision, d.purpose, d.source) == (
        "meta-llama/Llama-3.1-70B", "fp8", "lora", "label gpulint.dev/model")


@pytest.mark.parametrize(("image", "server"), [
    ("vllm/vllm-openai:v0.8.5", "vllm"),
    ("docker.io/vllm/vllm-openai@sha256:0123abcd", "vllm"),
    ("ghcr.io/huggingface/text-generation-inference:3.0", "text-generation-launcher"),
    ("lmsysorg/sglang:latest", "sglang"),
    ("ghcr.io/ggerganov/llama.cpp:server", "llama-server"),
    ("ghcr.io/ggml-org/llama.cpp:server-cuda", "llama-server"),
    ("nvcr.io/nvidia/tritonserver:24.08-py3", "tritonserver"),
    ("registry.local:5000/vllm/vllm-openai", "vllm"),
    # llama.cpp's `full` and `light` images run other programs; unknown images name nothing.
    ("ghcr.io/ggml-org/llama.cpp:full-cuda", None),
    ("registry.example.com/ml/llm-server:1.4", None),
    ("myorg/vllm-openai-fork", None),
])
def test_server_from_an_image_given_only_args(image: str, server: str | None) -> None:
    d = from_command(["--model", "Qwen/Qwen2.5-7B-Instruct"], {}, "container c", image)
    assert d is not None and d.server == server


def test_command_names_the_server_before_the_image() -> None:
    d = from_command(["llama-server", "-m", "/m/Qwen2.5-7B-Instruct-Q4_K_M.gguf"], {}, "c",
                     "registry.example.com/base:1")
    assert d is not None and d.server == "llama-server"


def test_tensor_pipeline_and_data_parallelism_multiply() -> None:
    d = _cmd("vllm", "serve", "meta-llama/Llama-3.1-70B-Instruct",
             "-tp", "2", "-pp", "2", "-dp", "2")
    assert d is not None
    assert (d.tensor_parallel, d.pipeline_parallel, d.data_parallel) == (2, 2, 2)
    assert (d.gpus_per_replica, d.gpus_used) == (4, 8)
    long = _cmd("vllm", "serve", "m/x-7b", "--pipeline-parallel-size=4",
                "--data-parallel-size", "2")
    assert long is not None and (long.tensor_parallel, long.gpus_per_replica, long.gpus_used) \
        == (None, 4, 8)
    sglang = _cmd("python", "-m", "sglang.launch_server", "--model-path", "m/x-7b",
                  "--dp-size", "4")
    assert sglang is not None and sglang.gpus_used == 4 and sglang.parallel_declared
    assert not _cmd("vllm", "serve", "m/x-7b").parallel_declared  # type: ignore[union-attr]


def test_tags_declare_parallelism_and_say_when_they_cannot() -> None:
    d = from_tags({"gpulint.dev/model": "m/x-7b", "gpulint.dev/tensor-parallel": "2",
                   "data-parallel": 2}, "tag")
    assert d is not None and (d.tensor_parallel, d.data_parallel, d.gpus_used) == (2, 2, 4)
    assert d.source == "tag gpulint.dev/model, tag gpulint.dev/tensor-parallel, tag data-parallel"
    for bad in ("0", "two", True, 1.5):
        d = from_tags({"model": "m/x-7b", "tensor_parallel": bad}, "label")
        assert d is not None and not d.parallel_declared
        assert d.parallel_unknown is not None and "label tensor_parallel" in d.parallel_unknown
    plain = from_tags({"model": "m/x-7b"}, "tag")
    assert plain is not None and plain.parallel_unknown is None and not plain.parallel_declared
