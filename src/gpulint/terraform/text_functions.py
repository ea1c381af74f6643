"""Terraform functions that build or match strings: format, join, replace, regex.

Their output can be far larger than their input (`format("%s%s", x, x)` doubles x) or cost far
more than its size (a catastrophic pattern), so each checks the size it is about to build and
runs repository-written patterns under a time limit (bounds.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform import bounds

# Hostile input must not make one call build a huge value (docs/performance.md).
MAX_FORMAT_WIDTH = 10_000


class FunctionError(Exception):
    pass


def to_str(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (dict, list)):
        raise FunctionError("expected a string")
    return "" if v is None else str(v)



_VERB = re.compile(r"%%|%([-+ 0#]?)(\d*)(?:\.(\d+))?([a-zA-Z])")


def format_(args: list[Any]) -> Any:
    spec, rest = to_str(args[0]), list(args[1:])
    size = [len(spec)]

    def repl(m: re.Match[str]) -> str:
        if m.group(0) == "%%":
            return "%"
        flag, width, precision, verb = m.groups()
        if width and int(width) > MAX_FORMAT_WIDTH:
            raise FunctionError(f"width {width} exceeds gpulint's limit")
        if precision and int(precision) > bounds.MAX_PRECISION:
            raise FunctionError(f"precision {precision} exceeds gpulint's limit of "
                                f"{bounds.MAX_PRECISION:,}")
        if not rest:
            raise FunctionError("not enough arguments for format string")
        out = _verb(flag + width + (f".{precision}" if precision else ""), verb, rest.pop(0))
        size[0] += len(out)
        bounds.need(size[0], "string")  # format("%s%s", x, x) doubles x
        return out

    return _VERB.sub(repl, spec)


def _verb(spec: str, verb: str, value: Any) -> str:
    if verb == "d":
        return f"%{spec}d" % int(value)
    if verb in "fFeEgG":
        return f"%{spec}{verb}" % float(value)
    if verb == "q":
        return json.dumps(to_str(value))
    if verb in "vs":
        return f"%{spec}s" % to_str(value) if spec else to_str(value)
    if verb == "t":
        return to_str(bool(value))
    return to_str(value)


def replace(args: list[Any]) -> Any:
    s, old, new = (to_str(a) for a in args)
    if len(old) > 1 and old.startswith("/") and old.endswith("/"):
        pattern = bounds.compile_user(old[1:-1])
        template = re.sub(r"\$(\d+)", r"\\\1", new)  # Terraform's $1 is Python's \1
        size = [len(s)]

        def grow(m: Any) -> str:
            out: str = m.expand(template)
            size[0] += len(out) - len(m.group(0))
            bounds.need(size[0], "string")
            return out

        return bounds.timed(lambda: pattern.sub(grow, s, timeout=bounds.REGEX_SECONDS))
    hits = s.count(old) if old else len(s) + 1
    bounds.need(len(s) + hits * (len(new) - len(old)), "string")
    return s.replace(old, new)


def join(args: list[Any]) -> Any:
    unknown = next((x for x in args[1] if isinstance(x, Unknown)), None)
    if unknown is not None:  # one element unknown before apply: so is the whole string
        return unknown
    sep, items = to_str(args[0]), [to_str(x) for x in args[1]]
    bounds.need(sum(len(i) for i in items) + len(sep) * max(len(items) - 1, 0), "string")
    return sep.join(items)


def regex_(args: list[Any]) -> Any:
    pattern = bounds.compile_user(to_str(args[0]))
    m = bounds.timed(lambda: pattern.search(to_str(args[1]), timeout=bounds.REGEX_SECONDS))
    if not m:
        raise FunctionError("pattern did not match")
    if m.groupdict():
        return m.groupdict()
    if m.groups():
        return list(m.groups())
    return m.group(0)
