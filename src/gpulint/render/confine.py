"""Renderers (helm, the Helm SDK's child process, kustomize) run as confined child processes.

A chart is code the pull request wrote: `tpl` recursing until Go's stack overflows, or `range
until` nested until memory runs out, kills the process it runs in. So no renderer runs inside
gpulint: each is a child process in a session of its own with

- an environment cut to an allow-list (no tokens, no cloud credentials): a locale, PATH, a
  private empty HOME and temporary directory, Helm's and kubectl's homes inside it, proxies
  pointing at a refused loopback port and git restricted to local repositories, so nothing is
  fetched;
- on Linux (and other systems with `resource`), limits set before the program starts: address
  space (MEMORY_BYTES), CPU time (the time-out plus one second), size of any file it writes
  (OUTPUT_BYTES: its output goes to a file, so an output bomb is stopped by the kernel) and no
  core file. Where `resource` is missing (Windows) only the time-out and the output bound hold;
- a hard kill of its whole process group at the time-out.

A render that breaks a limit is an error string for a diagnostic; the scan goes on.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable

MEMORY_BYTES = 2 * 1024 * 1024 * 1024  # Go's runtime needs ~1 GiB of address space to start
OUTPUT_BYTES = 64 * 1024 * 1024
# A proxy on the loopback discard port: any connection a renderer tries is refused at once.
NO_PROXY_HERE = "http://127.0.0.1:9"
# Passed through as they are: what a program needs to start and print text, nothing else.
_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "SYSTEMROOT", "COMSPEC", "PATHEXT")
_FATAL = re.compile(r"^(?:fatal error|runtime): (.+)$", re.MULTILINE)


def environment(home: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The child's whole environment: the allow-list, a private HOME, and no network."""
    env = {k: os.environ[k] for k in _KEEP if k in os.environ}
    env.update(HOME=home, USERPROFILE=home, TMPDIR=home, TEMP=home, TMP=home,
               XDG_CONFIG_HOME=os.path.join(home, "config"),
               XDG_CACHE_HOME=os.path.join(home, "cache"),
               XDG_DATA_HOME=os.path.join(home, "data"),
               HELM_CONFIG_HOME=os.path.join(home, "helm"),
               HELM_CACHE_HOME=os.path.join(home, "helm-cache"),
               HELM_DATA_HOME=os.path.join(home, "helm-data"),
               HELM_REPOSITORY_CONFIG=os.devnull, KUBECONFIG=os.devnull,
               GIT_ALLOW_PROTOCOL="file", GIT_TERMINAL_PROMPT="0", GIT_SSH_COMMAND="false",
               GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, no_proxy="", NO_PROXY="",
               GOMAXPROCS="2")
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        env[name] = env[name.upper()] = NO_PROXY_HERE
    env.update(extra or {})
    return env


def limiter(cpu_seconds: float) -> Callable[[], None] | None:
    """What the child runs before its program: setrlimit only (safe between fork and exec)."""
    try:
        import resource
    except ImportError:  # Windows: the time-out and the output bound only
        return None
    cpu = 2 * int(cpu_seconds) + 1  # GOMAXPROCS=2: two threads may burn CPU at once
    wanted = [(resource.RLIMIT_CPU, cpu), (resource.RLIMIT_FSIZE, OUTPUT_BYTES),
              (resource.RLIMIT_CORE, 0)]
    if hasattr(resource, "RLIMIT_AS") and sys.platform.startswith("linux"):
        wanted.append((resource.RLIMIT_AS, MEMORY_BYTES))  # macOS does not enforce it

    def apply() -> None:
        for which, value in wanted:
            with contextlib.suppress(ValueError, OSError):  # never above an inherited limit
                _, hard = resource.getrlimit(which)
                capped = value if hard == resource.RLIM_INFINITY else min(value, hard)
                resource.setrlimit(which, (capped, capped))

    return apply


def _why(code: int, err: str, seconds: float) -> tuple[str, bool]:
    """A failed child's reason, in words (its signal, Go's fatal error, or its last line), and
    whether a limit stopped it."""
    why = _limit(code, err, seconds)
    if why is not None:
        return why, True
    lines = [ln.strip() for ln in err.splitlines() if ln.strip(" \t<>`")]
    return (lines[-1][:500] if lines else f"exit status {code}"), False


def _limit(code: int, err: str, seconds: float) -> str | None:
    if code == -getattr(signal, "SIGXFSZ", 25):
        return f"output larger than {OUTPUT_BYTES // (1024 * 1024)} MiB, stopped"
    if code == -getattr(signal, "SIGXCPU", 24):
        return f"used more than {2 * int(seconds) + 1} s of CPU, stopped"
    if code == -signal.SIGKILL:
        return "killed at a resource limit"
    fatal = _FATAL.search(err)
    if fatal and ("stack exceeds" in fatal.group(1) or "out of memory" in fatal.group(1)
                  or "cannot allocate" in fatal.group(1)):
        return f"{fatal.group(1).strip()} (memory limit " \
            f"{MEMORY_BYTES // (1024 * 1024 * 1024)} GiB), stopped"
    if "MemoryError" in err:
        return f"out of memory (limit {MEMORY_BYTES // (1024 * 1024 * 1024)} GiB), stopped"
    if code < 0:
        return f"killed by signal {-code}"
    return None


def run(argv: list[str], timeout: float, stdin: bytes | None = None,
        extra_env: dict[str, str] | None = None,
        took_longer: Callable[[float], str] | None = None) -> tuple[str | None, str, bool]:
    """(standard output, or None; why not; whether the failure was the program's own answer
    rather than a limit, so it would be the same next time)."""
    home = tempfile.mkdtemp(prefix="gpulint-render-")
    try:
        with tempfile.TemporaryFile(dir=home) as out, tempfile.TemporaryFile(dir=home) as err:
            try:
                proc = subprocess.Popen(argv, stdout=out, stderr=err,
                                        stdin=subprocess.PIPE if stdin is not None
                                        else subprocess.DEVNULL,
                                        env=environment(home, extra_env),
                                        start_new_session=True, preexec_fn=limiter(timeout))
            except OSError as e:
                return None, str(e), False
            try:
                proc.communicate(stdin, timeout=timeout)
            except subprocess.TimeoutExpired:
                _kill(proc)
                return None, took_longer(timeout) if took_longer else "took too long", False
            finally:
                _kill(proc)  # anything it left behind in its session
            err.seek(0)
            problem = err.read(256 * 1024).decode("utf-8", "replace")
            if not problem.strip() and proc.returncode != 0:
                out.seek(0)
                problem = out.read(256 * 1024).decode("utf-8", "replace")
            if os.fstat(out.fileno()).st_size >= OUTPUT_BYTES:  # (Python ignores SIGXFSZ)
                return None, _why(-getattr(signal, "SIGXFSZ", 25), "", timeout)[0], False
            if proc.returncode != 0:
                why, limit = _why(proc.returncode, problem, timeout)
                return None, why, proc.returncode == 1 and not limit
            out.seek(0)
            return out.read().decode("utf-8", "replace"), "", True
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        proc.wait(timeout=5)
