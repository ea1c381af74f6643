"""Find the ML model a resource declares: serving-engine arguments, env vars, tags and labels."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from gpulint.fact_types import Resource
from gpulint.facts import training_args
from gpulint.sizing.engine_precision import engine_precision, kv_cache_bytes

MODEL_TAG_KEYS = ("gpulint.dev/model", "gpulint/model", "model", "model-id", "model_id",
                  "ml-model", "llm-model")
PRECISION_TAG_KEYS = ("gpulint.dev/precision", "precision", "model-precision", "dtype")
PURPOSE_TAG_KEYS = ("gpulint.dev/purpose",)
# Parallelism a tag or label can declare, for machines whose serving command is not in the code
# (GCP label keys allow neither '.' nor '/', hence the plain spellings).
PARALLEL_TAG_KEYS = {
    "tensor_parallel": ("gpulint.dev/tensor-parallel", "gpulint/tensor-parallel",
                        "tensor-parallel", "tensor_parallel"),
    "pipeline_parallel": ("gpulint.dev/pipeline-parallel", "gpulint/pipeline-parallel",
                          "pipeline-parallel", "pipeline_parallel"),
    "data_parallel": ("gpulint.dev/data-parallel", "gpulint/data-parallel",
                      "data-parallel", "data_parallel"),
}
# Env vars the engines document for the weights they load, first match wins: Hugging Face
# TGI's launcher reads every flag from the environment (MODEL_ID for --model-id, TGI launcher
# reference); HF_MODEL_ID is the Hugging Face inference containers' (SageMaker, Google DLC);
# NIM for LLMs takes NIM_MODEL_NAME (1.x, the LLM-agnostic NIM) or NIM_MODEL_PATH (2.x,
# `hf://meta-llama/Llama-3.1-8B-Instruct`, NIM "Environment Variables" reference); MODEL /
# MODEL_NAME are what vLLM and other serving images' entrypoint scripts commonly read.
MODEL_ENV_VARS = ("HF_MODEL_ID", "MODEL_ID", "NIM_MODEL_NAME", "NIM_MODEL_PATH", "MODEL_NAME",
                  "MODEL", "MODEL_PATH", "LLM_MODEL", "SERVED_MODEL", "HUGGING_FACE_MODEL")
# Where a model URI says the weights come from, not part of the model's name.
_MODEL_SCHEMES = ("hf://", "ngc://", "modelscope://")
# NVIDIA NIM: one image per model, nvcr.io/nim/<org>/<model>:<tag> (NIM for LLMs "Supported
# Models", e.g. nvcr.io/nim/meta/llama-3.1-8b-instruct:1.3.3); these repositories are the
# LLM-agnostic NIM, whose model comes from its env instead.
_NIM_REGISTRY = "nvcr.io/nim/"
_GENERIC_NIMS = frozenset({"llm-nim", "nim-llm"})

# Flags naming the model, in priority order: vLLM, TGI, SGLang, KServe huggingface, llama.cpp,
# Triton (--load-model) and KServe's storageUri (passed as --storage-uri by the fact builder).
# (--model-name / --served-model-name are the name clients use, not the weights, so not read.)
_MODEL_FLAGS = ("--model", "--model-id", "--model_id", "--model-path", "--model_path", "-m",
                "--load-model", "--storage-uri",
                # fine-tuning scripts: transformers/TRL, LLaMA-Factory; axolotl's override
                "--model_name_or_path", "--model-name-or-path", "--base_model", "--base-model")
_PRECISION_FLAGS = ("--quantization", "--quantize", "--dtype", "-q", "--torch-dtype")
# Values of those flags that switch quantization off (a converter's `-q=False`): no precision.
_NOT_QUANTIZED = frozenset({"false", "no", "none", "off", "0"})
_TP_FLAGS = ("--tensor-parallel-size", "-tp", "--tp", "--tp-size", "--num-shard")
# Pipeline and data parallelism: vLLM's long and short forms, and SGLang's --pp-size/--dp-size.
_PP_FLAGS = ("--pipeline-parallel-size", "-pp", "--pp-size")
_DP_FLAGS = ("--data-parallel-size", "-dp", "--dp-size")
_CONTEXT_FLAGS = ("--max-model-len", "--max-total-tokens", "--context-length", "--ctx-size", "-c",
                  "--max-seq-len")
# Share of GPU memory the engine may take (vLLM, SGLang, TGI) and its cap on sequences decoded
# at once; TGI reads each from the environment too (sizing/engine_memory.py cites the docs).
_UTIL_FLAGS = ("--gpu-memory-utilization", "--mem-fraction-static", "--cuda-memory-fraction")
_SEQS_FLAGS = ("--max-num-seqs", "--max-running-requests", "--max-concurrent-requests")
_TGI_ENV = {"util": "CUDA_MEMORY_FRACTION", "seqs": "MAX_CONCURRENT_REQUESTS",
            "kv": "KV_CACHE_DTYPE"}
# A dotted Python module name (`axolotl.cli.train`), which `-m` runs, unlike a model name.
_PY_MODULE = re.compile(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+")
_SHELLS = ("sh", "bash", "dash", "zsh", "ash")
_SERVER_COMMANDS = ("vllm", "text-generation-launcher", "sglang", "llama-server", "llama.cpp",
                    "tritonserver", "lmdeploy", "ollama")
# Serving-engine images whose entrypoint is the server, so a container that gives only args
# still names its engine. Matched on the repository (registry and tag stripped); llama.cpp
# publishes several images under one repository and only the `server` tags run llama-server.
_SERVER_IMAGES = (("vllm/vllm-openai", "vllm"), ("rocm/vllm", "vllm"),
                  ("huggingface/text-generation-inference", "text-generation-launcher"),
                  ("lmsysorg/sglang", "sglang"), ("nvidia/tritonserver", "tritonserver"),
                  ("openmmlab/lmdeploy", "lmdeploy"), ("ollama/ollama", "ollama"))
_GOOGLE_TGI_DLC = "huggingface-text-generation-inference-"
_LLAMA_CPP_IMAGES = ("ggerganov/llama.cpp", "ggml-org/llama.cpp")


@dataclass(frozen=True)
class ModelDecl:
    id: str
    source: str  # where it was declared, for the report
    precision: str | None = None
    tensor_parallel: int | None = None
    context: int | None = None
    gpu_memory_utilization: float | None = None
    purpose: str | None = None
    server: str | None = None  # serving engine seen in the command or the image
    kv_cache_bytes: float | None = None  # --kv-cache-dtype: 1 for fp8, None for the model dtype
    sharded: str | None = None  # fine-tuning state sharded over the group: "fsdp" | "zero3"
    pipeline_parallel: int | None = None
    data_parallel: int | None = None
    parallel_unknown: str | None = None  # why a declared parallelism could not be read
    four_bit: bool = False  # fine-tuning asks for a 4-bit loader (QLoRA is not ruled out)
    nodes: int | None = None  # hosts a training launcher spreads one model over
    max_seqs: int | None = None  # --max-num-seqs / --max-running-requests / TGI's limit

    @property
    def parallel_declared(self) -> bool:
        return any((self.tensor_parallel, self.pipeline_parallel, self.data_parallel))

    @property
    def gpus_per_replica(self) -> int:
        """GPUs one copy of the model is split over: tensor × pipeline parallelism."""
        return (self.tensor_parallel or 1) * (self.pipeline_parallel or 1)

    @property
    def gpus_used(self) -> int:
        """GPUs the server uses: tensor × pipeline × data parallelism (unset ones count 1)."""
        return self.gpus_per_replica * (self.data_parallel or 1)


# The model each resource declares, from its builder or the configured `models:`, for the
# derivers and the report: a value of the fact-building stage, not a fact (rules read what the
# fit deriver makes of it).
_DECLARED: WeakKeyDictionary[Resource, ModelDecl] = WeakKeyDictionary()


def declared_model(res: Resource) -> ModelDecl | None:
    return _DECLARED.get(res)


def declare(res: Resource, decl: ModelDecl | None) -> None:
    if decl is None:
        _DECLARED.pop(res, None)
    else:
        _DECLARED[res] = decl


def _repository(image: str) -> tuple[str, str]:
    """(repository, tag) of an image reference, lower-case repository; a digest pins the
    same image."""
    name = image.strip().split("@", 1)[0]
    last = name.rsplit("/", 1)[-1]
    repo, tag = (name.rsplit(":", 1) if ":" in last else (name, ""))
    return repo.lower(), tag


def model_from_image(image: Any) -> str | None:
    """The model a model-specific NIM image serves (`meta/llama-3.1-8b-instruct`), else None."""
    if not isinstance(image, str) or not image.strip():
        return None
    repo, _ = _repository(image)
    if not repo.startswith(_NIM_REGISTRY):
        return None
    parts = repo[len(_NIM_REGISTRY):].split("/")
    if len(parts) < 2 or not all(parts) or parts[-1] in _GENERIC_NIMS:
        return None
    return "/".join(parts)


def model_uri_name(value: str) -> str:
    """A model name from a model URI: `hf://org/name` → `org/name`; NGC's
    `ngc://nim/meta/llama-3.1-8b-instruct:0.11` → `meta/llama-3.1-8b-instruct`."""
    text = value.strip()
    for scheme in _MODEL_SCHEMES:
        if text.lower().startswith(scheme):
            text = text[len(scheme):]
            if scheme == "ngc://":
                text = text.removeprefix("nim/").split(":", 1)[0]
            break
    return text


def server_from_image(image: Any) -> str | None:
    """The serving engine an image runs as its entrypoint, or None when the image is not one
    of the known serving images."""
    if not isinstance(image, str) or not image.strip():
        return None
    repo, tag = _repository(image)
    if repo.startswith(_NIM_REGISTRY):
        return "nim"
    for suffix, server in _SERVER_IMAGES:
        if repo == suffix or repo.endswith("/" + suffix):
            return server
    # Google's Hugging Face DLCs put the CUDA and Python versions in the repository name
    # (deeplearning-platform-release/gcr.io/huggingface-text-generation-inference-cu121.2-2…).
    if "/deeplearning-platform-release/" in repo \
            and repo.rsplit("/", 1)[-1].startswith(_GOOGLE_TGI_DLC):
        return "text-generation-launcher"
    if any(repo == r or repo.endswith("/" + r) for r in _LLAMA_CPP_IMAGES) \
            and tag.lower().startswith("server"):
        return "llama-server"
    return None


def _parallel_tags(tags: dict[str, Any], what: str) -> tuple[dict[str, int], list[str], str | None]:
    """Parallelism from tags: the sizes read, the keys they came from, and why one could not be
    read (else None)."""
    sizes: dict[str, int] = {}
    used: list[str] = []
    for field, keys in PARALLEL_TAG_KEYS.items():
        key = next((k for k in keys if k in tags), None)
        if key is None:
            continue
        value = tags[key]
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            why = getattr(value, "reason", None)
            return sizes, used, f"{what} {key}: " + (why or f"{value!r} is not a whole number")
        n = _int(str(value).strip())
        if n is None or n < 1:
            return sizes, used, f"{what} {key} = {value!r} is not a whole number of at least 1"
        sizes[field] = n
        used.append(f"{what} {key}")
    return sizes, used, None



# Env vars that set the tensor-parallel degree: TGI's NUM_SHARD, and SageMaker's LLM containers
# (SM_NUM_GPUS for Hugging Face TGI, OPTION_TENSOR_PARALLEL_DEGREE for LMI/DJL).
TP_ENV_VARS = ("NUM_SHARD", "SM_NUM_GPUS", "OPTION_TENSOR_PARALLEL_DEGREE")

def from_tags(tags: dict[str, Any], what: str) -> ModelDecl | None:
    for key in MODEL_TAG_KEYS:
        value = tags.get(key)
        if isinstance(value, str) and value.strip():
            precision = next((tags[k] for k in PRECISION_TAG_KEYS
                              if isinstance(tags.get(k), str)), None)
            purpose = next((tags[k] for k in PURPOSE_TAG_KEYS
                            if isinstance(tags.get(k), str)), None)
            sizes, used, why = _parallel_tags(tags, what)
            return ModelDecl(value.strip(), ", ".join([f"{what} {key}", *used]), precision,
                             purpose=purpose,
                             parallel_unknown=why, **sizes)  # type: ignore[arg-type]
    return None


def _split_args(args: list[str]) -> list[str]:
    """Flatten `sh -c "vllm serve …"` strings into tokens."""
    out: list[str] = []
    for arg in args:
        if " " in arg.strip():
            try:
                out.extend(shlex.split(arg))
            except ValueError:
                out.extend(arg.split())
        else:
            out.append(arg)
    return out


def _expand_env(token: str, env: dict[str, str]) -> str:
    # Kubernetes substitutes $(VAR) from the container's env; shells substitute $VAR / ${VAR}.
    def value(m: re.Match[str]) -> str:
        return env.get(m.group(1), m.group(0))

    token = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", value, token)
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", value, token)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def from_command(command: list[str], env: dict[str, str], what: str,
                 image: str | None = None) -> ModelDecl | None:
    """Read a model server's command line (list form or a single shell string); `image` names
    the engine when the command does not (a serving image given only args)."""
    tokens = [_expand_env(t, env) for t in _split_args(command)]
    flags: dict[str, str] = {}
    positional_model: str | None = None
    server = next((s for s in _SERVER_COMMANDS if any(s in t for t in tokens)), None) \
        or server_from_image(image)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        prev = tokens[i - 1].rsplit("/", 1)[-1] if i > 0 else ""
        if tok == "-c" and prev in _SHELLS:
            pass  # `sh -c "…"`: the script follows, already split into tokens
        elif tok == "-m" and (prev.startswith("python") or (
                i + 1 < len(tokens) and _PY_MODULE.fullmatch(tokens[i + 1]))):
            i += 1  # `python -m module`, `accelerate launch -m axolotl.cli.train`: the program
        elif tok in {"&&", "||", ";", "|"}:
            pass
        elif tok.startswith("-"):
            name, eq, value = tok.partition("=")
            if not eq and i + 1 < len(tokens) and not tokens[i + 1].startswith("-"):
                value = tokens[i + 1]
                i += 1
            flags.setdefault(name, value)
        elif tok == "serve" and i > 0 and tokens[i - 1].endswith("vllm") and i + 1 < len(tokens) \
                and not tokens[i + 1].startswith("-"):
            positional_model = tokens[i + 1]
            i += 1
        i += 1
    model = positional_model or next((flags[f] for f in _MODEL_FLAGS if flags.get(f)), None)
    source = f"{what} args"
    if model is None or model.startswith("$"):
        # An unset reference stays as written, so the caller can say it could not be resolved.
        var = next((v for v in MODEL_ENV_VARS if env.get(v)), None)
        if var:
            model, source = model_uri_name(env[var]), f"{what} env {var}"
    if not model:
        return None
    precision = next((flags[f] for f in _PRECISION_FLAGS if flags.get(f)), None)
    if str(precision).lower() in _NOT_QUANTIZED:  # `-q=False`: a switch that is off
        precision = None
    if precision in {"auto", None}:
        # TGI reads its flags from the environment too; QUANTIZE decides the weights over DTYPE.
        precision = env.get("QUANTIZE") or env.get("DTYPE") or None
    precision = engine_precision(server, precision)
    tgi = server == "text-generation-launcher"
    kv_dtype = flags.get("--kv-cache-dtype") or (env.get(_TGI_ENV["kv"]) if tgi else None)
    training = training_args.read(tokens, flags)
    if training.read_from:
        source += f"; {training.method or 'sharding'} from " + ", ".join(training.read_from)
    if training.nodes_from and (training.nodes or 0) > 1:
        source += f"; {training.nodes} hosts from {training.nodes_from}"
    util = next((flags[f] for f in _UTIL_FLAGS if flags.get(f)), None) \
        or (env.get(_TGI_ENV["util"]) if tgi else None)
    seqs = next((flags[f] for f in _SEQS_FLAGS if flags.get(f)), None) \
        or (env.get(_TGI_ENV["seqs"]) if tgi else None)
    try:
        util_f = float(util) if util else None
    except ValueError:
        util_f = None
    if util_f is not None and not 0 < util_f <= 1:
        util_f = None  # a share outside (0, 1] is refused by the engines; their default stands
    return ModelDecl(
        id=model, source=source, precision=precision,
        tensor_parallel=_int(next((flags[f] for f in _TP_FLAGS if flags.get(f)), None)
                             or next((env[v] for v in TP_ENV_VARS if env.get(v)), None)),
        context=_int(next((flags[f] for f in _CONTEXT_FLAGS if flags.get(f)), None)
                     or env.get("MAX_MODEL_LEN") or env.get("MAX_TOTAL_TOKENS")),
        gpu_memory_utilization=util_f, server=server,
        pipeline_parallel=_int(next((flags[f] for f in _PP_FLAGS if flags.get(f)), None)),
        data_parallel=_int(next((flags[f] for f in _DP_FLAGS if flags.get(f)), None)),
        kv_cache_bytes=kv_cache_bytes(kv_dtype),
        purpose=training.method, sharded=training.sharded, four_bit=training.four_bit,
        nodes=training.nodes, max_seqs=_int(seqs),
    )
