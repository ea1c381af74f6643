"""Benchmark a repository of many kustomize overlays over large CRDs (docs/performance.md).

    python benchmarks/bench_kustomize.py [--apps 10] [--overlays 5] [--crd-kb 1024] [--runs 3]
                                         [--src SRC] [--workdir DIR]

Writes `apps` applications, each a base (a Deployment, GPU for two apps in three, a Service and
a CRD bundle of `crd-kb` KB, as operators ship them) with `overlays` overlays patching replicas
and namespace: apps × overlays builds. Times whole `gpulint scan` processes (the checkout at
--src, default this one) with kubectl or kustomize on PATH: cold (empty cache), warm (the cache
the cold run filled), and the reference "parse only" figure of benchmarks/run.py over the same
files. Medians of --runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from processes import scan_argv, scan_env, timed  # noqa: E402
from run import _PARSE_ONLY  # noqa: E402

ENVS = ("dev", "staging", "prod", "eu", "us", "canary", "perf", "qa")


def _crd(app: str, kb: int) -> str:
    head = f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: policies.{app}.example.com
spec:
  group: {app}.example.com
  names: {{kind: Policy, plural: policies}}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
"""
    field = ("                f{i}:\n                  description: Setting {i} of the policy, "
             "optional, as generated from the operator's Go types.\n"
             "                  type: string\n")
    body, i = [], 0
    while sum(map(len, body)) < kb * 1024:
        body.append(field.format(i=i))
        i += 1
    return head + "".join(body)


def generate(root: str, apps: int, overlays: int, crd_kb: int) -> None:
    for a in range(apps):
        app = f"app{a:02d}"
        base = os.path.join(root, app, "base")
        os.makedirs(base)
        gpu = a % 3 != 2
        limits = "            limits:\n              nvidia.com/gpu: 1\n" if gpu else ""
        selector = ("      nodeSelector:\n        node.kubernetes.io/instance-type: g5.xlarge\n"
                    if gpu else "")
        with open(os.path.join(base, "deployment.yaml"), "w") as fh:
            fh.write(f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {app}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {app}}}}}
  template:
    metadata: {{labels: {{app: {app}}}}}
    spec:
{selector}      containers:
        - name: server
          image: registry.example.com/{app}:1.0
          resources:
{limits}            requests:
              cpu: "1"
---
apiVersion: v1
kind: Service
metadata:
  name: {app}
spec:
  selector: {{app: {app}}}
  ports: [{{port: 80}}]
""")
        with open(os.path.join(base, "crds.yaml"), "w") as fh:
            fh.write(_crd(app, crd_kb))
        with open(os.path.join(base, "kustomization.yaml"), "w") as fh:
            fh.write("resources:\n  - crds.yaml\n  - deployment.yaml\n")
        for e, env in enumerate(ENVS[:overlays]):
            ov = os.path.join(root, app, "overlays", env)
            os.makedirs(ov)
            with open(os.path.join(ov, "kustomization.yaml"), "w") as fh:
                fh.write(f"namespace: {app}-{env}\nresources:\n  - ../../base\n"
                         "patches:\n  - path: replicas.yaml\n")
            with open(os.path.join(ov, "replicas.yaml"), "w") as fh:
                fh.write(f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {app}\n"
                         f"spec:\n  replicas: {e + 1}\n")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--apps", type=int, default=10)
    ap.add_argument("--overlays", type=int, default=5)
    ap.add_argument("--crd-kb", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--src", default=os.path.join(os.path.dirname(HERE), "src"))
    ap.add_argument("--workdir")
    args = ap.parse_args()
    work = args.workdir or tempfile.mkdtemp(prefix="gpulint-kustomize-")
    repo = os.path.join(work, "repo")
    shutil.rmtree(repo, ignore_errors=True)
    generate(repo, args.apps, args.overlays, args.crd_kb)
    env = scan_env(args.src, work)
    scan = scan_argv(repo)
    timed([*scan, "--no-cache"], env)
    cold, warm, parse, found = [], [], [], ""
    for r in range(args.runs):
        cache = os.path.join(work, f"cache{r}")
        shutil.rmtree(cache, ignore_errors=True)
        seconds, out = timed(scan, {**env, "GPULINT_CACHE_DIR": cache})
        cold.append(seconds)
        warm.append(timed(scan, {**env, "GPULINT_CACHE_DIR": cache})[0])
        parse.append(float(subprocess.run([sys.executable, "-c", _PARSE_ONLY, repo],
                                          capture_output=True, text=True, check=True).stdout))
        found = out
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(repo) for n in ns)
    report = json.loads(found)
    print(f"{args.apps * args.overlays} overlays, {size / 1e6:.1f} MB; "
          f"{report['summary']['gpu_resources']} GPU resources")
    print(f"cold {statistics.median(cold):.2f} s, warm {statistics.median(warm):.2f} s, "
          f"parse only {statistics.median(parse):.2f} s")


if __name__ == "__main__":
    main()
