"""Content-addressed cache of parse outcomes, so a re-run skips parsing unchanged files.

An entry's key is the sha256 of the file's bytes, its kind and the parser identity (gpulint's
version, the parsing libraries' versions and a hash of gpulint's own parser sources), so a
changed file, a new gpulint or a new python-hcl2 never gets an old result.

Entries live in one SQLite database in WAL mode: a run's new entries go in one transaction, so
concurrent runs never see half an entry and wait for each other's writes (busy timeout) instead
of failing. One file per entry was tried first: creating a file costs about 1.5 ms on the
benchmark machine, more than parsing a small file, while SQLite stores 2,500 entries in ~10 ms.
A database that is not a database (corrupted, truncated) is set aside and recreated; one that is
busy or locked by another process, cannot be opened, or sits in a directory owned by another
user is not used: the run goes on uncached.

Whoever can write the cache (a shared runner, a CI cache restored from another branch) must not
run code in the next scan: an entry is JSON data (cache_codec.py) decoded into syntax nodes and
plain values only, never a pickle, and one that is malformed, of another format, or stored under
a key other than its own is ignored and the file parsed again. The directory is created private
(0700). An outcome of the run's conditions (out of memory, a time limit) is never stored.
"""

from __future__ import annotations

import hashlib
import os
import stat
from functools import lru_cache
from typing import Any

from gpulint import __version__
from gpulint.files.reader import read_file
from gpulint.load import cache_codec
from gpulint.load.source import Parsed

ENV_DIR = "GPULINT_CACHE_DIR"
# Modules whose code decides what a file parses to; editing one invalidates the cache.
_PARSER_MODULES = ("gpulint.load.source", "gpulint.load.kubernetes", "gpulint.terraform.parser",
                   "gpulint.terraform.lark_tree", "gpulint.terraform.syntax", "gpulint.model",
                   "gpulint.load.cache_codec", "gpulint.terraform.heredoc",
                   "gpulint.terraform.template", "gpulint.files.json_input")
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
            h.update(hashlib.sha256(read_file(origin)).digest())
    return h.hexdigest()


def _private_dir(path: str) -> bool:
    """Create `path` 0700 (or make ours so); False when it belongs to another user."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.stat(path)
    getuid = getattr(os, "getuid", None)
    if not stat.S_ISDIR(st.st_mode) or (getuid is not None and st.st_uid != getuid()):
        return False
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return True


class ParseCache:
    FILE = "parse-v2.sqlite"  # v1 held pickles: never read
    BUSY_SECONDS = 30.0  # how long to wait for another run's write before running uncached

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

        if not _private_dir(self.root):
            raise OSError(f"cache directory {self.root} belongs to another user")
        db = sqlite3.connect(self.path, timeout=self.BUSY_SECONDS, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a lost entry on power loss is harmless
            db.execute(
                "CREATE TABLE IF NOT EXISTS parse (key TEXT PRIMARY KEY, entry BLOB NOT NULL)")
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
        except sqlite3.OperationalError:
            # Busy, locked, cannot be opened: another process may be using it, so run uncached.
            self._unusable = True
        except sqlite3.DatabaseError:
            if not self._set_aside():
                self._unusable = True
        except (OSError, sqlite3.Error):
            self._unusable = True  # read-only or missing home, full disk: run uncached
        return self._db

    def _set_aside(self) -> bool:
        """Move a damaged database away and start a new one; False when that fails."""
        import sqlite3

        try:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(self.path + suffix):
                    os.replace(self.path + suffix, self.path + suffix + ".corrupt")
            self._db = self._connect()
        except (OSError, sqlite3.Error):
            return False
        return True

    def get(self, key: str) -> Parsed | str | None:
        """The cached outcome, or None when absent or unusable (then the file is re-parsed)."""
        import sqlite3

        db = self._conn()
        row = None
        if db is not None:
            try:
                row = db.execute("SELECT entry FROM parse WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error:
                row = None
        if row is None or not isinstance(row[0], bytes):
            self.misses += 1
            return None
        try:
            value = cache_codec.decode(key, row[0])
        except cache_codec.EntryError:  # damaged or planted: parse again (and overwrite it)
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: Parsed | str) -> None:
        """Queue an entry (`flush` writes the queue in one transaction); an outcome that
        depends on this run's conditions, or holds what the format cannot, is not stored."""
        if isinstance(value, Parsed) and value.transient:
            return
        try:
            self._pending.append((key, cache_codec.encode(key, value)))
        except cache_codec.EntryError:
            pass

    def flush(self) -> None:
        import sqlite3

        pending, self._pending = self._pending, []
        db = self._conn() if pending else None
        if db is None:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany("INSERT OR REPLACE INTO parse (key, entry) VALUES (?, ?)", pending)
            db.execute("COMMIT")
        except sqlite3.Error:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
