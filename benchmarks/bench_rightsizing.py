"""Time the right-sizing step on generated resources that declare models.

    PYTHONPATH=src python benchmarks/bench_rightsizing.py [RESOURCES]

Builds Terraform instances and Kubernetes deployments (a mix of instance types, GPU-only pods
and models, some with tensor parallelism), scans them with no rules and with the right-sizing
rules (the sizing step runs in both; the difference is rule evaluation), and times
`rightsizing.apply` alone over the scanned resources.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from gpulint import pipeline as scan
from gpulint.derive import fit as rightsizing
from gpulint.ruleset import load_rules

TYPES = ("p4d.24xlarge", "g5.12xlarge", "p3.8xlarge", "g6e.xlarge", "g4dn.xlarge", "p5.48xlarge")
MODELS = ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-14B-Instruct",
          "mistralai/Mixtral-8x7B-Instruct-v0.1",
          "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "acme/support-bot-13b-chat")
RULES = ("gpu-oversized-for-model", "gpu-model-does-not-fit", "gpu-unused-by-parallelism",
         "gpu-previous-generation")


def _terraform(n: int) -> str:
    blocks = ['provider "aws" {\n  region = "us-east-1"\n}\n']
    for i in range(n):
        blocks.append(f'resource "aws_instance" "r{i}" {{\n'
                      f'  instance_type = "{TYPES[i % len(TYPES)]}"\n'
                      f'  tags = {{ model = "{MODELS[i % len(MODELS)]}" }}\n}}\n')
    return "\n".join(blocks)


def _kubernetes(n: int) -> str:
    docs = []
    for i in range(n):
        selector = (f"node.kubernetes.io/instance-type: {TYPES[i % len(TYPES)]}" if i % 2
                    else "cloud.google.com/gke-accelerator: nvidia-l4")
        tp = ', "--tensor-parallel-size", "2"' if i % 3 == 0 else ""
        docs.append(f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: d{i}
spec:
  template:
    spec:
      nodeSelector:
        {selector}
      containers:
        - name: vllm
          command: ["vllm", "serve", "{MODELS[i % len(MODELS)]}"{tp}]
          resources:
            limits:
              nvidia.com/gpu: 4
""")
    return "---\n".join(docs)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sizing_rules = [r for r in load_rules() if r.id in RULES]
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "main.tf"), "w") as fh:
            fh.write(_terraform(n // 2))
        with open(os.path.join(root, "pods.yaml"), "w") as fh:
            fh.write(_kubernetes(n - n // 2))
        print(f"{n // 2} Terraform instances + {n - n // 2} Kubernetes deployments")
        scan.run([root], [])  # warm-up: catalogs, rules and imports load once per process
        for name, rules in (("scan, no rules", []), ("scan, right-sizing rules", sizing_rules)):
            start = time.perf_counter()
            result = scan.run([root], rules)
            print(f"  {name:<26} {time.perf_counter() - start:6.2f} s "
                  f"({len(result.findings)} findings)")
        # The sizing step alone, re-run on the resources the last scan built.
        opts, _ = rightsizing.options_from_rules(sizing_rules, {})
        start = time.perf_counter()
        for res in result.resources:
            rightsizing.apply(res, opts)
        elapsed = time.perf_counter() - start
        print(f"  {'rightsizing.apply':<26} {elapsed:6.2f} s "
              f"({elapsed / len(result.resources) * 1000:.2f} ms per resource)")


if __name__ == "__main__":
    main()
