"""Content-addressed cache of parse outcomes, so a re-run skips parsing unchanged files.

An entry's key is the sha256 of the file's bytes, its kind and the parser identity (gpulint's
version, the parsing libraries' versions and a hash of gpulint's own parser sources), so a
changed file, a new gpulint or a new python-hcl2 never gets an old result. Entries are written to
a temporary file and renamed into place, so concurrent runs never read a half-written entry; an
entry that cannot be read or unpickled is ignored and re-parsed.
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
_PARSER_MODULES = ("gpulint.parse.source", "gpulint.parse.kubernetes", "gpulint.terraform.parser",
                   "gpulint.terraform.syntax", "gpulint.model")
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
    def __init__(self, directory: str) -> None:
        self.root = directory
        self.directory = os.path.join(directory, "parse-v1")
        self.hits = 0
        self.misses = 0
        self._writable = True
        self._folders: set[str] = set()  # created in this run: no makedirs call per entry
        self._count = 0

    def key(self, kind: str, data: bytes) -> str:
        h = hashlib.sha256(parser_identity().encode())
        h.update(kind.encode() + b"\0")
        h.update(data)
        return h.hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key[2:])

    def get(self, key: str) -> Any | None:
        """The cached outcome, or None when absent or unreadable (then the file is re-parsed)."""
        try:
            with open(self._path(key), "rb") as fh:
                blob = fh.read()
            value = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - missing, truncated or corrupted: parse again
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, blob: bytes) -> None:
        """Store pickled bytes atomically. A read-only or full disk just means no caching."""
        if not self._writable:
            return
        target = self._path(key)
        folder = os.path.dirname(target)
        self._count += 1
        # Unique per process and entry; O_EXCL never reuses a leftover of a crashed run.
        tmp = os.path.join(folder, f".tmp-{os.getpid()}-{self._count}")
        try:
            if folder not in self._folders:
                os.makedirs(folder, exist_ok=True)
                self._folders.add(folder)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return  # a leftover temporary file: skip this entry
        except OSError:
            self._writable = False
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
            os.replace(tmp, target)
        except OSError:
            self._writable = False
            try:
                os.unlink(tmp)
            except OSError:
                pass
