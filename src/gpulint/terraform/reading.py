"""Terraform functions that read files: `file`, `fileexists`, `filebase64`, `templatefile`,
`fileset`.
Each gets the evaluated arguments and the calling scope, whose `FileAccess` confines reads to
the scanned tree; without one (a variable's default, say) nothing is read."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform import bounds, heredoc, template
from gpulint.terraform.parser import parse_expression
from gpulint.terraform.syntax import Expr, HclSyntaxError


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


def _fileset(args: list[Any], scope: Any) -> Any:
    """The files under a directory matching a glob, relative to it (Terraform's set of
    strings, as a sorted list)."""
    if len(args) != 2 or not all(isinstance(a, str) for a in args):
        return Unknown("fileset() takes a path and a pattern")
    got = _read("fileset", args[:1], scope, lambda files, path: files.fileset(path, args[1]))
    if not isinstance(got, Unknown):
        bounds.charge(len(got))
    return got


def _templatefile(args: list[Any], scope: Any) -> Any:
    """The file rendered with the given variables only (as Terraform does: a template sees no
    var, local or resource), `%{ if }` and `%{ for }` directives included."""
    if len(args) != 2:
        return Unknown("templatefile() takes a path and a map of variables")
    names = args[1]
    if isinstance(names, Unknown):
        return Unknown(f"templatefile() variables: {names.reason}")
    if not isinstance(names, dict):
        return Unknown("templatefile() variables must be a map")
    text = _read("templatefile", args[:1], scope, lambda files, path: files.read(path))
    return text if isinstance(text, Unknown) else _render(text, names, str(args[0]))


@dataclass(frozen=True)
class Template:
    """A parsed template and the only names it may use; the evaluator renders it (this module
    cannot import the evaluator, which imports it)."""

    expr: Expr
    names: dict[str, Any]


def render_template(text: str, names: dict[str, Any], label: str) -> Template | Unknown:
    """A template's text parsed for rendering with these names only (templatefile(), the
    template provider's `data "template_file"`)."""
    return _render(text, names, label)


def _render(text: str, names: dict[str, Any], path: str) -> Template | Unknown:
    parts = heredoc.split(text)
    if isinstance(parts, tuple):
        return Unknown(f"templatefile() {path} line {parts[1] + 1}: {parts[0]}")
    try:
        tokens = template.marks(parts, parse_expression, 1)
    except template.PieceError as e:
        return Unknown(f"templatefile() {path} line {e.line}: {e}")
    try:
        return Template(template.build(tokens), dict(names))
    except HclSyntaxError as e:
        return Unknown(f"templatefile() {path} line {e.line}: {e}")


FILE_FUNCTIONS: dict[str, Callable[[list[Any], Any], Any]] = {
    "templatefile": _templatefile,
    "file": _file,
    "fileexists": _fileexists,
    "filebase64": _filebase64,
    "fileset": _fileset,
}
