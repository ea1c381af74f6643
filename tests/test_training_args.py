"""Fine-tuning method and sharding from trainers' command lines, as real jobs write them."""

from __future__ import annotations

import pytest

from gpulint.facts.model_decl import from_command

MODEL = "meta-llama/Llama-3.1-8B-Instruct"


@pytest.mark.parametrize(("command", "method", "sharded"), [
    # TRL's sft script: LoRA adapters through PEFT
    (["accelerate", "launch", "trl/scripts/sft.py", "--model_name_or_path", MODEL,
      "--use_peft", "--lora_r", "16", "--lora_alpha", "32"], "lora", None),
    # ... and QLoRA: the same with 4-bit base weights
    (["python", "sft.py", "--model_name_or_path", MODEL, "--use_peft", "--load_in_4bit"],
     "qlora", None),
    # LLaMA-Factory names the method; 4-bit quantization of the base makes it QLoRA
    (["llamafactory-cli", "train", "--model_name_or_path", MODEL, "--finetuning_type", "lora",
      "--quantization_bit", "4"], "qlora", None),
    (["llamafactory-cli", "train", "--model_name_or_path", MODEL, "--finetuning_type", "full",
      "--deepspeed", "examples/deepspeed/ds_z3_config.json"], "training", "zero3"),
    # torchtune: the recipe and config names say it; *_distributed recipes shard with FSDP
    (["tune", "run", "--nproc_per_node", "4", "lora_finetune_distributed", "--config",
      "llama3_1/8B_lora", "--model", MODEL], "lora", "fsdp"),
    (["tune", "run", "full_finetune_distributed", "--config", "llama3_1/8B_full",
      "--model", MODEL], "training", "fsdp"),
    # axolotl: the config file is named after its method
    (["accelerate", "launch", "-m", "axolotl.cli.train", "examples/llama-3/qlora.yml",
      "--base_model", MODEL], "qlora", None),
    # a plain serving command says nothing about training
    (["vllm", "serve", MODEL], None, None),
])
def test_method_and_sharding(command: list[str], method: str | None, sharded: str | None) -> None:
    decl = from_command(command, {}, "container trainer")
    assert decl is not None and decl.id == MODEL
    assert (decl.purpose, decl.sharded) == (method, sharded)
    if method:
        assert f"{method} from " in decl.source  # the report says which inputs were read


def test_model_name_is_not_the_served_name() -> None:
    # --model-name is what clients call the model, not its weights
    assert from_command(["python", "train.py", "--model-name", "my-bot"], {}, "c") is None
