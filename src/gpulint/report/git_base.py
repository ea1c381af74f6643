"""Read the files of a git revision into a temporary directory without touching the work tree.

`git archive REF` streams the revision as a tar; only regular files up to the scan's size limit
are written, and nothing leaves the destination directory.
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from dataclasses import dataclass


class GitError(Exception):
    """git is missing, the directory is not a repository, or the revision does not exist."""


def _git(args: list[str], cwd: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    if done.returncode != 0:
        raise GitError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout


def repo_root(cwd: str = ".") -> str:
    try:
        return os.path.realpath(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    except GitError as e:
        raise GitError(f"not inside a git repository ({e})") from None


def resolve(ref: str, root: str) -> str:
    try:
        return _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], root).strip()
    except GitError:
        raise GitError(f"unknown git revision {ref!r}") from None


def _safe(name: str) -> bool:
    parts = name.split("/")
    return not name.startswith("/") and ".." not in parts


def extract(commit: str, root: str, dest: str, max_file_bytes: int) -> int:
    """Write the revision's regular files (up to ``max_file_bytes`` each) under ``dest``.
    Returns the number of files written."""
    try:
        proc = subprocess.Popen(["git", "archive", "--format=tar", commit], cwd=root,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise GitError("git is not installed or not on PATH") from None
    written = 0
    assert proc.stdout is not None
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        for member in tar:
            if not member.isfile() or member.size > max_file_bytes or not _safe(member.name):
                continue
            src = tar.extractfile(member)
            if src is None:
                continue
            target = os.path.join(dest, *member.name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(src.read())
            written += 1
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.wait() != 0:
        raise GitError(err.strip() or "git archive failed")
    return written


@dataclass(frozen=True)
class PathMap:
    """Where a user path (relative to the current directory) lives in the base tree."""

    root: str  # the repository's work tree
    base_dir: str  # the extracted revision

    def to_base(self, path: str) -> str | None:
        """The path inside the base tree, or None when it is outside the repository."""
        rel = os.path.relpath(os.path.realpath(path), self.root)
        if rel == ".." or rel.startswith(".." + os.sep):
            return None
        return os.path.normpath(os.path.join(self.base_dir, rel))

    def to_head(self, base_path: str) -> str:
        """A path of the base tree shown as the same file of the work tree would be."""
        rel = os.path.relpath(os.path.abspath(base_path), self.base_dir)
        head = os.path.join(self.root, rel)
        shown = os.path.relpath(head)
        return head if shown.startswith("..") else shown
