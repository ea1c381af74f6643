"""Run the gpulint CLI in a child process under CPU-time and address-space limits, and measure
its wall time and peak memory: a hang or a memory blow-up fails the test instead of the runner."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")


@dataclass(frozen=True)
class Run:
    code: int  # exit status, or -N for signal N
    stdout: str
    stderr: str
    seconds: float  # wall time
    peak_mib: float  # maximum resident set size of the child


def gpulint(*args: str, cpu_seconds: int = 60, memory_mib: int = 1024, cwd: str | None = None,
            stdout: int | None = None) -> Run:
    """`python -m gpulint ARGS` with at most `cpu_seconds` of CPU (and four times that of wall
    time, for a child blocked rather than busy) and `memory_mib` of address space."""
    def limit() -> None:  # in the child, before exec
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
        resource.setrlimit(resource.RLIMIT_AS, (memory_mib << 20, memory_mib << 20))

    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "gpulint", *args], cwd=cwd, env=env,
                                stdin=subprocess.DEVNULL,
                                stdout=out if stdout is None else stdout, stderr=err,
                                preexec_fn=limit)
        guard = threading.Timer(cpu_seconds * 4, lambda: os.kill(proc.pid, signal.SIGKILL))
        guard.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            guard.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), seconds, usage.ru_maxrss / 1024)
