"""`gpulint init`: write a commented starter configuration."""

from __future__ import annotations

import os
import sys

import click

STARTER = """\
# Configuration for gpulint (docs/configuration.md). Command-line flags override these values.

# Exit 1 when a finding has this severity or worse: error, warning, info or never.
fail_on: warning

# Path globs that are not scanned, relative to this file (`*` also matches `/`).
exclude:
  - "**/.terraform/**"
  # - legacy/*

# Directories of your own rule files, relative to this file (docs/custom-rules.md).
# rules_dirs:
#   - policies/gpulint

# Per rule: false (off), a severity (error, warning, info), or a mapping.
rules:
  # gpu-notebook-without-shutdown: false
  gpu-training-on-demand:
    severity: warning
  # gpu-missing-cost-tags:
  #   options: {required: [team, project]}

# Cost-allocation tags (Kubernetes labels) every GPU resource must carry: one list for every
# provider, or per provider (aws, gcp, azure, kubernetes, default).
tags:
  required: [team, project, env]
  # patterns:             # tag → regular expression its value must match in full
  #   env: "dev|staging|prod"

# Region assumed when the code does not set one (prices differ by region).
# regions:
#   aws: us-east-1
#   gcp: us-central1
#   azure: eastus

# The model a resource serves or trains, when the code does not say (used for right-sizing).
# models:
#   - address: aws_instance.llm            # resource address or glob
#     model: meta-llama/Llama-3.1-8B-Instruct
#     precision: bf16
#     purpose: inference                   # inference, training, fine-tune, lora, qlora
#     tensor_parallel: 1                   # GPUs used: tensor × pipeline_parallel × data_parallel
#   - path: k8s/serving/*                  # or a path glob, relative to this file
#     model: mistralai/Mistral-7B-Instruct-v0.3

# Hours a month resources run (default 730), per workload or per resource address.
# usage_hours:
#   default: 730
#   by_workload: {notebook: 160, training: 300}
#   by_resource: {aws_instance.batch: 100}

# Negotiated prices: a YAML file relative to this file, or an inline mapping.
# pricing_overrides: pricing.yaml

# gpulint diff fails when a change adds more than this many dollars a month.
# thresholds:
#   max_increase_usd: 1000

# Suppression comments (gpulint:ignore <rule> -- <reason>) need a reason (docs/suppressions.md).
suppressions:
  require_reason: true
"""


@click.command()
@click.option("--path", "path", type=click.Path(dir_okay=False), default=".gpulint.yaml",
              show_default=True, help="Where to write the configuration.")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def init(path: str, force: bool) -> None:
    """Write a commented starter configuration."""
    if os.path.exists(path) and not force:
        click.echo(f"gpulint: {path} already exists; use --force to overwrite it", err=True)
        sys.exit(2)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(STARTER)
    click.echo(f"wrote {path}; edit it, then run `gpulint scan`")
