"""Start-up stays lazy, and the progress bar shows only to a person at a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from gpulint.cli import progress

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("lark", "hcl2", "jsonschema", "yaml", "gpulint.pipeline")

_PROBE = """
import sys
from gpulint.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
loaded = sorted(m for m in {heavy!r} if m in sys.modules)
sys.stderr.write("LOADED=" + ",".join(loaded) + "\\n")
"""


def loaded_modules(*args: str, cwd: str = ROOT) -> set[str]:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")}
    proc = subprocess.run([sys.executable, "-c", _PROBE.format(heavy=HEAVY), *args], env=env,
                          cwd=cwd, capture_output=True, text=True, check=False, timeout=120)
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("LOADED=")][-1]
    return set(filter(None, line[len("LOADED="):].split(",")))


def test_version_imports_no_parser_or_schema_library() -> None:
    assert loaded_modules("--version") == set()


def test_one_yaml_file_run_imports_no_terraform_parser_or_jsonschema() -> None:
    got = loaded_modules("scan", "--no-cache", os.path.join("examples", "kubernetes",
                                                            "inference.yaml"))
    assert "gpulint.pipeline" in got and "yaml" in got
    assert not got & {"lark", "hcl2", "jsonschema"}


def test_warm_terraform_run_does_not_import_the_hcl_parser(tmp_path: os.PathLike[str]) -> None:
    args = ("scan", "--fail-on", "never", os.path.join("examples", "terraform"))
    env_dir = {"GPULINT_CACHE_DIR": str(tmp_path)}
    os.environ.update(env_dir)
    try:
        assert "lark" in loaded_modules(*args)  # cold: parsed
        assert not loaded_modules(*args) & {"lark", "hcl2"}  # warm: served from the cache
    finally:
        os.environ.pop("GPULINT_CACHE_DIR")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GPULINT_NO_PROGRESS", raising=False)
    assert progress.wanted(_Tty())
    assert not progress.wanted(io.StringIO())  # piped or redirected
    monkeypatch.setenv("CI", "true")
    assert not progress.wanted(_Tty())


def test_progress_bar_draws_and_erases_itself() -> None:
    out = _Tty()
    bar = progress.ProgressBar(out, min_files=10)
    bar(5, 3)  # below the threshold: nothing
    assert out.getvalue() == ""
    bar(10, 20)
    bar(20, 20)
    assert "20/20 files" in out.getvalue()
    bar.close()
    assert out.getvalue().endswith("\r")
