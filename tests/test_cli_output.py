"""Where the report goes and how it looks, through the real command line: --color and the
NO_COLOR / FORCE_COLOR conventions when piped, -o checked before scanning, --debug after the
subcommand, and a warning when nothing was found to scan."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

EXAMPLES = os.path.join(ROOT, "examples")
ESC = "\033["


def _gpulint(*args: str, env: dict[str, str] | None = None,
             cwd: str | None = None) -> subprocess.CompletedProcess[str]:
    """gpulint as a process whose output is a pipe (never a terminal)."""
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    base["PYTHONPATH"] = os.path.join(ROOT, "src")
    return subprocess.run([sys.executable, "-m", "gpulint", *args], capture_output=True,
                          text=True, check=False, env={**base, **(env or {})}, cwd=cwd)


@pytest.mark.parametrize(("args", "env", "coloured"), [
    ((), {}, False),                                      # a pipe: no colour
    (("--color", "always"), {}, True),                    # asked for: kept in a pipe
    (("--color", "always"), {"NO_COLOR": "1"}, True),     # the flag wins
    ((), {"FORCE_COLOR": "1"}, True),
    ((), {"FORCE_COLOR": "1", "NO_COLOR": ""}, True),     # an empty NO_COLOR is not set
    ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    (("--color", "never"), {"FORCE_COLOR": "1"}, False),
    (("--no-color",), {"FORCE_COLOR": "1"}, False),
])
def test_colour_choice(args: tuple[str, ...], env: dict[str, str], coloured: bool) -> None:
    proc = _gpulint("scan", "--no-cache", EXAMPLES, *args, env=env)
    assert proc.returncode == 1 and "gpu-oversized-for-model" in proc.stdout
    assert (ESC in proc.stdout) is coloured


def test_force_color_does_not_colour_a_file(tmp_path: Path) -> None:
    out = tmp_path / "report.txt"
    proc = _gpulint("scan", "--no-cache", EXAMPLES, "-o", str(out), env={"FORCE_COLOR": "1"})
    assert proc.returncode == 1 and proc.stdout == ""
    assert "gpu-oversized-for-model" in out.read_text() and ESC not in out.read_text()


@pytest.mark.parametrize("command", ["scan", "cost", "baseline"])
def test_output_into_a_missing_directory_is_a_usage_error_before_scanning(
        tmp_path: Path, command: str) -> None:
    target = tmp_path / "missing" / "report.txt"
    proc = _gpulint(command, "--no-cache", EXAMPLES, "-o", str(target))
    assert proc.returncode == 2 and "internal error" not in proc.stderr
    assert f"directory {tmp_path / 'missing'} does not exist" in proc.stderr
    proc = _gpulint(command, "--no-cache", EXAMPLES, "-o", str(tmp_path))
    assert proc.returncode == 2 and "is a directory" in proc.stderr


def test_debug_after_the_subcommand(tmp_path: Path) -> None:
    proc = _gpulint("scan", "--no-cache", EXAMPLES, "--debug", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    assert "gpu-oversized-for-model" in proc.stdout
    # After `--` it is a path like any other.
    proc = _gpulint("scan", "--no-cache", "--", "--debug")
    assert proc.returncode == 2 and "no such file or directory: --debug" in proc.stderr


def test_nothing_to_scan_warns_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("# no infrastructure here\n")
    proc = _gpulint("scan", "--no-cache", ".", cwd=str(tmp_path))
    warning = "no Terraform or Kubernetes file found: nothing was scanned"
    assert proc.returncode == 0 and warning in proc.stderr and warning not in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("0 errors, 0 warnings, 0 info; 1 tool warning")
    proc = _gpulint("scan", "--no-cache", ".", "--strict", cwd=str(tmp_path))
    assert proc.returncode == 1
    for fmt in ("json", "sarif"):
        proc = _gpulint("scan", "--no-cache", ".", "--format", fmt, cwd=str(tmp_path))
        assert proc.returncode == 0 and f"gpulint: warning: {warning}" in proc.stderr
