"""Keep Python's cyclic garbage collector away from parse trees during a scan.

A scan holds every file's syntax tree until the end: about 40,000 small objects per 1,000
Terraform files. The cyclic collector runs after every 700 net allocations and, as objects age,
traverses the older generations again and again; on the benchmark's warm run that cost 0.2-0.3 s
of a 0.75 s process (docs/performance.md). Trees, Kubernetes documents and file outcomes hold no
reference cycles, so they never need the collector: reference counting frees them.

- `paused()` switches the collector off while trees are loaded (unpickled from the cache or from
  a worker) and back on after.
- Inside `scan_scope()`, the end of `paused()` (`spare_loaded()`) moves everything alive into
  the permanent generation (`gc.freeze()`), which later collections skip; on leaving the scope
  it is all handed back (`gc.unfreeze()`), so nothing stays exempt after a scan, even in a
  long-lived process.
  Outside a scope, or when the process had frozen objects of its own, `spare_loaded()` does
  nothing: a library caller's heap is left alone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_scopes = 0
_owner = False  # whether the outermost scope may freeze (the process had frozen nothing itself)


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block; objects made in it must not form reference cycles.
    Inside a scan they are then spared (frozen) before the collector is back on: otherwise its
    first run would traverse all of them at once."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        spare_loaded()
        if enabled:
            gc.enable()


@contextmanager
def scan_scope() -> Iterator[None]:
    """While this is active, `spare_loaded` may freeze; leaving it unfreezes everything."""
    global _scopes, _owner
    if _scopes == 0:
        # A program that froze objects itself (a pre-forking server) keeps its own policy.
        _owner = gc.get_freeze_count() == 0
    _scopes += 1
    try:
        yield
    finally:
        _scopes -= 1
        if _scopes == 0 and _owner:
            gc.unfreeze()
            _owner = False


def spare_loaded() -> None:
    """Exempt everything alive now (the trees just loaded) from collections until the scan ends."""
    if _scopes and _owner:
        gc.freeze()
