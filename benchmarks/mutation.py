"""Mutation run: thousands of hostile files (mutation_cases.py) scanned by whole `gpulint scan`
processes under a time and a memory limit; prints a Markdown summary (docs/security.md).

    python benchmarks/mutation.py [--files 2000] [--group 10] [--timeout 30] [--jobs 2]
                                  [--memory-mib 2048] [--workdir DIR] [--json OUT]

Cases are written into group directories of `--group` cases each (a configuration case gets a
scan of its own, run from its directory) and each group is scanned by one child process
(`python -m gpulint scan --format json --no-cache --jobs 1`) with an address-space limit and a
wall-clock limit. A child that is killed at the limit is a hang; one that exits 3, dies of a
signal, prints a traceback or reports "internal error" is an internal error; its peak resident
memory comes from os.wait4. A group that fails is scanned again one case at a time, so every
failure names its case. Nothing is fetched: a kustomization's remote resource points at the
loopback discard port.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import mutation_cases  # noqa: E402

# A group above either is scanned again case by case, so the figures name the heavy case.
HEAVY_MIB = 400
SLOW_SECONDS = 10
_INTERNAL = re.compile(r"internal error[^\n]*|Traceback[^\n]*")


@dataclass
class Run:
    cases: list[str]
    seconds: float
    peak_mib: float
    exit: int | None  # None: killed at the time limit
    signal: int | None = None
    internal: list[str] = field(default_factory=list)
    memory_notes: int = 0  # "too large to parse in memory" diagnostics

    @property
    def failed(self) -> bool:
        return self.exit is None or self.signal is not None or self.exit == 3 \
            or bool(self.internal)


def _limits(memory_mib: int) -> Any:
    def apply() -> None:
        os.setsid()  # its own process group: a time-out kills helm/kubectl children too
        limit = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def scan(target: str, cwd: str, names: list[str], timeout: float, memory_mib: int) -> Run:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "GPULINT_NO_PROGRESS": "1",
           "PYTHONDONTWRITEBYTECODE": "1"}
    argv = [sys.executable, "-m", "gpulint", "scan", "--format", "json", "--no-cache",
            "--jobs", "1", "--fail-on", "never", target]
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err,
                            stdin=subprocess.DEVNULL, preexec_fn=_limits(memory_mib))
    killed = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - start > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            killed = True
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.02)
    proc.returncode = 0  # reaped above: keep Popen from waiting again
    seconds = time.monotonic() - start
    out.seek(0)
    err.seek(0)
    text = out.read().decode("utf-8", "replace") + err.read().decode("utf-8", "replace")
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) and not killed else None
    return Run(names, round(seconds, 2), round(usage.ru_maxrss / 1024, 1),
               None if killed else (os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1),
               sig, sorted(set(_INTERNAL.findall(text)))[:5],
               text.count("too large to parse in memory"))


def _prepare(workdir: str, count: int, group: int,
             only: str | None = None) -> list[tuple[str, str, list[str], int]]:
    """(scan target, working directory, case names, hostile files) per scan; `only`: the
    cases of one category."""
    chosen = [c for c in mutation_cases.cases(count)
              if only is None or c.name.split("-", 1)[1] == only]
    plain = [c for c in chosen if not c.own_scan]
    alone = [c for c in chosen if c.own_scan]
    scans = []
    for start in range(0, len(plain), group):
        chunk = plain[start:start + group]
        gdir = os.path.join(workdir, f"group-{start // group:04d}")
        files = sum(c.write(os.path.join(gdir, c.name)) for c in chunk)
        scans.append((gdir, workdir, [c.name for c in chunk], files))
    for c in alone:
        cdir = os.path.join(workdir, "alone", c.name)
        files = c.write(cdir)
        scans.append((cdir, cdir, [c.name], files))
    return scans


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = args.workdir or tempfile.mkdtemp(prefix="gpulint-mutation-")
    if os.path.exists(workdir):
        shutil.rmtree(workdir)
    os.makedirs(workdir)
    scans = _prepare(workdir, args.files, args.group, args.only)
    files = sum(s[3] for s in scans)

    def one(item: tuple[str, str, list[str], int]) -> list[Run]:
        target, cwd, names, _ = item
        first = scan(target, cwd, names, args.timeout, args.memory_mib)
        heavy = first.peak_mib > HEAVY_MIB or first.seconds > SLOW_SECONDS
        if not (first.failed or heavy) or len(names) == 1:
            return [first]
        # Name the failing (or heaviest) cases: each alone, from the same working directory.
        return [first, *(scan(os.path.join(target, n), cwd, [n], args.timeout, args.memory_mib)
                         for n in names)]

    started = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        runs = [r for rs in pool.map(one, scans) for r in rs]
    elapsed = time.monotonic() - started
    group_runs = runs  # peak figures over every child
    failures = [r for r in runs if r.failed and len(r.cases) == 1]
    singles = [r for r in runs if len(r.cases) == 1]
    summary = {
        "hostile_files": files, "cases": sum(len(sc[2]) for sc in scans), "scans": len(scans),
        "internal_errors": sum(1 for r in failures if r.exit is not None),
        "hangs": sum(1 for r in failures if r.exit is None),
        "distinct_internal_errors": sorted({m for r in failures for m in r.internal}),
        "failing_cases": [asdict(r) for r in failures],
        "peak_mib": max(r.peak_mib for r in group_runs),
        "peak_mib_finished": max((r.peak_mib for r in group_runs if r.exit is not None),
                                 default=0.0),
        "heaviest_cases": [(r.cases[0], r.peak_mib) for r in sorted(
            singles, key=lambda r: -r.peak_mib)[:5]],
        "slowest_cases": [(r.cases[0], r.seconds) for r in sorted(
            singles, key=lambda r: -r.seconds)[:5]],
        "slowest_seconds": max(r.seconds for r in group_runs),
        "memory_limit_notes": sum(r.memory_notes for r in group_runs),
        "exit_codes": {str(k): sum(1 for r in group_runs if r.exit == k)
                       for k in sorted({r.exit for r in group_runs}, key=str)},
        "wall_seconds": round(elapsed, 1), "timeout_seconds": args.timeout,
        "memory_limit_mib": args.memory_mib,
    }
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return summary


def markdown(s: dict[str, Any]) -> str:
    lines = [
        f"Mutation run: {s['cases']:,} cases ({s['hostile_files']:,} hostile files or links) "
        f"in {s['scans']} whole-process scans, each limited to {s['timeout_seconds']} s and "
        f"{s['memory_limit_mib']:,} MiB of address space; {s['wall_seconds']:,} s in all.", "",
        "| measure | result |", "| --- | --- |",
        f"| internal errors (exit 3, signal, traceback, \"internal error\") | "
        f"{s['internal_errors']} |",
        f"| hangs (killed at {s['timeout_seconds']} s) | {s['hangs']} |",
        f"| peak resident memory of one scan | {s['peak_mib']:,} MiB |",
        f"| peak of the scans that finished | {s['peak_mib_finished']:,} MiB |",
        f"| slowest scan | {s['slowest_seconds']} s |",
        f"| files given up for memory (diagnostic) | {s['memory_limit_notes']} |",
        f"| exit codes | {', '.join(f'{k}: {v}' for k, v in s['exit_codes'].items())} |",
    ]
    lines.append("- heaviest cases: " + ", ".join(f"`{n}` {m:,} MiB"
                                                  for n, m in s["heaviest_cases"]))
    lines.append("- slowest cases: " + ", ".join(f"`{n}` {t} s" for n, t in s["slowest_cases"]))
    for r in s["failing_cases"]:
        what = "hang" if r["exit"] is None else f"exit {r['exit']}, signal {r['signal']}"
        lines.append(f"- `{r['cases'][0]}`: {what}; {'; '.join(r['internal'])[:300]}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000, help="hostile cases to generate")
    parser.add_argument("--group", type=int, default=10, help="cases per scan")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--memory-mib", type=int, default=2048)
    parser.add_argument("--jobs", type=int, default=2, help="scans at a time")
    parser.add_argument("--only", metavar="CATEGORY",
                        help="only the cases of this category (e.g. renderers)")
    parser.add_argument("--workdir")
    parser.add_argument("--keep", action="store_true", help="keep the generated cases")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    summary = run(args)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
    sys.stdout.write(markdown(summary))


if __name__ == "__main__":
    main()
