"""Terraform functions that read files: `file`, `fileexists`, `filebase64`. Each gets the
evaluated arguments and the calling scope, whose `FileAccess` confines reads to the scanned
tree; without one (a variable's default, say) nothing is read."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from gpulint.model import Unknown


def _read(fn: str, args: list[Any], scope: Any, how: Callable[[Any, str], Any]) -> Any:
    """`how(files, path)` for a call with one path argument, in a scope that may read files;
    an Unknown naming the function otherwise."""
    if len(args) != 1 or not isinstance(args[0], str):
        return Unknown(f"{fn}() takes one path")
    files = scope.file_access()
    if files is None:
        return Unknown(f"{fn}() is not evaluated here")
    got = how(files, args[0])
    return Unknown(f"{fn}(): {got.reason}") if isinstance(got, Unknown) else got


def _file(args: list[Any], scope: Any) -> Any:
    return _read("file", args, scope, lambda files, path: files.read(path))


def _fileexists(args: list[Any], scope: Any) -> Any:
    return _read("fileexists", args, scope, lambda files, path: files.exists(path))


def _filebase64(args: list[Any], scope: Any) -> Any:
    text = _file(args, scope)
    return text if isinstance(text, Unknown) else base64.b64encode(text.encode()).decode()


FILE_FUNCTIONS: dict[str, Callable[[list[Any], Any], Any]] = {
    "file": _file,
    "fileexists": _fileexists,
    "filebase64": _filebase64,
}
