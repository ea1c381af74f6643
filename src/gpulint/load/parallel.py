"""Parse many files: read each once, serve unchanged ones from the cache, parse the rest on all
cores when there are enough of them to pay for the worker start-up.

The result is the same whatever the number of workers: outcomes come back in input order, and a
worker runs the same `parse_to_bytes` the serial path runs.
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gpulint.files.text import DEFAULT_MAX_HCL_BYTES, decode, read_bytes
from gpulint.load import collector, hcl_bound
from gpulint.load.cache import ParseCache
from gpulint.load.source import Parsed, diagnostics, parse_to_bytes
from gpulint.model import Diagnostic, SourceFile

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from gpulint.load.evidence import EvidenceNote
    from gpulint.load.kubernetes import K8sObject
    from gpulint.terraform.views import ParsedFile

# A pool costs ~50-100 ms (fork, pickling); use one only when serial parsing would take longer
# than this, estimated from single-core parse rates measured on real repositories (the
# architecture notes): python-hcl2 ≈ 0.17 MB/s, PyYAML's C loader ≈ 3.9 MB/s.
PARALLEL_MIN_SECONDS = 0.5
BYTES_PER_SECOND = {"terraform": 170_000, "terraform-json": 2_000_000, "kubernetes": 3_900_000}
CHUNK_FILES = 16

Progress = Callable[[int, int], None]


# Files that mention this keep their text in the outcome: suppression comments are read from it.
KEEP_TEXT_MARKER = b"gpulint:"


@dataclass
class Outcome:
    path: str
    parsed: Parsed | None  # None when the file could not be read
    read_error: Diagnostic | None = None
    text: str | None = None  # only when the file mentions KEEP_TEXT_MARKER
    # A Terraform file above --max-hcl-size: its blocks that show accelerators (hcl_bound.py).
    notes: list[EvidenceNote] = field(default_factory=list)

    def diagnostics(self) -> list[Diagnostic]:
        out = [self.read_error] if self.read_error else []
        return out + (diagnostics(self.path, self.parsed) if self.parsed else [])

    def terraform(self) -> ParsedFile | None:
        from gpulint.terraform.views import ParsedFile

        root = self.parsed.root if self.parsed else None
        return ParsedFile(self.path, root) if root is not None else None

    def objects(self) -> list[K8sObject]:
        from gpulint.load.kubernetes import K8sObject

        docs = self.parsed.docs if self.parsed else []
        return [K8sObject(self.path, line, doc) for line, doc in docs]


def available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """--jobs: 0 means one worker per available core."""
    return jobs if jobs > 0 else available_cpus()


def estimated_seconds(items: list[tuple[str, bytes]]) -> float:
    """Serial parse time of these files on one core, roughly."""
    return sum(len(data) / BYTES_PER_SECOND.get(kind, 1_000_000) for kind, data in items)


def _parse_chunk(items: list[tuple[str, str, bytes]]) -> list[bytes]:
    return [parse_to_bytes(kind, data) for _, kind, data in items]


def _pool_context() -> BaseContext | None:
    import multiprocessing

    # fork starts workers in milliseconds with gpulint already imported; elsewhere use the default.
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return None


def parse_files(files: list[SourceFile], max_bytes: int, jobs: int = 0,
                cache: ParseCache | None = None, progress: Progress | None = None,
                max_hcl_bytes: int = DEFAULT_MAX_HCL_BYTES) -> list[Outcome]:
    """One outcome per file, in the order given; Terraform files above `max_hcl_bytes` are
    refused unparsed (hcl_bound.py)."""
    store = cache
    outcomes: list[Outcome] = []
    todo: list[tuple[int, str, str, bytes]] = []  # (index, cache key, kind, data)
    total = len(files)
    with collector.paused():
        for sf in files:
            _read_one(sf, max_bytes, max_hcl_bytes, store, outcomes, todo)
    done = len(outcomes) - len(todo)  # unreadable or served from the cache
    if progress and done:
        progress(done, total)
    workers = min(resolve_jobs(jobs), max(1, -(-len(todo) // CHUNK_FILES)))
    blobs = _run(todo, workers, progress, done, total)
    with collector.paused():
        for (index, key, _, _), blob in zip(todo, blobs, strict=True):
            parsed = outcomes[index].parsed = pickle.loads(blob)  # from our own workers
            if store:
                store.put(key, parsed)
    if store:
        store.flush()
    return outcomes


def _read_one(sf: SourceFile, max_bytes: int, max_hcl_bytes: int, store: ParseCache | None,
              outcomes: list[Outcome], todo: list[tuple[int, str, str, bytes]]) -> None:
    """Read a file; refuse it, take its outcome from the cache, or queue it for parsing."""
    data, diag = read_bytes(sf.path, max_bytes)
    outcome = Outcome(sf.path, None, diag)
    outcomes.append(outcome)
    if data is None:
        return
    too_big = hcl_bound.refused(sf.kind, len(data), max_hcl_bytes)
    if too_big is not None:
        outcome.parsed = too_big
        text, _ = decode(data)
        outcome.notes = hcl_bound.notes(sf.path, text or "", max_hcl_bytes)
        return
    if KEEP_TEXT_MARKER in data:
        outcome.text, _ = decode(data)
    key = store.key(sf.kind, data) if store else ""
    hit = store.get(key) if store else None
    if isinstance(hit, Parsed) and hit.kind == sf.kind:
        outcome.parsed = hit
        return
    todo.append((len(outcomes) - 1, key, sf.kind, data))


def parse_one(path: str, kind: str, max_bytes: int, cache: ParseCache | None = None,
              max_hcl_bytes: int = DEFAULT_MAX_HCL_BYTES) -> Outcome:
    """One file read on demand (a module directory outside the scanned paths), in-process."""
    return parse_files([SourceFile(path, kind)], max_bytes, 1, cache,
                       max_hcl_bytes=max_hcl_bytes)[0]


def _run(todo: list[tuple[int, str, str, bytes]], workers: int, progress: Progress | None,
         done: int, total: int) -> list[bytes]:
    """Parse the cache misses, in order."""
    items = [(key, kind, data) for _, key, kind, data in todo]
    out: list[bytes] = []
    if workers <= 1 or estimated_seconds([(k, d) for _, k, d in items]) < PARALLEL_MIN_SECONDS:
        for _, kind, data in items:
            out.append(parse_to_bytes(kind, data))
            done += 1
            if progress:
                progress(done, total)
        return out
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Big files first would balance better, but contiguous chunks keep results in order simply.
    chunks = [items[i:i + CHUNK_FILES] for i in range(0, len(items), CHUNK_FILES)]
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
            for blobs in pool.map(_parse_chunk, chunks):
                out.extend(blobs)
                done += len(blobs)
                if progress:
                    progress(done, total)
    except (OSError, BrokenProcessPool):
        # No processes to be had (limits, sandbox) or a worker died (out of memory): finish
        # in this process; the outcome is the same, only slower.
        rest = todo[len(out):]
        return out + _run(rest, 1, progress, done, total)
    return out
