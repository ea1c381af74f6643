"""Benchmark a platform repository deployed with helmfile (docs/performance.md).

    python benchmarks/bench_helmfile.py [--teams 40] [--releases 5] [--runs 3] [--src SRC]
                                        [--workdir DIR]

Writes a helmfile.d/ directory of `teams` helmfiles sharing their environments (dev, staging,
prod) through one base, each with `releases` vLLM production-stack releases of a remote chart
whose values are one `.gotmpl` template filled from the environment's values, installed
everywhere but dev (`installed: {{ ne .Environment.Name "dev" | toYaml }}`): teams × releases × 2
GPU resources. Times whole `gpulint scan` processes (the checkout at --src, default this one),
median of --runs. (No "parse only" reference: a helmfile is not YAML until its template actions
are read.)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from processes import scan_argv, scan_env, timed  # noqa: E402

ENVS = {"dev": ("g6.xlarge", 1, 1), "staging": ("g6.xlarge", 1, 1),
        "prod": ("g6e.12xlarge", 4, 2)}
VALUES = """servingEngineSpec:
  modelSpec:
    - name: chat
      repository: vllm/vllm-openai
      tag: v0.8.5
      modelURL: {{ .Values.llm.model }}
      replicaCount: {{ .Values.llm.replicas }}
      requestGPU: {{ .Values.llm.gpus }}
      nodeSelectorTerms:
        - matchExpressions:
            - key: node.kubernetes.io/instance-type
              operator: In
              values: [{{ .Values.gpuInstanceType | quote }}]
      vllmConfig:
        maxModelLen: 8192
        {{- if eq .Environment.Name "prod" }}
        tensorParallelSize: 4
        {{- end }}
"""


def generate(root: str, teams: int, releases: int) -> None:
    for d in ("helmfile.d", "values", "bases", "environments"):
        os.makedirs(os.path.join(root, d))
    with open(os.path.join(root, "values", "vllm.yaml.gotmpl"), "w") as fh:
        fh.write(VALUES)
    base = ["environments:"]
    for env, (instance, gpus, replicas) in ENVS.items():
        base += [f"  {env}:", "    values:", f"      - ../environments/{env}.yaml"]
        with open(os.path.join(root, "environments", f"{env}.yaml"), "w") as fh:
            fh.write(f"gpuInstanceType: {instance}\nllm:\n  model: meta-llama/Llama-3.1-8B-"
                     f"Instruct\n  gpus: {gpus}\n  replicas: {replicas}\n")
    with open(os.path.join(root, "bases", "environments.yaml"), "w") as fh:
        fh.write("\n".join(base) + "\n")
    for t in range(teams):
        lines = ["bases:", "  - ../bases/environments.yaml", "---", "releases:"]
        for r in range(releases):
            lines += [f"  - name: llm-{t:02d}-{r}", f"    namespace: team-{t:02d}",
                      "    chart: vllm/vllm-stack", "    version: 0.1.5",
                      '    installed: {{ ne .Environment.Name "dev" | toYaml }}',
                      "    values:", "      - ../values/vllm.yaml.gotmpl"]
        with open(os.path.join(root, "helmfile.d", f"{t:02d}-team.yaml"), "w") as fh:
            fh.write("\n".join(lines) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--teams", type=int, default=40)
    ap.add_argument("--releases", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--src", default=os.path.join(os.path.dirname(HERE), "src"))
    ap.add_argument("--workdir")
    args = ap.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="gpulint-helmfile-")
    repo = os.path.join(work, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    generate(repo, args.teams, args.releases)
    env = scan_env(args.src, work)
    scan = [*scan_argv(repo), "--no-cache"]
    timed(scan, env)  # fills the bytecode cache, as an installed package has it
    runs, found = [], ""
    for _ in range(args.runs):
        seconds, found = timed(scan, env)
        runs.append(seconds)
    report = json.loads(found)
    print(f"{args.teams} helmfiles x {len(ENVS)} environments, {args.teams * args.releases} "
          f"releases; {report['summary']['gpu_resources']} GPU resources")
    print(f"scan {statistics.median(runs):.2f} s")


if __name__ == "__main__":
    main()
