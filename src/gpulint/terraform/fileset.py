"""Terraform's `fileset(path, pattern)`: the regular files under `path` whose path relative to
it matches a glob, as a sorted list of forward-slash paths.

Patterns are Terraform's: `*` and `?` within one path component, `**` as a whole component for
any number of directories (elsewhere it is `*`), `[class]` and `[^class]`/`[!class]`,
`{alt,alt}` and `\\` escapes. Directories are listed only under the scanned tree: a link whose
real path leaves it is skipped, never followed, and each real directory is walked once (a
link back up the tree cannot loop). A missing directory gives no files, as in Terraform.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from gpulint.terraform import bounds

MAX_FILESET_FILES = 10_000  # paths one fileset() call returns
MAX_FILESET_ENTRIES = 100_000  # directory entries one call may list
MAX_FILESET_ALTERNATIVES = 256  # patterns after `{a,b}` alternatives are expanded

Inside = Callable[[str], bool]  # is this real path inside the scanned tree?


class GlobError(ValueError):
    """A pattern that cannot be read, or a walk beyond the bounds."""


def expand_braces(pattern: str) -> list[str]:
    """`a{b,c}d` as [abd, acd], innermost-first, nested braces included."""
    out, todo = [], [pattern]
    while todo:
        p = todo.pop()
        span = _brace_span(p)
        if span is None:
            out.append(p)
            continue
        start, end, alts = span
        todo.extend(p[:start] + alt + p[end + 1:] for alt in reversed(alts))
        if len(out) + len(todo) > MAX_FILESET_ALTERNATIVES:
            raise GlobError(f"pattern expands to more than {MAX_FILESET_ALTERNATIVES} "
                            "alternatives (gpulint's limit)")
    return out


def _brace_span(p: str) -> tuple[int, int, list[str]] | None:
    """The first top-level `{…}` (start, end, its comma-separated alternatives)."""
    i, start, depth, cuts = 0, -1, 0, []
    while i < len(p):
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "," and depth == 1:
            cuts.append(i)
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                bounds_ = [start, *cuts, i]
                return start, i, [p[a + 1:b] for a, b in pairwise(bounds_)]
        i += 1
    if depth:
        raise GlobError("unclosed '{' in the pattern")
    return None


def component_regex(part: str) -> Any:
    """One path component of a pattern as a regular expression."""
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            while i + 1 < len(part) and part[i + 1] == "*":
                i += 1  # `**` inside a component is `*`; runs of stars match the same
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end, cls = _char_class(part, i)
            out.append(cls)
            i = end
        elif c == "\\" and i + 1 < len(part):
            i += 1
            out.append(re.escape(part[i]))
        else:
            out.append(re.escape(c))
        i += 1
    try:
        return bounds.compile_user("(?s)" + "".join(out))
    except bounds.LimitExceeded as e:
        raise GlobError(str(e)) from None


def _char_class(part: str, i: int) -> tuple[int, str]:
    """Index of the `]` closing the class at `i`, and the class as a regex."""
    j = i + 1
    negate = j < len(part) and part[j] in "^!"
    j += negate
    body: list[str] = []
    while j < len(part) and (part[j] != "]" or not body):
        if part[j] == "\\" and j + 1 < len(part):
            j += 1
        ch = part[j]
        body.append(ch if ch == "-" else re.escape(ch))
        j += 1
    if j >= len(part) or not body:
        raise GlobError("unclosed '[' in the pattern")
    return j, f"[{'^' if negate else ''}{''.join(body)}]"  # names hold no '/': no exclusion


class _Walk:
    """Directory listings of one call, each real directory listed once, under the bounds."""

    def __init__(self, inside: Inside) -> None:
        self.inside = inside
        self.entries = 0
        self.listed: dict[str, list[tuple[str, str, bool]]] = {}

    def children(self, real_dir: str) -> list[tuple[str, str, bool]]:
        """(name, real path, is a directory) of each entry inside the tree."""
        if real_dir in self.listed:
            return self.listed[real_dir]
        found: list[tuple[str, str, bool]] = []
        self.listed[real_dir] = found  # a link back here sees it listed: no loop
        try:
            with os.scandir(real_dir) as it:
                names = [e.name for e in it]
        except OSError:
            return found
        self.entries += len(names)
        bounds.charge(len(names))
        if self.entries > MAX_FILESET_ENTRIES:
            raise GlobError(f"lists more than {MAX_FILESET_ENTRIES:,} directory entries "
                            "(gpulint's limit)")
        for name in sorted(names):
            real = os.path.realpath(os.path.join(real_dir, name))
            if not self.inside(real):
                continue  # a link out of the tree is not followed
            if os.path.isdir(real):
                found.append((name, real, True))
            elif os.path.isfile(real):
                found.append((name, real, False))
        return found


def _match(walk: _Walk, real_dir: str, parts: list[str], prefix: str, out: set[str],
           seen: set[tuple[str, int]]) -> None:
    if not parts or (real_dir, len(parts)) in seen:
        return
    seen.add((real_dir, len(parts)))
    head, rest = parts[0], parts[1:]
    if head == "**":
        if rest:
            _match(walk, real_dir, rest, prefix, out, seen)
        for name, real, is_dir in walk.children(real_dir):
            if is_dir:
                _match(walk, real, parts, f"{prefix}{name}/", out, seen)
            elif not rest:
                _add(out, prefix + name)
        return
    if head in (".", ""):
        _match(walk, real_dir, rest, prefix, out, seen)
        return
    rx = component_regex(head)
    for name, real, is_dir in walk.children(real_dir):
        if _matches(rx, name):
            if is_dir and rest:
                _match(walk, real, rest, f"{prefix}{name}/", out, seen)
            elif not is_dir and not rest:
                _add(out, prefix + name)


def _matches(rx: Any, name: str) -> bool:
    """A component pattern against one name, under the time limit of repository regexes."""
    return bool(bounds.timed(lambda: rx.fullmatch(name, timeout=bounds.REGEX_SECONDS)))


def _add(out: set[str], path: str) -> None:
    out.add(path)
    if len(out) > MAX_FILESET_FILES:
        raise GlobError(f"matches more than {MAX_FILESET_FILES:,} files (gpulint's limit)")


def fileset(real_base: str, pattern: str, inside: Inside) -> list[str]:
    """Files under the real directory `real_base` matching `pattern`, relative to it, sorted.
    Raises GlobError for a bad pattern, a walk beyond the bounds or one that would leave the
    scanned tree."""
    up = 0
    while pattern.startswith("../"):  # fileset(path.module, "../manifests/*.yaml")
        pattern, up = pattern[3:], up + 1
    if pattern.startswith("/") or ".." in pattern.split("/"):
        raise GlobError("a pattern with '..' after its start or a leading '/' is not read")
    base = os.path.realpath(os.path.join(real_base, *([".."] * up)))
    if not inside(base):
        raise GlobError("the pattern's directory is outside the scanned tree (not read)")
    out: set[str] = set()
    walk = _Walk(inside)
    for alt in expand_braces(pattern):
        _match(walk, base, alt.split("/"), "../" * up, out, set())
    return sorted(out)
