"""What a scan may read: the files under its roots, and nothing a symbolic link leads out to.

A pull request can add `x.auto.tfvars -> /run/secrets/token` or `modules -> /`: following either
would copy host files into the report and the PR comment. The root of a scanned path is its
repository (the nearest directory holding `.git`), so a module in `../modules` of a scanned
environment is still read, or the path itself outside any repository. Files named by the person
running the scan (`--var-file`) are allowed as given, but not through a link.

Version-control metadata (`.git/`, `.hg/`, `.svn/`) is never part of the tree, whatever the
spelling or the link that leads there: `actions/checkout` leaves the job's token in
`.git/config`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

_roots: tuple[str, ...] = ()
_allowed: frozenset[str] = frozenset()
_real_dirs: dict[str, str] = {}  # directory -> its real path, one realpath per directory

OUTSIDE = "symbolic link leads outside the scanned tree, not followed"
VCS_DIRS = frozenset({".git", ".hg", ".svn"})


def repository_root(path: str) -> str | None:
    """The nearest directory at or above `path` holding `.git`, or None."""
    current = os.path.realpath(path)
    if not os.path.isdir(current):
        current = os.path.dirname(current)
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def report_root(paths: Iterable[str]) -> str:
    """The repository root of a scan of `paths`, which report paths, SARIF URIs, baseline
    entries and PR comment links are relative to: the git top level (the nearest directory
    holding `.git`, found by walking up, never by reading it), else the scanned directory (the
    deepest one holding every scanned path), else the working directory. A real path."""
    real = [os.path.realpath(p) for p in paths if p != "-" and os.path.exists(p)]
    if not real:
        cwd = os.path.realpath(os.getcwd())
        return repository_root(cwd) or cwd
    dirs = [p if os.path.isdir(p) else os.path.dirname(p) for p in real]
    try:
        common = os.path.commonpath(dirs)
    except ValueError:  # paths on different drives: the first one's
        common = dirs[0]
    return repository_root(common) or common


def shown_path(path: str, root: str, base: str | None = None) -> str:
    """A path (relative to `base`, default the working directory) as reports show it: relative
    to `root` with forward slashes, or as given when it is outside `root` or names no file
    (`<stdin>`, `<command line>`)."""
    if not path or path.startswith("<"):
        return path
    full = os.path.normpath(os.path.join(base or os.getcwd(), path))
    # As spelled first (a file reached through a link keeps the link's name), else as the real
    # path, for a root or working directory spelled through a link (/tmp on macOS).
    for candidate in (full, os.path.realpath(full)):
        rel = os.path.relpath(candidate, root)
        if not (rel == ".." or rel.startswith(".." + os.sep) or os.path.isabs(rel)):
            return rel.replace(os.sep, "/")
    return path


def root_of(path: str) -> str:
    """The directory a scan of `path` is confined to."""
    repo = repository_root(path)
    if repo is not None:
        return repo
    real = os.path.realpath(path)
    return real if os.path.isdir(real) else os.path.dirname(real)


@contextmanager
def confined(paths: Iterable[str], allowed_files: Iterable[str] = ()) -> Iterator[None]:
    """Confine every read of the scan to the roots of `paths` (nested scans keep the outer
    confinement's roots too)."""
    global _roots, _allowed
    saved = _roots, _allowed
    _roots = tuple(sorted({*_roots, *(root_of(p) for p in paths if os.path.exists(p))}))
    _allowed = _allowed | {os.path.abspath(p) for p in allowed_files}
    _real_dirs.clear()
    try:
        yield
    finally:
        _roots, _allowed = saved
        _real_dirs.clear()


def in_vcs(real: str, roots: Iterable[str]) -> bool:
    """Whether a real path lies in version-control metadata below one of `roots` (a case-folding
    file system reads `.GIT/config` as `.git/config`)."""
    for root in roots:
        top = root.rstrip(os.sep) + os.sep
        if real.startswith(top) and any(part.lower() in VCS_DIRS
                                        for part in real[len(top):].split(os.sep)):
            return True
    return False


def _inside(real: str) -> bool:
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in _roots) \
        and not in_vcs(real, _roots)


def real_path(path: str) -> str:
    """`os.path.realpath`, with the directory part cached: one lstat per file, not per
    component."""
    absolute = os.path.abspath(path)
    directory, name = os.path.split(absolute)
    real_dir = _real_dirs.get(directory)
    if real_dir is None:
        real_dir = _real_dirs[directory] = os.path.realpath(directory)
    joined = os.path.join(real_dir, name)
    return os.path.realpath(joined) if os.path.islink(joined) else joined


def escapes(path: str) -> bool:
    """Whether reading `path` would leave the scan's roots (False when no scan is confined)."""
    if not _roots:
        return False
    real = real_path(path)
    if _inside(real):
        return False
    return real not in _allowed or os.path.islink(path)
