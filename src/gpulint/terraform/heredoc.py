"""Heredoc bodies as templates: literal text and `${…}` interpolations, each interpolation
parsed as an expression on its own.

A heredoc is literal text (no backslash escapes), so an interpolation in it may hold quoted
strings with escaped quotes and templates of their own: `${join(",", [for s in l : "\"${s}\""])}`.
Splitting at the interpolations' own braces, skipping over the strings inside them, keeps each
expression as written, and a syntax error in one points at its line in the file.
"""

from __future__ import annotations

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


def split(text: str) -> list[str | tuple[str, int]] | str:
    """Literal strings and (expression text, line offset in `text`) in order; a string when
    the body cannot be split (a template directive, an unclosed interpolation): the reason."""
    parts: list[str | tuple[str, int]] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$${", i) or text.startswith("%%{", i):
            literal.append(text[i + 1:i + 3])
            i += 3
        elif text.startswith("${", i):
            end = interpolation_end(text, i + 2)
            if end < 0:
                return "an interpolation without its closing brace (or nested too deeply)"
            if literal:
                parts.append("".join(literal))
                literal = []
            expr = text[i + 2:end].strip()
            parts.append((expr.strip("~").strip(), text.count("\n", 0, i)))
            i = end + 1
        elif text.startswith(DIRECTIVE, i):
            return "template directive (%{ … })"
        else:
            literal.append(text[i])
            i += 1
    if literal:
        parts.append("".join(literal))
    return parts
