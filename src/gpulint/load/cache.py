"""Content-addressed cache of parse outcomes, so a re-run skips parsing unchanged files.

An entry's key is the sha256 of the file's bytes, its kind and the parser identity (gpulint's
version, the parsing libraries' versions and a hash of gpulint's own parser sources), so a
changed file, a new gpulint or a new python-hcl2 never gets an old result.

Entries live in one SQLite database in WAL mode: a run's new entries go in one transaction, so
concurrent runs never see half an entry and wait for each other's writes (busy timeout) instead
of failing. One file per entry was tried first: creating a file costs about 1.5 ms on the
benchmark machine, more than parsing a small file, while SQLite stores 2,500 entries in ~10 ms.
An entry that cannot be unpickled is ignored and re-parsed; a database that cannot be opened or
is not a database is set aside and recreated, or, failing that, the run goes on uncached.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from typing import Any

from gpulint import __version__

ENV_DIR = "GPULINT_CACHE_DIR"
# Modules whose code decides what a file parses to; editing one invalidates the cache.
_PARSER_MODULES = ("gpulint.load.source", "gpulint.load.kubernetes", "gpulint.terraform.parser",
                   "gpulint.terraform.lark_tree", "gpulint.terraform.syntax", "gpulint.model")
_LIBRARIES = ("python-hcl2", "lark", "PyYAML")


def default_dir() -> str:
    """$GPULINT_CACHE_DIR, else $XDG_CACHE_HOME/gpulint, else ~/.cache/gpulint."""
    if os.environ.get(ENV_DIR):
        return os.environ[ENV_DIR]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gpulint")


@lru_cache(maxsize=1)
def parser_identity() -> str:
    """Everything besides a file's bytes that its parse outcome depends on."""
    from importlib import metadata
    from importlib.util import find_spec

    h = hashlib.sha256(f"gpulint {__version__}\n".encode())
    for lib in _LIBRARIES:
        try:
            h.update(f"{lib} {metadata.version(lib)}\n".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{lib} absent\n".encode())
    try:
        import yaml

        h.update(f"libyaml {getattr(yaml, '__with_libyaml__', False)}\n".encode())
    except ImportError:  # pragma: no cover
        pass
    for name in _PARSER_MODULES:
        spec = find_spec(name)
        origin = spec.origin if spec else None
        if origin and os.path.isfile(origin):
            with open(origin, "rb") as fh:
                h.update(hashlib.sha256(fh.read()).digest())
    return h.hexdigest()


class ParseCache:
    FILE = "parse-v1.sqlite"

    def __init__(self, directory: str) -> None:
        self.root = directory
        self.path = os.path.join(directory, self.FILE)
        self.hits = 0
        self.misses = 0
        self._db: Any = None
        self._unusable = False
        self._pending: list[tuple[str, bytes]] = []

    def key(self, kind: str, data: bytes) -> str:
        h = hashlib.sha256(parser_identity().encode())
        h.update(kind.encode() + b"\0")
        h.update(data)
        return h.hexdigest()

    def _connect(self) -> Any:
        import sqlite3

        os.makedirs(self.root, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a lost entry on power loss is harmless
            db.execute(
                "CREATE TABLE IF NOT EXISTS parse (key TEXT PRIMARY KEY, blob BLOB NOT NULL)")
        except BaseException:
            db.close()
            raise
        return db

    def _conn(self) -> Any:
        if self._db is not None or self._unusable:
            return self._db
        import sqlite3

        try:
            self._db = self._connect()
        except sqlite3.DatabaseError:
            # Not a database (corrupted, truncated): set it aside and start again.
            try:
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(self.path + suffix):
                        os.replace(self.path + suffix, self.path + suffix + ".corrupt")
                self._db = self._connect()
            except (OSError, sqlite3.Error):
                self._unusable = True
        except (OSError, sqlite3.Error):
            self._unusable = True  # read-only or missing home, full disk: run uncached
        return self._db

    def get(self, key: str) -> Any | None:
        """The cached outcome, or None when absent or unreadable (then the file is re-parsed)."""
        import sqlite3

        db = self._conn()
        row = None
        if db is not None:
            try:
                row = db.execute("SELECT blob FROM parse WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error:
                row = None
        if row is None:
            self.misses += 1
            return None
        try:
            value = pickle.loads(row[0])
        except Exception:  # a damaged entry: parse again (and overwrite it)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, blob: bytes) -> None:
        """Queue an entry; `flush` writes the queue in one transaction."""
        self._pending.append((key, blob))

    def flush(self) -> None:
        import sqlite3

        pending, self._pending = self._pending, []
        db = self._conn() if pending else None
        if db is None:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT OR REPLACE INTO parse (key, blob) VALUES (?, ?)", pending)
            db.execute("COMMIT")
        except sqlite3.Error:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
