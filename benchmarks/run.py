"""Benchmark gpulint on generated repositories; print a Markdown report (docs/performance.md).

    python benchmarks/run.py [--factors 1,2,4] [--runs 5] [--workdir DIR] [--json OUT]

Every figure is a whole `gpulint scan` process run as a child (`python -m gpulint`), timed with
a monotonic clock; CPU time and peak resident memory come from os.wait4 on that child (the
memory figure is the largest single process of its tree: with --jobs the workers are separate
processes of about the same size). Figures are medians of three runs (of --runs for the warm and
pre-commit ones). Cold runs use an empty cache directory or --no-cache; warm
runs reuse the cache the previous run filled. The reference "parse only" figure is a single
process that parses the same files with python-hcl2 (hcl2.loads) and PyYAML's C loader.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import generate  # noqa: E402

_PARSE_ONLY = r"""
import os, sys, time, yaml, hcl2
Loader = yaml.CSafeLoader
t = time.perf_counter()
for d, _, names in os.walk(sys.argv[1]):
    for n in names:
        p = os.path.join(d, n)
        text = open(p, encoding="utf-8").read()
        if n.endswith(".tf"):
            hcl2.loads(text)
        elif n.endswith(".yaml"):
            list(yaml.load_all(text, Loader=Loader))
print(time.perf_counter() - t)
"""


_CONTROL = r"""
import sys, time
from concurrent.futures import ProcessPoolExecutor

def spin(n):
    s = 0
    for i in range(n):
        s += i
    return s

if __name__ == "__main__":
    work = [3_000_000] * 8
    t = time.perf_counter(); [spin(n) for n in work]; serial = time.perf_counter() - t
    t = time.perf_counter()
    with ProcessPoolExecutor(int(sys.argv[1])) as pool:
        list(pool.map(spin, work))
    print(serial / (time.perf_counter() - t))
"""


def _control(cpus: int) -> float:
    """Speed-up of a pure-CPU loop on `cpus` processes: how many cores were really free."""
    out = subprocess.run([sys.executable, "-c", _CONTROL, str(cpus)], capture_output=True,
                         text=True, check=True).stdout
    return float(out.strip())


def _child(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Run a child process to completion; wall seconds, CPU seconds, peak RSS in MB."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}: {err[-2000:]}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024}


# Set by `run`: bytecode is cached (under the work directory), as it is for an installed package
# (pip compiles it at install), even where the caller's environment turns caching off; otherwise
# every child would compile gpulint's ~100 modules again (about 0.1 s) and count it as start-up.
_PYCACHE: str | None = None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.path.join(ROOT, "src")
    if _PYCACHE:
        env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return env


def _scan(target: str, cache_dir: str | None, jobs: int = 0) -> dict[str, float]:
    env = {**_env(), "CI": "1"}
    args = [sys.executable, "-m", "gpulint", "scan", target, "--format", "json",
            "--fail-on", "never", "--output", os.devnull, "--jobs", str(jobs)]
    if cache_dir is None:
        args.append("--no-cache")
    else:
        env["GPULINT_CACHE_DIR"] = cache_dir
    return _child(args, env)


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def _size(stats: dict[str, int]) -> tuple[int, float]:
    return stats["tf_files"] + stats["yaml_files"], stats["bytes"] / 1e6


def run(factors: list[float], runs: int, workdir: str) -> dict[str, Any]:
    out: dict[str, Any] = {"machine": {"python": platform.python_version(),
                                       "platform": platform.platform(),
                                       "cpus": len(os.sched_getaffinity(0))
                                       if hasattr(os, "sched_getaffinity") else os.cpu_count(),
                                       "processor": _cpu_name()},
                           "scaling": [], "factors": factors, "runs": runs}
    repos = {}
    for f in factors:
        path = os.path.join(workdir, f"repo-x{f:g}")
        repos[f] = (path, generate.generate(path, f))
    base_path, base_stats = repos[factors[0]]
    files, mb = _size(base_stats)
    out["repo"] = {"factor": factors[0], "files": files, "mb": mb, **base_stats}

    global _PYCACHE
    _PYCACHE = os.path.join(workdir, "pycache")
    env = _env()
    # One unmeasured scan fills the bytecode cache, as installing the package would.
    _scan(os.path.join(base_path, "terraform"), None, jobs=1)
    parse_only = _median([_child([sys.executable, "-c", _PARSE_ONLY, base_path], env)
                          for _ in range(3)])
    out["parse_only"] = parse_only

    # Scaling: cold runs (no cache) with the default jobs, factor by factor. Medians of three
    # runs, because a shared machine's load changes wall times from one run to the next.
    for f in factors:
        path, stats = repos[f]
        n, size = _size(stats)
        r = _median([_scan(path, None) for _ in range(3)])
        out["scaling"].append({"factor": f, "files": n, "mb": size, **r,
                               "files_per_s": n / r["wall_s"], "mb_per_s": size / r["wall_s"]})

    # Serial vs parallel, cold, on the base repository; with a control: the speed-up of a
    # pure-CPU loop on as many processes, which shows whether other load took the cores.
    out["control_speedup"] = statistics.median(_control(out["machine"]["cpus"]) for _ in range(3))
    out["serial"] = _median([_scan(base_path, None, jobs=1) for _ in range(3)])
    out["parallel"] = _median([_scan(base_path, None, jobs=0) for _ in range(3)])

    # Cold (empty cache, filling it) then warm (every file served from the cache).
    cache = os.path.join(workdir, "cache")
    cold = []
    for _ in range(3):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(_scan(base_path, cache))
    out["cold_cache"] = _median(cold)
    out["warm_cache"] = _median([_scan(base_path, cache) for _ in range(runs)])

    # The pre-commit path: one changed file, whole process, median of several runs.
    service = sorted(os.listdir(os.path.join(base_path, "terraform", "live", "prod")))[0]
    module_dir = os.path.join(base_path, "terraform", "live", "prod", service)
    manifest = os.path.join(base_path, "kubernetes", "ml", sorted(os.listdir(
        os.path.join(base_path, "kubernetes", "ml")))[0], "deployment.yaml")
    out["precommit"] = {
        "terraform_module_warm": _median([_scan(module_dir, cache) for _ in range(runs)]),
        "terraform_module_nocache": _median([_scan(module_dir, None) for _ in range(runs)]),
        "manifest_warm": _median([_scan(manifest, cache) for _ in range(runs)]),
        "manifest_nocache": _median([_scan(manifest, None) for _ in range(runs)]),
        "version": _median([_child([sys.executable, "-m", "gpulint", "--version"], env)
                            for _ in range(runs)]),
    }
    return out


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def markdown(r: dict[str, Any]) -> str:
    m, repo = r["machine"], r["repo"]
    lines = [f"Machine: {m['cpus']} CPUs ({m['processor']}), Python {m['python']}, "
             f"{m['platform']}.", "",
             f"Base repository (factor {repo['factor']:g}): {repo['tf_files']} .tf and "
             f"{repo['yaml_files']} YAML files, {repo['mb']:.1f} MB.", "",
             "| run | files | MB | wall s | CPU s | files/s | MB/s | peak MB |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in r["scaling"]:
        lines.append(f"| cold, factor {s['factor']:g} | {s['files']} | {s['mb']:.1f} | "
                     f"{s['wall_s']:.2f} | {s['cpu_s']:.2f} | {s['files_per_s']:.0f} | "
                     f"{s['mb_per_s']:.2f} | {s['peak_mb']:.0f} |")
    first, last = r["scaling"][0], r["scaling"][-1]
    growth = last["wall_s"] / first["wall_s"]
    lines += ["", f"Growth: {last['files'] / first['files']:.1f}× the files took {growth:.2f}× "
                  f"the time (linear would be {last['files'] / first['files']:.1f}×).", "",
              "| base repository | wall s | CPU s | peak MB |", "| --- | ---: | ---: | ---: |"]
    rows = [("parse only: python-hcl2 + PyYAML C loader, one process", r["parse_only"]),
            ("gpulint, serial (--jobs 1), no cache", r["serial"]),
            ("gpulint, parallel (--jobs 0 = all cores), no cache", r["parallel"]),
            ("gpulint, cold cache (empty, being filled)", r["cold_cache"]),
            (f"gpulint, warm cache (median of {r['runs']} runs)", r["warm_cache"])]
    for name, v in rows:
        lines.append(f"| {name} | {v['wall_s']:.2f} | {v['cpu_s']:.2f} | {v['peak_mb']:.0f} |")
    cold, warm = r["cold_cache"], r["warm_cache"]
    lines += ["", f"Warm / cold: {warm['wall_s'] / cold['wall_s']:.0%} of the wall time, "
                  f"{warm['cpu_s'] / cold['cpu_s']:.0%} of the CPU time. Serial / parallel wall "
                  f"time: {r['serial']['wall_s'] / r['parallel']['wall_s']:.2f}× (control: a pure "
                  f"CPU loop on {m['cpus']} processes ran {r['control_speedup']:.2f}× faster than "
                  "on one).", "",
              f"| pre-commit path (whole process, median of {r['runs']}) | wall s | CPU s "
              "| peak MB |",
              "| --- | ---: | ---: | ---: |"]
    names = {"terraform_module_warm": "one Terraform module directory, warm cache",
             "terraform_module_nocache": "one Terraform module directory, --no-cache",
             "manifest_warm": "one Kubernetes manifest, warm cache",
             "manifest_nocache": "one Kubernetes manifest, --no-cache",
             "version": "gpulint --version"}
    for key, name in names.items():
        v = r["precommit"][key]
        lines.append(f"| {name} | {v['wall_s']:.2f} | {v['cpu_s']:.2f} | {v['peak_mb']:.0f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factors", default="1,2,4", help="repository sizes, comma-separated")
    ap.add_argument("--runs", type=int, default=5, help="runs per median")
    ap.add_argument("--workdir", help="where to generate (default: a temporary directory)")
    ap.add_argument("--json", help="also write the raw figures to this file")
    args = ap.parse_args()
    factors = [float(f) for f in args.factors.split(",")]
    workdir = args.workdir or tempfile.mkdtemp(prefix="gpulint-bench-")
    try:
        result = run(factors, args.runs, workdir)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2)
    sys.stdout.write(markdown(result))


if __name__ == "__main__":
    main()
