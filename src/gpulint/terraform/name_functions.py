"""Terraform functions that shape file names and lists of them, as modules use `fileset()`:
`{ for f in fileset(path, "*.yaml") : trimsuffix(basename(f), ".yaml") => f }`, `sort(...)`.

Paths are forward-slash paths, read as Terraform reads them (Go's filepath on Linux):
`basename("a/b/")` is "b", `dirname("a")` is ".".
"""

from __future__ import annotations

import posixpath
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.text_functions import FunctionError, to_str


def sort_(args: list[Any]) -> Any:
    """A list of strings in lexical order (numbers as their strings, as Terraform converts)."""
    items = args[0]
    if not isinstance(items, list):
        raise FunctionError("sort() takes a list of strings")
    unknown = next((x for x in items if isinstance(x, Unknown)), None)
    return unknown if unknown is not None else sorted(to_str(x) for x in items)


def basename(args: list[Any]) -> str:
    path = to_str(args[0])
    if not path:
        return "."
    trimmed = path.rstrip("/")
    return trimmed.rsplit("/", 1)[-1] if trimmed else "/"


def dirname(args: list[Any]) -> str:
    path = to_str(args[0])
    if "/" not in path:
        return "."
    head = path[:path.rfind("/") + 1]
    return "/" if head.strip("/") == "" and head.startswith("/") else posixpath.normpath(head)


NAME_FUNCTIONS = {
    "sort": sort_,
    "basename": basename,
    "dirname": dirname,
    "trimprefix": lambda a: to_str(a[0]).removeprefix(to_str(a[1])),
    "trimsuffix": lambda a: to_str(a[0]).removesuffix(to_str(a[1])),
}
