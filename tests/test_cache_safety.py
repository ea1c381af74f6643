"""The parse cache is written by whoever can write its directory: an entry never runs code, the
directory is private, a database busy in another run is left alone, and an out-of-memory
outcome is not remembered as the file's."""

from __future__ import annotations

import gc
import json
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
from gpulint.load import cache_codec, source
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


def _rows(cache_dir: Path) -> list[tuple[str, bytes]]:
    db = sqlite3.connect(cache_dir / cache_mod.ParseCache.FILE)
    rows = db.execute("SELECT key, entry FROM parse ORDER BY key").fetchall()
    db.close()
    return rows


def _plant(cache_dir: Path, entries: dict[str, bytes]) -> None:
    db = sqlite3.connect(cache_dir / cache_mod.ParseCache.FILE)
    db.executemany("UPDATE parse SET entry = ? WHERE key = ?",
                   [(v, k) for k, v in entries.items()])
    db.commit()
    db.close()


def test_a_planted_pickle_runs_no_code_and_is_parsed_again(tmp_path: Path) -> None:
    rules = load_rules()
    cold = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    marker = tmp_path / "pwned"
    blob = pickle.dumps(_Payload(str(marker)))
    _plant(tmp_path / "cache", {k: blob for k, _ in _rows(tmp_path / "cache")})
    with pytest.raises(cache_codec.EntryError):
        cache_codec.decode("k", blob)
    warm = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    assert summary(warm) == summary(cold)
    assert not marker.exists()


def test_an_entry_moved_to_another_files_key_is_ignored(tmp_path: Path) -> None:
    """An empty outcome (the entry of a file without GPUs) copied over every row would empty
    the report if entries were trusted under any key."""
    rules = load_rules()
    cold = scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))
    assert cold.findings
    rows = _rows(tmp_path / "cache")
    elsewhere = "0" * 64
    empty = {k: cache_codec.encode(elsewhere, source.Parsed(json.loads(e).get("kind", "x")))
             for k, e in rows}
    assert all(cache_codec.decode(elsewhere, e) == source.Parsed(json.loads(rows[0][1])["kind"])
               for e in list(empty.values())[:1])
    _plant(tmp_path / "cache", empty)
    assert summary(scan.run([EXAMPLES], rules, _opts(tmp_path / "cache"))) == summary(cold)


@pytest.mark.parametrize("forged", [
    '{"format":1,"key":"K","kind":"terraform","diags":[],"docs":[],"tagged":false,'
    '"root":["resource",[],1,1,[["x",["Z",1],1]],[]]}',  # an unknown node code
    '{"format":1,"key":"K","kind":"terraform","diags":[],"docs":[],"tagged":false,'
    '"root":["resource",[],1,1,[["x",["L"],1]],[]]}',  # a node missing a field
    '{"format":1,"key":"K","kind":"kubernetes","diags":[[1,2,3]],"docs":[],"tagged":false,'
    '"root":null}',  # a diagnostic that is not text
    '{"format":1,"key":"K","kind":"kubernetes","diags":[],"docs":[[1,{"\\u0000":'
    '["callable","os.system"]}]],"tagged":true,"root":null}',  # an unknown value tag
    '{"format":2,"key":"K","text":"x"}',  # another format
    '["not", "an", "entry"]', "not json", '{"format":1,"key":"K","kind":"terraform"}',
])
def test_malformed_entries_are_refused(forged: str) -> None:
    with pytest.raises(cache_codec.EntryError):
        cache_codec.decode("K", forged.encode())


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


def test_values_json_cannot_hold_come_back_the_same() -> None:
    """YAML timestamps, !!binary, !!set, non-string keys, NaN and a key that looks like the
    format's tag survive a round trip; anything else is not cached rather than changed."""
    import datetime

    docs = [(1, {"apiVersion": "v1", "kind": "Pod", "when": datetime.date(2020, 1, 2),
                 "at": datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
                 "blob": b"\x00\xff", "set": {"a", "b"}, 1: [True, None, 1.5], None: "x",
                 "\u0000": {"nan": float("inf")}, "t": (1, "2")})]
    parsed = source.Parsed("kubernetes", docs=docs, diags=[(3, "note", "info")])
    back = cache_codec.decode("k", cache_codec.encode("k", parsed))
    assert back == parsed
    nan = cache_codec.decode("k", cache_codec.encode("k", source.Parsed(
        "kubernetes", docs=[(1, {"v": float("nan")})])))
    assert isinstance(nan, source.Parsed) and nan.docs[0][1]["v"] != nan.docs[0][1]["v"]
    with pytest.raises(cache_codec.EntryError):
        cache_codec.encode("k", source.Parsed("kubernetes", docs=[(1, {"v": object()})]))
    assert cache_codec.decode("k", cache_codec.encode("k", "rendered: yaml")) == "rendered: yaml"


def test_every_syntax_node_has_a_decoder_of_its_arity() -> None:
    import dataclasses

    assert set(cache_codec._DECODE) == set(cache_codec._NODES)
    for code, (arity, _) in cache_codec._DECODE.items():
        assert arity == len(dataclasses.fields(cache_codec._NODES[code])) + 1, code
