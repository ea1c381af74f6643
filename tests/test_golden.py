"""Golden reports: the JSON report and its text and Markdown renderings for examples/ and every
fixture directory, recorded before a restructuring so behaviour changes show up as diffs.

Regenerate (and review the diff) with: GPULINT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("GPULINT_UPDATE_GOLDEN") == "1"

# Directories scanned as a user would scan them: examples/ and each fixture directory.
SKIP = {"golden", "data", "__pycache__", ".terraform"}


def _fixture_dirs() -> list[str]:
    dirs = ["examples"]
    for top in sorted((ROOT / "tests").iterdir()):
        if not top.is_dir() or top.name in SKIP:
            continue
        dirs.append(str(top.relative_to(ROOT)))
        for sub in sorted(top.iterdir()):
            if sub.is_dir() and sub.name not in SKIP:
                dirs.append(str(sub.relative_to(ROOT)))
    return dirs


FORMATS = {"json": "json", "text": "txt", "markdown": "md"}


def _render(directory: str, fmt: str) -> str:
    result = CliRunner().invoke(
        cli, ["scan", directory, "--format", fmt, "--no-color", "--no-cache", "--fail-on", "never"],
        catch_exceptions=False)
    return f"exit {result.exit_code}\n{result.output}"


@pytest.mark.parametrize("directory", _fixture_dirs())
def test_golden_reports(directory: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    stem = directory.replace("/", "__")
    for fmt, ext in FORMATS.items():
        got = _render(directory, fmt)
        path = GOLDEN / f"{stem}.{ext}"
        if UPDATE:
            path.write_text(got, encoding="utf-8")
            continue
        assert path.exists(), f"no golden file {path.name}: run with GPULINT_UPDATE_GOLDEN=1"
        assert got == path.read_text(encoding="utf-8"), f"{directory} --format {fmt} changed"
