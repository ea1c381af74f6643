"""Find the ML model a resource declares: serving-engine arguments, env vars, tags and labels."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any

MODEL_TAG_KEYS = ("gpulint.dev/model", "gpulint/model", "model", "model-id", "model_id",
                  "ml-model", "llm-model")
PRECISION_TAG_KEYS = ("gpulint.dev/precision", "precision", "model-precision", "dtype")
PURPOSE_TAG_KEYS = ("gpulint.dev/purpose",)
MODEL_ENV_VARS = ("HF_MODEL_ID", "MODEL_ID", "MODEL_NAME", "MODEL", "MODEL_PATH", "LLM_MODEL",
                  "SERVED_MODEL", "HUGGING_FACE_MODEL")

# Flags naming the model, in priority order: vLLM, TGI, SGLang, KServe huggingface, llama.cpp,
# Triton (--load-model) and KServe's storageUri (passed as --storage-uri by the fact builder).
# (--model-name / --served-model-name are the name clients use, not the weights, so not read.)
_MODEL_FLAGS = ("--model", "--model-id", "--model_id", "--model-path", "--model_path", "-m",
                "--load-model", "--storage-uri")
_PRECISION_FLAGS = ("--quantization", "--quantize", "--dtype", "-q", "--torch-dtype")
_TP_FLAGS = ("--tensor-parallel-size", "-tp", "--tp", "--tp-size", "--num-shard")
_CONTEXT_FLAGS = ("--max-model-len", "--max-total-tokens", "--context-length", "--ctx-size", "-c",
                  "--max-seq-len")
_UTIL_FLAGS = ("--gpu-memory-utilization", "--mem-fraction-static")
_SHELLS = ("sh", "bash", "dash", "zsh", "ash")
_SERVER_COMMANDS = ("vllm", "text-generation-launcher", "sglang", "llama-server", "llama.cpp",
                    "tritonserver", "lmdeploy", "ollama")


@dataclass(frozen=True)
class ModelDecl:
    id: str
    source: str  # where it was declared, for the report
    precision: str | None = None
    tensor_parallel: int | None = None
    context: int | None = None
    gpu_memory_utilization: float | None = None
    purpose: str | None = None
    server: str | None = None  # serving engine seen in the command



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
            return ModelDecl(value.strip(), f"{what} {key}", precision, purpose=purpose)
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
    token = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m: env.get(m.group(1), m.group(0)), token)
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), m.group(0)), token)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def from_command(command: list[str], env: dict[str, str], what: str) -> ModelDecl | None:
    """Read a model server's command line (list form or a single shell string)."""
    tokens = [_expand_env(t, env) for t in _split_args(command)]
    flags: dict[str, str] = {}
    positional_model: str | None = None
    server = next((s for s in _SERVER_COMMANDS if any(s in t for t in tokens)), None)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        prev = tokens[i - 1].rsplit("/", 1)[-1] if i > 0 else ""
        if tok == "-c" and prev in _SHELLS:
            pass  # `sh -c "…"`: the script follows, already split into tokens
        elif tok == "-m" and prev.startswith("python"):
            i += 1  # `python -m module`: the module is the program, not a model
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
            model, source = env[var], f"{what} env {var}"
    if not model:
        return None
    precision = next((flags[f] for f in _PRECISION_FLAGS if flags.get(f)), None)
    if precision in {"auto", None}:
        precision = env.get("DTYPE") or env.get("QUANTIZE") or None
    util = next((flags[f] for f in _UTIL_FLAGS if flags.get(f)), None)
    try:
        util_f = float(util) if util else None
    except ValueError:
        util_f = None
    return ModelDecl(
        id=model, source=source, precision=precision,
        tensor_parallel=_int(next((flags[f] for f in _TP_FLAGS if flags.get(f)), None)
                             or next((env[v] for v in TP_ENV_VARS if env.get(v)), None)),
        context=_int(next((flags[f] for f in _CONTEXT_FLAGS if flags.get(f)), None)
                     or env.get("MAX_MODEL_LEN") or env.get("MAX_TOTAL_TOKENS")),
        gpu_memory_utilization=util_f, server=server,
    )
