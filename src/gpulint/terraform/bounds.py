"""Bounds on what evaluating one Terraform expression may build or spend.

Repository content is untrusted (gpulint runs on pull requests): a few lines of HCL can double
a string forty times, square an integer forty times or hand `regex()` a catastrophic pattern.
Every function result and operator result passes `check`; functions whose output can be much
larger than their input check the size first (`need`); user regexes run under a time limit;
and all the work of one top-level evaluation is counted (`charge`), so loops of cheap calls
end too. Whatever crosses a bound becomes an Unknown naming the bound, never a hang.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import regex

from gpulint.model import Unknown

MAX_STRING = 1_000_000  # characters in one string
MAX_ITEMS = 100_000  # elements of one list or map
# Bits of one integer: about 3,900 decimal digits, under Python's 4,300-digit conversion
# limit, far beyond any count, size or price.
MAX_INT_BITS = 13_000
# Work units (elements visited, 64-character chunks copied, loop iterations) of one top-level
# evaluation: a few seconds at most.
MAX_WORK = 5_000_000
# ... and of all the evaluations of one scan: `count = 10000` times an expression just under
# MAX_WORK would otherwise take hours.
MAX_SCAN_WORK = 50_000_000
REGEX_SECONDS = 0.25  # per match of a pattern written in the repository
MAX_PRECISION = 1_000  # digits after the point in format("%.Nf")


class LimitExceeded(Exception):
    """A value or a piece of work beyond gpulint's bounds; the message names the bound."""


_work = {"depth": 0, "units": 0, "scan": 0}


def new_scan() -> None:
    """Start the scan-wide budget afresh (one Terraform project)."""
    _work["scan"] = 0


def evaluation(run: Callable[[], Any]) -> Any:
    """`run()` as one top-level evaluation: a fresh work budget unless nested in another."""
    if _work["depth"] == 0:
        _work["units"] = 0
    _work["depth"] += 1
    try:
        return run()
    finally:
        _work["depth"] -= 1


def charge(units: int) -> None:
    _work["units"] += units
    _work["scan"] += units
    if _work["units"] > MAX_WORK:
        raise LimitExceeded(f"evaluation needs more than {MAX_WORK:,} steps (gpulint's limit)")
    if _work["scan"] > MAX_SCAN_WORK:
        raise LimitExceeded(f"the scan's Terraform evaluation took more than {MAX_SCAN_WORK:,} "
                            "steps (gpulint's limit); later values are not evaluated")


def exhausted() -> bool:
    return _work["units"] > MAX_WORK or _work["scan"] > MAX_SCAN_WORK


def cost(value: Any) -> int:
    """Work units to touch `value` once, shallowly."""
    if isinstance(value, str):
        return 1 + len(value) // 64
    if isinstance(value, (list, dict)):
        return 1 + len(value)
    return 1


def need(size: int, what: str) -> None:
    """Refuse to build a `what` of `size` characters or elements."""
    limit = MAX_STRING if what == "string" else MAX_ITEMS
    if size > limit:
        raise LimitExceeded(f"{what} longer than {limit:,} "
                            f"{'characters' if what == 'string' else 'elements'} "
                            "(gpulint's limit)")


def check(value: Any) -> Any:
    """`value`, or an Unknown when it is beyond the bounds or not a finite number."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return Unknown("number too large (infinite) or not a number (NaN)")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        return Unknown(f"integer of more than {MAX_INT_BITS:,} bits (gpulint's limit)")
    if isinstance(value, str) and len(value) > MAX_STRING:
        return Unknown(f"string longer than {MAX_STRING:,} characters (gpulint's limit)")
    if isinstance(value, (list, dict)) and len(value) > MAX_ITEMS:
        return Unknown(f"collection of more than {MAX_ITEMS:,} elements (gpulint's limit)")
    return value


def parse_number(text: str) -> Any:
    """The number a string holds, or an Unknown saying why not."""
    if len(text) > 100:  # a number this long is beyond the bounds, or not a number
        return Unknown(f"a string of {len(text):,} characters is not a number gpulint reads")
    try:
        return int(text)
    except ValueError:
        try:
            return check(float(text))
        except ValueError:
            return Unknown(f"{text!r} is not a number")


def deep_size(value: Any, limit: int) -> int:
    """Characters plus elements in `value`, counted up to a little past `limit`: shared
    sub-values count once per reference, as serialising them would write them."""
    total, stack = 0, [value]
    while stack and total <= limit:
        v = stack.pop()
        total += cost(v) if not isinstance(v, str) else 1 + len(v)
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
            total += sum(len(str(k)) for k in v)
    charge(min(total, limit) // 64)
    return total


def compile_user(pattern: str) -> Any:
    """A pattern from the repository, compiled; LimitExceeded when it does not compile."""
    try:
        return _compile(pattern)
    except (regex.error, RecursionError, OverflowError, ValueError) as e:
        raise LimitExceeded(f"invalid regular expression: {e}") from None


_cache: dict[str, Any] = {}


def _compile(pattern: str) -> Any:
    if pattern not in _cache:
        if len(_cache) > 256:
            _cache.clear()
        _cache[pattern] = regex.compile(pattern, regex.V0)
    return _cache[pattern]


def timed(run: Callable[[], Any]) -> Any:
    """`run()` of a user regex call; a match past the time limit becomes LimitExceeded."""
    try:
        return run()
    except TimeoutError:
        raise LimitExceeded(f"regular expression took longer than {REGEX_SECONDS} s "
                            "(gpulint's limit)") from None
