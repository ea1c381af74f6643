"""KAITO preset names → the Hugging Face model each preset serves.

Source: kaito-project/kaito presets/workspace/models/supported_models.yaml at commit 0567d7f
(read 2026-11-24), the `version` URL of each preset. Since KAITO v0.9 a preset name may also be a
Hugging Face model id (`org/model`), which is taken as written.
"""

from __future__ import annotations

PRESETS_AS_OF = "2026-11-24"

KAITO_PRESETS: dict[str, str] = {
    "llama-3.1-8b-instruct": "meta-llama/Llama-3.1-8B-Instruct",
    "falcon-7b": "tiiuae/falcon-7b",
    "falcon-7b-instruct": "tiiuae/falcon-7b-instruct",
    "falcon-40b": "tiiuae/falcon-40b",
    "falcon-40b-instruct": "tiiuae/falcon-40b-instruct",
    "mistral-7b": "mistralai/Mistral-7B-v0.3",
    "mistral-7b-instruct": "mistralai/Mistral-7B-Instruct-v0.3",
    "phi-2": "microsoft/phi-2",
    "phi-3-mini-4k-instruct": "microsoft/Phi-3-mini-4k-instruct",
    "phi-3-mini-128k-instruct": "microsoft/Phi-3-mini-128k-instruct",
    "phi-3-medium-4k-instruct": "microsoft/Phi-3-medium-4k-instruct",
    "phi-3-medium-128k-instruct": "microsoft/Phi-3-medium-128k-instruct",
    "phi-3.5-mini-instruct": "microsoft/Phi-3.5-mini-instruct",
    "phi-4-mini-instruct": "microsoft/Phi-4-mini-instruct",
    "phi-4": "microsoft/phi-4",
    "qwen2.5-coder-7b-instruct": "Qwen/Qwen2.5-Coder-7B-Instruct",
    "qwen2.5-coder-32b-instruct": "Qwen/Qwen2.5-Coder-32B-Instruct",
    "deepseek-r1-distill-qwen-14b": "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B",
    "deepseek-r1-distill-llama-8b": "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
}


def model_of(preset: str) -> str | None:
    """The model id of a preset name; a Hugging Face id is its own model; None if unknown."""
    if "/" in preset:
        return preset
    return KAITO_PRESETS.get(preset.lower())
