"""Whole `gpulint scan` processes as the repository-shaped benchmarks time them: the checkout's
sources on PYTHONPATH, bytecode cached under the work directory (as an installed package has it;
one unmeasured scan fills it), the wall time and standard output of each run."""

from __future__ import annotations

import os
import subprocess
import sys
import time


def scan_env(src: str, work: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": src, "PYTHONPYCACHEPREFIX": os.path.join(work, "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def scan_argv(repo: str) -> list[str]:
    return [sys.executable, "-m", "gpulint", "scan", repo, "--format", "json", "--fail-on",
            "never", "--jobs", "1"]


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    return time.perf_counter() - start, done.stdout
