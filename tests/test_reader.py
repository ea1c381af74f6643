"""Every file gpulint is given goes through one reader: a FIFO, a device or an oversized file
named as a configuration, baseline, catalog, pricing overrides, rule or var file is a clear
error, never a hang or a memory blow-up (the reader checks the file it opened, not the name)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpulint.files import reader

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _gpulint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "GPULINT_CACHE_DIR": "",
           "NO_COLOR": "1"}
    # A reader that blocks on the FIFO would hang: the timeout turns that into a failure.
    return subprocess.run([sys.executable, "-m", "gpulint", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


@needs_fifo
def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(reader.Unreadable, match="not a regular file") as info:
        reader.read_file(str(fifo))
    assert info.value.kind == "not-regular" and time.monotonic() - start < 5


def test_a_device_and_an_oversized_file_are_refused(tmp_path: Path) -> None:
    if os.path.exists("/dev/zero"):
        link = tmp_path / "zero.json"
        link.symlink_to("/dev/zero")
        with pytest.raises(reader.Unreadable, match="not a regular file"):
            reader.read_file(str(link))
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 3000)
    with pytest.raises(reader.Unreadable, match="larger than 2 KiB"):
        reader.read_file(str(big), 2048)
    with pytest.raises(OSError, match="No such file"):
        reader.read_file(str(tmp_path / "missing"))


def test_text_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    f = tmp_path / "c.yaml"
    f.write_bytes(b"fail_on: never\nx: caf\xe9\n")
    with pytest.raises(reader.Unreadable, match=r"not UTF-8 text \(line 2\)"):
        reader.read_file_text(str(f))
    f.write_bytes(b"\xef\xbb\xbffail_on: never\n")
    assert reader.read_file_text(str(f)) == "fail_on: never\n"


@needs_fifo
@pytest.mark.parametrize("flag, name", [
    ("--config", "gpulint.yaml"), ("--baseline", "baseline.json"), ("--catalog", "cat.json"),
    ("--pricing-overrides", "prices.yaml"), ("--var-file", "x.tfvars"),
])
def test_a_fifo_named_by_a_flag_is_an_error_not_a_hang(tmp_path: Path, flag: str,
                                                       name: str) -> None:
    os.mkfifo(tmp_path / name)
    done = _gpulint("scan", EXAMPLES, flag, name, cwd=tmp_path)
    assert "not a regular file" in done.stderr + done.stdout, done.stderr
    assert "Traceback" not in done.stderr


@needs_fifo
def test_a_fifo_in_a_rules_directory_is_an_error_not_a_hang(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    os.mkfifo(rules / "custom.yaml")
    done = _gpulint("scan", EXAMPLES, "--rules-dir", "rules", cwd=tmp_path)
    assert "not a regular file" in done.stderr, done.stderr
    assert done.returncode == 2 and "Traceback" not in done.stderr
