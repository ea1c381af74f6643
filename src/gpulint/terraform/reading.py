"""Terraform functions that read files: `file`, `fileexists`, `filebase64`. Each gets the
evaluated arguments and the calling scope, whose `FileAccess` confines reads to the scanned
tree; without one (a variable's default, say) nothing is read."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from gpulint.model import Unknown


def _access(fn: str, scope: Any) -> Any:
    files = scope.file_access()
    return files if files is not None else Unknown(f"{fn}() is not evaluated here")


def _path(fn: str, args: list[Any]) -> str | Unknown:
    if len(args) != 1 or not isinstance(args[0], str):
        return Unknown(f"{fn}() takes one path")
    return args[0]


def _file(args: list[Any], scope: Any) -> Any:
    path, files = _path("file", args), _access("file", scope)
    if isinstance(path, Unknown) or isinstance(files, Unknown):
        return path if isinstance(path, Unknown) else files
    text = files.read(path)
    return Unknown(f"file(): {text.reason}") if isinstance(text, Unknown) else text


def _fileexists(args: list[Any], scope: Any) -> Any:
    path, files = _path("fileexists", args), _access("fileexists", scope)
    if isinstance(path, Unknown) or isinstance(files, Unknown):
        return path if isinstance(path, Unknown) else files
    found = files.exists(path)
    return Unknown(f"fileexists(): {found.reason}") if isinstance(found, Unknown) else found


def _filebase64(args: list[Any], scope: Any) -> Any:
    text = _file(args, scope)
    return text if isinstance(text, Unknown) else base64.b64encode(text.encode()).decode()


FILE_FUNCTIONS: dict[str, Callable[[list[Any], Any], Any]] = {
    "file": _file,
    "fileexists": _fileexists,
    "filebase64": _filebase64,
}
