"""YAML nested tens of thousands of levels is a diagnostic, not a segmentation fault of the C
composer, and the other files of the scan keep their results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: "


@pytest.mark.parametrize("body", [
    "[" * 30_000 + "]" * 30_000,  # flow sequences, 60 KB
    "{a: " * 30_000 + "1" + "}" * 30_000,  # flow mappings
    "\n    " + "- " * 30_000 + "x",  # compact block sequences on one line
])
def test_deep_yaml_is_a_diagnostic_and_other_files_are_scanned(tmp_path: Path,
                                                               body: str) -> None:
    shutil.copy(os.path.join(ROOT, "examples", "kubernetes", "inference.yaml"), tmp_path)
    (tmp_path / "deep.yaml").write_text(HEADER + body + "\n")
    code = ("import resource,sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
            "from gpulint.cli import cli; cli(sys.argv[1:])")
    proc = subprocess.run([sys.executable, "-c", code, "scan", "--format", "json", "--no-cache",
                           "--fail-on", "never", str(tmp_path)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2 or proc.returncode == 0, (proc.returncode, proc.stderr)
    report = json.loads(proc.stdout)
    deep = [d for d in report["diagnostics"] if d["path"].endswith("deep.yaml")]
    assert deep and "nested deeper than 200 levels" in deep[0]["message"], deep
    assert any(r["path"].endswith("inference.yaml") for r in report["resources"])
