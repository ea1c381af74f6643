"""The parse cache is written by whoever can write its directory: an entry never runs code, the
directory is private, a database busy in another run is left alone, and an out-of-memory
outcome is not remembered as the file's."""

from __future__ import annotations

import gc
import os
import pickle
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.load import cache as cache_mod
from gpulint.load import source
from gpulint.ruleset import load_rules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "examples")


def summary(result: scan.ScanResult) -> Any:
    return ([(r.address, r.path, r.line, sorted(map(str, r.facts.items())))
             for r in result.resources],
            [f.sort_key() for f in result.findings], result.diagnostics)


def _opts(cache_dir: Path) -> Settings:
    return Settings(scan=ScanSettings(jobs=1, cache_dir=str(cache_dir)))


class _Payload:
    """An entry an attacker plants: loading it with plain pickle would create `marker`."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return open, (self.marker, "w")


def test_a_planted_entry_runs_no_code_and_is_parsed_again(tmp_path: Path) -> None:
    rules = load_rules()
    cold = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    marker = tmp_path / "pwned"
    db = sqlite3.connect(tmp_path / "cache" / cache_mod.ParseCache.FILE)
    blob = pickle.dumps(_Payload(str(marker)))
    db.execute("UPDATE parse SET blob = ?", (blob,))
    db.commit()
    db.close()
    with pytest.raises(pickle.UnpicklingError):
        cache_mod.load_entry(blob)
    assert summary(scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))) == summary(cold)
    assert not marker.exists()


def test_the_cache_directory_is_private(tmp_path: Path) -> None:
    scan.run([EXAMPLES], load_rules(), _opts(tmp_path / "new"))
    assert stat.S_IMODE(os.stat(tmp_path / "new").st_mode) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    scan.run([EXAMPLES], load_rules(), _opts(shared))
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o700


def test_a_locked_database_means_uncached_not_corrupt(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules()
    cold = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    gc.collect()  # closes the finished scan's connection
    other = sqlite3.connect(tmp_path / "cache" / cache_mod.ParseCache.FILE,
                            isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")  # another run holds the database
    monkeypatch.setattr(cache_mod.ParseCache, "BUSY_SECONDS", 0.1)
    assert summary(scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))) == summary(cold)
    assert not list((tmp_path / "cache").glob("*.corrupt"))
    other.execute("SELECT count(*) FROM parse").fetchone()  # its transaction goes on
    other.execute("COMMIT")
    other.close()


def test_out_of_memory_is_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules()
    expected = summary(scan.run([EXAMPLES], rules, Settings(scan=ScanSettings(jobs=1))))
    real = source._parse_terraform

    def out_of_memory(kind: str, text: str) -> source.Parsed:
        raise MemoryError

    monkeypatch.setattr(source, "_parse_terraform", out_of_memory)
    starved = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    assert any("too large to parse in memory" in d.message for d in starved.diagnostics)
    monkeypatch.setattr(source, "_parse_terraform", real)
    assert summary(scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))) == expected
