"""Templates with directives: literal text, `${…}` interpolations and `%{ if }`/`%{ for }`
directives, as quoted strings, heredocs and `templatefile()` files write them, turned into
expression nodes the evaluator already knows.

`%{ if c }a%{ else }b%{ endif }` becomes a conditional between two templates, and
`%{ for k, v in m }body%{ endfor }` `join("", [for k, v in m : "body"])`, which means the same
and which the evaluator renders with its size checked as it grows. `~` strip markers remove
the whitespace of the literal text next to them, up to the end of that line, before the
directives are nested, as Terraform does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpulint.terraform.heredoc import Piece
from gpulint.terraform.syntax import (
    Call,
    Conditional,
    Expr,
    ForExpr,
    HclSyntaxError,
    Literal,
    Template,
)

MAX_DIRECTIVE_DEPTH = 100  # directives nested in directives; deeper is a syntax error

ENDS = {"if": "endif", "for": "endfor"}


@dataclass(frozen=True)
class Mark:
    """An interpolation or a directive, in order among the literal strings of a template."""

    kind: str  # interp, if, else, endif, for, endfor
    expr: Expr | None = None  # the interpolation, the condition or the collection
    line: int | None = None
    strip_left: bool = False
    strip_right: bool = False
    names: tuple[str, ...] = ()  # a for directive's key and value names, or its value name


def marks(pieces: list[str | Piece], parse: Callable[[str], Expr],
          first_line: int) -> list[str | Mark]:
    """Split template text (heredoc.split) as build() takes it: each interpolation and directive
    parsed by `parse`, at its line of the file. A syntax error in one is a PieceError."""
    out: list[str | Mark] = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        try:
            expr = parse(piece.source) if piece.source else None
        except HclSyntaxError as e:
            raise PieceError(piece.kind, first_line + piece.line, e) from None
        out.append(Mark(piece.kind, expr, first_line + piece.line, piece.strip_left,
                        piece.strip_right, piece.names))
    return out


class PieceError(Exception):
    """A syntax error in one interpolation or directive of a template."""

    def __init__(self, kind: str, line: int, error: HclSyntaxError) -> None:
        super().__init__(str(error))
        self.kind, self.line = kind, line


def build(tokens: list[str | Mark]) -> Expr:
    """The expression of a template; HclSyntaxError for a directive without its end (or an
    end without its directive)."""
    parts, _, stop = _nest(_stripped(tokens), 0, (), 0)
    if stop is not None:
        raise HclSyntaxError(f"%{{ {stop.kind} }} without its opening directive", stop.line)
    return _template(parts, collapse=True)


def _stripped(tokens: list[str | Mark]) -> list[str | Mark]:
    out: list[str | Mark] = _joined(tokens)  # adjacent literals as one: a marker strips all
    for i, t in enumerate(out):
        if isinstance(t, str):
            continue
        before = out[i - 1] if i > 0 else None
        after = out[i + 1] if i + 1 < len(out) else None
        if t.strip_left and isinstance(before, str):
            out[i - 1] = _strip_last_line(before)
        if t.strip_right and isinstance(after, str):
            out[i + 1] = _strip_first_line(after)
    return out


def _strip_first_line(text: str) -> str:
    """`~}`: the whitespace after the marker, up to and including the end of its line (the
    next line's indentation is text: HCL reads template text one line at a time)."""
    rest = text.lstrip(" \t\r")
    return rest[1:] if rest.startswith("\n") else rest


def _strip_last_line(text: str) -> str:
    """`{~`: the whitespace at the end of the text's last line (the newline that ends the text
    belongs to that line)."""
    start = text.rfind("\n", 0, len(text) - 1) + 1
    return text[:start] + text[start:].rstrip()


def _nest(tokens: list[str | Mark], i: int, stops: tuple[str, ...],
          depth: int) -> tuple[list[str | Expr], int, Mark | None]:
    """Parts from `i` up to a directive named in `stops` (returned with its index)."""
    parts: list[str | Expr] = []
    while i < len(tokens):
        t = tokens[i]
        if isinstance(t, str):
            parts.append(t)
        elif t.kind == "interp" and t.expr is not None:
            parts.append(t.expr)
        elif t.kind in stops:
            return parts, i, t
        elif t.kind in ENDS and t.expr is not None:
            if depth >= MAX_DIRECTIVE_DEPTH:
                raise HclSyntaxError(f"directives nested more than "
                                     f"{MAX_DIRECTIVE_DEPTH} deep (gpulint's limit)", t.line)
            part, i = _directive(tokens, i, t, depth + 1)
            parts.append(part)
        else:
            return parts, i, t  # an else or an end that closes nothing here
        i += 1
    return parts, i, None


def _directive(tokens: list[str | Mark], i: int, t: Mark, depth: int) -> tuple[Expr, int]:
    """The node of the `if` or `for` directive at `i`, and the index of its end."""
    assert t.expr is not None
    end = ENDS[t.kind]
    body, i, stop = _nest(tokens, i + 1, ("else", end) if t.kind == "if" else (end,), depth)
    other: list[str | Expr] = []
    if stop is not None and stop.kind == "else":
        other, i, stop = _nest(tokens, i + 1, (end,), depth)
    if stop is None or stop.kind != end:
        raise HclSyntaxError(f"%{{ {t.kind} }} without its %{{ {end} }}", t.line)
    if t.kind == "if":
        return Conditional(t.expr, _template(body), _template(other)), i
    key, value = (None, t.names[0]) if len(t.names) == 1 else t.names
    loop = ForExpr(key, value, t.expr, _template(body), None, None)
    return Call("join", (Literal(""), loop)), i


def _joined(items: list[Any]) -> list[Any]:
    """Runs of adjacent text joined, each once (appending piece by piece was quadratic); other
    items (markers, expressions) kept in place."""
    out: list[Any] = []
    run: list[str] = []
    for item in items:
        if isinstance(item, str):
            run.append(item)
            continue
        if run:
            out.append("".join(run))
            run = []
        out.append(item)
    if run:
        out.append("".join(run))
    return out


def _template(parts: list[str | Expr], collapse: bool = False) -> Expr:
    """Parts as one node; with `collapse`, a lone interpolation is its own value (`"${n}"` is
    the number n, as in Terraform), and text alone a literal."""
    merged: list[str | Expr] = _joined(parts)
    if collapse and not merged:
        return Literal("")
    if collapse and len(merged) == 1:
        return Literal(merged[0]) if isinstance(merged[0], str) else merged[0]
    return Template(tuple(merged))
