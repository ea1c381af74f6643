"""How a fine-tuning job's command line says what it trains: LoRA, QLoRA or all the weights.

Read from the trainers people run in containers: Hugging Face TRL/transformers scripts
(`--use_peft`, `--lora_r`, `--load_in_4bit`), LLaMA-Factory (`--finetuning_type lora`,
`--quantization_bit 4`), torchtune recipes and configs (`lora_finetune_distributed`,
`llama3_1/8B_qlora_single_device`), axolotl configs named after their method (`qlora.yml`),
and the sharding they use (FSDP, DeepSpeed ZeRO stage 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Flags whose presence alone means LoRA adapters (TRL / PEFT scripts).
_LORA_FLAGS = ("--use_peft", "--use-peft", "--lora_r", "--lora-r", "--lora_rank", "--lora-rank",
               "--lora_alpha", "--lora-alpha", "--peft", "--use_lora", "--use-lora")
# Flags that name the method (LLaMA-Factory --finetuning_type, others --train_type / --method).
_METHOD_FLAGS = ("--finetuning_type", "--finetuning-type", "--train_type", "--train-type",
                 "--peft_type", "--peft-type", "--tuning_method", "--tuning-method")
# 4-bit base weights: QLoRA when combined with adapters.
_FOUR_BIT_FLAGS = ("--load_in_4bit", "--load-in-4bit", "--use_4bit", "--use-4bit")
_BITS_FLAGS = ("--quantization_bit", "--quantization-bit", "--bits")
# Recipe and config names (torchtune, axolotl, LLaMA-Factory example files).
_QLORA_WORD = re.compile(r"(^|[^a-z])qlora([^a-z]|$)")
_LORA_WORD = re.compile(r"(^|[^a-z])lora([^a-z]|$)")
_FULL_WORD = re.compile(r"full_finetune|full-finetune|(^|[^a-z])full([^a-z]|$)")
_ZERO3 = re.compile(r"zero[-_ ]?3|zero[-_]?stage[-_]?3|(^|[^a-z0-9])z3([^a-z0-9]|$)|stage3")


# Launchers that start one training over several hosts: torchrun, accelerate, deepspeed.
_NODE_FLAGS = ("--nnodes", "--num_machines", "--num-machines", "--num_nodes", "--num-nodes")


@dataclass(frozen=True)
class TrainingArgs:
    method: str | None  # "lora" | "qlora" | "training" (all weights) | None: not said
    sharded: str | None  # "fsdp" | "zero3" | None
    read_from: tuple[str, ...]  # the flags and names that said so, for the report
    four_bit: bool = False  # a 4-bit loader is asked for (QLoRA's base weights)
    nodes: int | None = None  # hosts the launcher spreads one training over
    nodes_from: str | None = None  # the flag that said so


def launcher_nodes(flags: dict[str, str]) -> tuple[int | None, str | None]:
    """Hosts a launcher runs one training on (`torchrun --nnodes 2`, `accelerate launch
    --num_machines 2`, `deepspeed --num_nodes 2`); torchrun's elastic `1:4` counts its minimum."""
    for flag in _NODE_FLAGS:
        value = flags.get(flag, "").split(":", 1)[0]
        if value.isdigit() and int(value) >= 1:
            return int(value), f"{flag} {flags[flag]}"
    return None, None


def read(tokens: list[str], flags: dict[str, str]) -> TrainingArgs:
    """The fine-tuning method and sharding a command line declares."""
    said: list[str] = []
    lora = [f for f in _LORA_FLAGS if f in flags]
    said += lora
    named = next(((f, flags[f].lower()) for f in _METHOD_FLAGS if flags.get(f)), None)
    four_bit = [f for f in _FOUR_BIT_FLAGS if f in flags and flags[f].lower() not in
                ("false", "0", "no")]
    four_bit += [f"{f} 4" for f in _BITS_FLAGS if flags.get(f) == "4"]
    words = [t for t in tokens if not t.startswith("-") and ("/" in t or "_" in t or "." in t
                                                             or "lora" in t.lower())]
    method: str | None = None
    if named is not None:
        said.append(f"{named[0]} {named[1]}")
        method = "qlora" if named[1] == "qlora" else "lora" if "lora" in named[1] else \
            "training" if named[1] in ("full", "freeze") else None
    if method is None:
        qlora_word = next((w for w in words if _QLORA_WORD.search(w.lower())), None)
        lora_word = next((w for w in words if _LORA_WORD.search(w.lower())), None)
        full_word = next((w for w in words if _FULL_WORD.search(w.lower())), None)
        if qlora_word:
            method, said = "qlora", [*said, qlora_word]
        elif lora or lora_word:
            method = "lora"
            said += [lora_word] if lora_word and not lora else []
        elif full_word:
            method, said = "training", [*said, full_word]
    if method == "lora" and four_bit:
        method, said = "qlora", [*said, *four_bit]
    nodes, nodes_from = launcher_nodes(flags)
    return TrainingArgs(method, _sharding(tokens, flags), tuple(said), bool(four_bit), nodes,
                        nodes_from)


def _sharding(tokens: list[str], flags: dict[str, str]) -> str | None:
    if any(f in flags for f in ("--fsdp", "--use_fsdp", "--use-fsdp", "--fsdp_config")) \
            or any("lora_finetune_distributed" in t or "full_finetune_distributed" in t
                   for t in tokens):
        return "fsdp"  # torchtune's *_distributed recipes shard with FSDP
    deepspeed = flags.get("--deepspeed") or flags.get("--deepspeed_config_file") or ""
    if deepspeed and _ZERO3.search(deepspeed.lower()):
        return "zero3"
    if flags.get("--zero_stage") == "3" or flags.get("--zero-stage") == "3":
        return "zero3"
    return None
