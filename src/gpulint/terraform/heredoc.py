"""Heredoc bodies and template files as templates: literal text, `${…}` interpolations and
`%{…}` directives, each expression parsed on its own.

A heredoc is literal text (no backslash escapes), so an interpolation in it may hold quoted
strings with escaped quotes and templates of their own: `${join(",", [for s in l : "\"${s}\""])}`.
Splitting at the interpolations' own braces, skipping over the strings inside them, keeps each
expression as written, and a syntax error in one points at its line in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpulint.terraform.syntax import HclSyntaxError

DIRECTIVE = "%{"
MAX_NESTING = 64  # strings in interpolations in strings…: deeper is refused, not recursed into


def _string_end(text: str, i: int, depth: int) -> int:
    """Index just past the closing quote of a quoted string whose body starts at `i`; -1 if
    nested too deeply."""
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif text.startswith("${", i):
            end = interpolation_end(text, i + 2, depth + 1)
            if end < 0:
                return -1
            i = end + 1
        else:
            i += 1
    return len(text)


def interpolation_end(text: str, i: int, nesting: int = 0) -> int:
    """Index of the `}` closing an interpolation whose expression starts at `i`; -1 if none
    (or nested more than MAX_NESTING deep)."""
    if nesting > MAX_NESTING:
        return -1
    depth = 1
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _string_end(text, i + 1, nesting)
            if i < 0:
                return -1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


@dataclass(frozen=True)
class Piece:
    """An interpolation or a directive, its expression not parsed yet."""

    kind: str  # interp, if, else, endif, for, endfor
    source: str  # the expression's text: the interpolation, the condition, the collection
    line: int  # line offset in the text
    strip_left: bool = False
    strip_right: bool = False
    names: tuple[str, ...] = ()  # a for directive's names


_DIRECTIVE = re.compile(r"(if|else|endif|for|endfor)(?![\w-])\s*(.*)", re.DOTALL)
_FOR = re.compile(r"([A-Za-z_][\w-]*)\s*(?:,\s*([A-Za-z_][\w-]*)\s*)?\bin\b\s*(.*)", re.DOTALL)


def _marked(inner: str) -> tuple[str, bool, bool]:
    """The text of `${…}`/`%{…}` without its `~` strip markers, and which ends had one."""
    body = inner.strip()
    left, right = body.startswith("~"), body.endswith("~") and len(body) > 1
    body = body[1:] if left else body
    body = body[:-1] if right else body
    return body.strip(), left, right


def directive(inner: str, line: int) -> Piece | str:
    """The directive written inside `%{…}`, or why it is not one."""
    body, left, right = _marked(inner)
    m = _DIRECTIVE.fullmatch(body)
    if not m:
        return f"unknown template directive %{{{inner}}}"
    kind, rest = m.group(1), m.group(2).strip()
    if kind in ("else", "endif", "endfor"):
        return Piece(kind, "", line, left, right) if not rest else \
            f"unexpected text after %{{ {kind} }}"
    if kind == "if":
        return Piece(kind, rest, line, left, right) if rest else "%{ if } without a condition"
    f = _FOR.fullmatch(rest)
    if not f or not f.group(3).strip():
        return "a %{ for } directive reads `for NAME in COLLECTION` or `for KEY, VALUE in MAP`"
    names = (f.group(1), f.group(2)) if f.group(2) else (f.group(1),)
    return Piece(kind, f.group(3).strip(), line, left, right, names)


def split(text: str) -> list[str | Piece] | tuple[str, int]:
    """Literal strings, interpolations and directives in order; when the body cannot be split
    (an unclosed interpolation, a directive that is not one), the reason and its line."""
    parts: list[str | Piece] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$${", i) or text.startswith("%%{", i):
            literal.append(text[i + 1:i + 3])
            i += 3
        elif text.startswith("${", i) or text.startswith(DIRECTIVE, i):
            line = text.count("\n", 0, i)
            end = interpolation_end(text, i + 2)
            if end < 0:
                return ("an interpolation or directive without its closing brace (or nested "
                        "too deeply)"), line
            if literal:
                parts.append("".join(literal))
                literal = []
            if text[i] == "$":
                body, left, right = _marked(text[i + 2:end])
                parts.append(Piece("interp", body, line, left, right))
            else:
                piece = directive(text[i + 2:end], line)
                if isinstance(piece, str):
                    return piece, line
                parts.append(piece)
            i = end + 1
        else:
            literal.append(text[i])
            i += 1
    if literal:
        parts.append("".join(literal))
    return parts


# python-hcl2's heredoc terminal ends in `\s*(?P=marker)` after a lazy body: at every line of
# the body `\s*` runs over the blank lines that follow, so a body of blank lines costs the
# square of its length (80 KB: 34 s; unterminated, 0.5 MB: no end). A long run of blank lines
# in a heredoc therefore gets a mark (GUARD, removed again from the body) that stops `\s*`.
GUARD = "\x01"
_GUARD_FROM = 64  # blank lines in one heredoc before the marks are worth it
_OPENER = re.compile(r"<<-?([A-Za-z][A-Za-z0-9._-]*)\r?$")


def _opens_heredoc(line: str) -> re.Match[str] | None:
    """The heredoc a line opens, not in a comment or a quoted string."""
    m = _OPENER.search(line)
    if m is None:
        return None
    before = line[:m.start()]
    if "#" in before or "//" in before or "/*" in before or before.count('"') % 2:
        return None
    return m


def guard_heredocs(text: str) -> str:
    """`text` with a GUARD at the end of each blank line of a heredoc that has many; a heredoc
    that is never closed is an HclSyntaxError at its line, found in linear time."""
    if "<<" not in text or GUARD in text:
        return text
    lines = text.split("\n")
    i, changed = 0, False
    while i < len(lines):
        m = _opens_heredoc(lines[i])
        if m is None:
            i += 1
            continue
        marker, j = m.group(1), i + 1
        while j < len(lines) and lines[j].strip() != marker:
            j += 1
        if j == len(lines):
            raise HclSyntaxError(f"heredoc <<{marker} is never closed (no line {marker!r} "
                                 "after it)", i + 1)
        blank = [k for k in range(i + 1, j) if not lines[k].strip()]
        if len(blank) >= _GUARD_FROM:
            for k in blank:
                line = lines[k]
                lines[k] = line[:-1] + GUARD + "\r" if line.endswith("\r") else line + GUARD
            changed = True
        i = j + 1
    return "\n".join(lines) if changed else text
