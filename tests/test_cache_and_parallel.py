"""The parse cache and the process pool change speed, never results."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.config.settings import ScanSettings, Settings
from gpulint.load import cache as cache_mod
from gpulint.load import parallel
from gpulint.ruleset import load_rules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import generate  # noqa: E402

pytestmark = pytest.mark.slow

EXAMPLES = os.path.join(ROOT, "examples")


def report(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    result = CliRunner(env=env).invoke(cli, ["scan", "--format", "json", "--fail-on", "never",
                                             *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def summary(result: scan.ScanResult) -> Any:
    return ([(r.address, r.path, r.line, sorted(map(str, r.facts.items())))
             for r in result.resources],
            [f.sort_key() for f in result.findings], result.diagnostics)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A generated repository large enough to take the parallel path (about 270 files)."""
    out = str(tmp_path_factory.mktemp("bench") / "repo")
    generate.generate(out, factor=0.1)
    return out


def test_parallel_json_report_is_identical_to_serial(repo: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    pools = []

    class Counting(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *a: Any, **k: Any) -> None:
            pools.append(k.get("max_workers"))
            super().__init__(*a, **k)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counting)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_SECONDS", 0.05)  # keep the test repository small
    serial = report("--no-cache", "--jobs", "1", repo)
    assert not pools
    parallel_ = report("--no-cache", "--jobs", "2", repo)
    assert pools == [2], "the large scan should have used a pool of two workers"
    assert serial["resources"] and serial["findings"]
    assert parallel_ == serial


def test_small_scans_do_not_start_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    def fail(*a: Any, **k: Any) -> None:
        raise AssertionError("a pool was started for a small scan")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", fail)
    report("--no-cache", "--jobs", "2", EXAMPLES)


def test_warm_run_parses_nothing_and_reports_the_same(repo: str, tmp_path: Any,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules()
    opts = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path)))
    cold = scan.run([repo], rules, opts)

    def no_parsing(kind: str, data: bytes) -> bytes:
        raise AssertionError("a warm run must not parse")

    monkeypatch.setattr(parallel, "parse_to_bytes", no_parsing)
    warm = scan.run([repo], rules, opts)
    assert summary(warm) == summary(cold)


def test_changed_file_is_parsed_again(tmp_path: Any) -> None:
    src = tmp_path / "src"
    src.mkdir()
    tf = src / "main.tf"
    tf.write_text('resource "aws_instance" "a" {\n  instance_type = "p4d.24xlarge"\n}\n')
    rules = load_rules()
    opts = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path / "cache")))
    first = scan.run([str(src)], rules, opts)
    assert first.resources[0].facts["instance.type"] == "p4d.24xlarge"
    tf.write_text('resource "aws_instance" "a" {\n  instance_type = "g5.xlarge"\n}\n')
    second = scan.run([str(src)], rules, opts)
    assert second.resources[0].facts["instance.type"] == "g5.xlarge"


def test_same_bytes_under_another_path_report_their_own_path(tmp_path: Any) -> None:
    text = 'resource "aws_instance" "a" {\n  instance_type = "p4d.24xlarge"\n}\n'
    for d in ("one", "two"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "main.tf").write_text(text)
    opts = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path / "cache")))
    rules = load_rules()
    scan.run([str(tmp_path / "one")], rules, opts)
    again = scan.run([str(tmp_path / "two")], rules, opts)
    assert [r.path for r in again.resources] == [str(tmp_path / "two" / "main.tf")]


def test_corrupted_cache_entries_are_ignored(tmp_path: Any) -> None:
    import sqlite3

    rules = load_rules()
    opts = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path / "cache")))
    cold = scan.run([EXAMPLES], rules, opts)
    db = sqlite3.connect(tmp_path / "cache" / cache_mod.ParseCache.FILE)
    keys = [k for (k,) in db.execute("SELECT key FROM parse")]
    assert keys
    for i, key in enumerate(keys):
        blob = b"not an entry at all" if i % 2 else b"\x80\x05\x95"  # garbage, truncated
        db.execute("UPDATE parse SET entry = ? WHERE key = ?", (blob, key))
    db.commit()
    db.close()
    assert summary(scan.run([EXAMPLES], rules, opts)) == summary(cold)
    assert summary(scan.run([EXAMPLES], rules, opts)) == summary(cold)  # rewritten entries


def test_a_cache_file_that_is_not_a_database_is_replaced(tmp_path: Any) -> None:
    rules = load_rules()
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / cache_mod.ParseCache.FILE).write_bytes(b"garbage " * 1000)
    opts = Settings(scan=ScanSettings(jobs=1, cache_dir=str(cache_dir)))
    expected = summary(scan.run([EXAMPLES], rules, Settings(scan=ScanSettings(jobs=1))))
    assert summary(scan.run([EXAMPLES], rules, opts)) == expected
    store = cache_mod.ParseCache(str(cache_dir))
    assert store.get(store.key("terraform", open(os.path.join(
        EXAMPLES, "terraform", "main.tf"), "rb").read())) is not None


def test_key_depends_on_content_kind_and_parser_identity(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Any) -> None:
    store = cache_mod.ParseCache(str(tmp_path))
    base = store.key("terraform", b"x = 1\n")
    assert base == store.key("terraform", b"x = 1\n")
    assert base != store.key("terraform", b"x = 2\n")
    assert base != store.key("terraform-json", b"x = 1\n")
    monkeypatch.setattr(cache_mod, "parser_identity", lambda: "another python-hcl2")
    assert base != store.key("terraform", b"x = 1\n")


def test_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache_mod.ENV_DIR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere/cache")
    assert cache_mod.default_dir() == os.path.join("/somewhere/cache", "gpulint")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", "/home/u")
    assert cache_mod.default_dir() == os.path.join("/home/u", ".cache", "gpulint")
    monkeypatch.setenv(cache_mod.ENV_DIR, "/explicit")
    assert cache_mod.default_dir() == "/explicit"


def test_no_cache_writes_nothing(tmp_path: Any) -> None:
    cache_dir = tmp_path / "cache"
    report("--no-cache", EXAMPLES, env={cache_mod.ENV_DIR: str(cache_dir)})
    assert not cache_dir.exists()
    report(EXAMPLES, env={cache_mod.ENV_DIR: str(cache_dir)})
    assert (cache_dir / cache_mod.ParseCache.FILE).is_file()


def test_unwritable_cache_directory_is_not_an_error(tmp_path: Any) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    got = report(EXAMPLES, env={cache_mod.ENV_DIR: str(blocker / "sub")})
    assert got == report("--no-cache", EXAMPLES)


def test_concurrent_runs_share_the_cache_safely(repo: str, tmp_path: Any) -> None:
    env = {**os.environ, cache_mod.ENV_DIR: str(tmp_path / "cache"),
           "PYTHONPATH": os.path.join(ROOT, "src")}
    cmd = [sys.executable, "-m", "gpulint", "scan", "--format", "json", "--fail-on", "never",
           "--jobs", "1", repo]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, env=env) for _ in range(3)]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs[0] == outs[1] == outs[2]
    rerun = subprocess.run(cmd, capture_output=True, env=env, check=True, timeout=300).stdout
    assert rerun == outs[0]


def test_each_file_is_read_and_parsed_once(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpulint.files import text as source

    parsed: list[bytes] = []
    reads: list[str] = []
    real_parse, real_read = parallel.parse_to_bytes, source.read_bytes

    def counting_parse(kind: str, data: bytes) -> bytes:
        parsed.append(data)
        return real_parse(kind, data)

    def counting_read(path: str, limit: int) -> Any:
        reads.append(os.path.realpath(path))
        return real_read(path, limit)

    monkeypatch.setattr(parallel, "parse_to_bytes", counting_parse)
    monkeypatch.setattr(parallel, "read_bytes", counting_read)
    monkeypatch.chdir(os.path.dirname(repo))
    scan.run([os.path.basename(repo)], load_rules(), Settings(scan=ScanSettings(jobs=1)))
    on_disk = [os.path.realpath(os.path.join(d, n)) for d, _, names in os.walk(repo)
               for n in names if n.endswith((".tf", ".yaml", ".tfvars"))]
    assert sorted(reads) == sorted(on_disk)
    assert len(parsed) == len(on_disk)


def test_pool_failure_falls_back_to_serial(repo: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures

    def no_processes(*a: Any, **k: Any) -> None:
        raise OSError("fork: resource temporarily unavailable")

    expected = report("--no-cache", "--jobs", "1", repo)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_SECONDS", 0.05)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_processes)
    assert report("--no-cache", "--jobs", "2", repo) == expected
