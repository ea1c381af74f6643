"""Go template actions of helmfiles and values templates, evaluated without a Go engine.

A helmfile's actions mostly read the environment: `{{ .Values.a.b }}`, `{{ .Environment.Name }}`,
`{{ if eq .Environment.Name "prod" }}…{{ else }}…{{ end }}`, `{{ .Values | get "a.b" "x" }}`,
`installed: {{ eq .Environment.Name "prod" | toYaml }}`. Those are evaluated: a small set of
functions (`eq`, `ne`, `not`, `and`, `or`, `default`, `get`, `getOrNil`, `index`, `required`,
`quote`, `squote`, `toYaml` and `toString` of a scalar, `lower`, `upper`, `trim`, `int`) over
literals and references to the environment's values. An `if` whose condition cannot be known
keeps every branch, as the file was written; any other action (`range`, `exec`, `readFile`,
`env`, a value the environment does not set) is blanked and counted. Every line keeps its
number, so findings point at the file's own lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()
MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()  # a key not set

_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(\()|(\))|(\|)|([^\s()|]+))')
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_BLOCKS = ("range", "with", "define", "block")
_INSIDE = re.compile(r"`[^`]*`|\}\}")  # raw strings skipped on the way to the `}}`
MAX_EXPRESSION = 2_000  # characters of one action evaluated; longer ones are not
MAX_NESTING = 32  # parentheses in one action


@dataclass
class _Frame:
    mode: str  # "cond": one branch taken; "all": condition unknown, every branch kept; "off"
    taking: bool = False
    decided: bool = False

    @property
    def active(self) -> bool:
        return self.mode == "all" or (self.mode == "cond" and self.taking)


def _active(stack: list[_Frame]) -> bool:
    """Whether text at this point is kept: a frame opened in skipped text is "off", so the
    innermost frame decides."""
    return stack[-1].active if stack else True


def render(text: str, values: dict[str, Any], env: str = "default",
           extra: dict[str, Any] | None = None) -> tuple[str, int]:
    """The text with its actions evaluated for environment `env` whose values are `values`
    (and `extra` objects, such as a release template's `.Release`); also how many actions
    were not evaluated."""
    scope = {"Values": values, "StateValues": values,
             "Environment": {"Name": env, "Values": values}, **(extra or {})}
    out: list[str] = []
    stack: list[_Frame] = []
    left, pos = 0, 0
    for start, end, body in _actions(text):
        literal = text[pos:start]
        active = _active(stack)
        out.append(literal if active else "\n" * literal.count("\n"))
        pos = end
        emitted, counted = _action(body, stack, scope, active)
        out.append(emitted + "\n" * text.count("\n", start, end))
        left += counted
    tail = text[pos:]
    out.append(tail if _active(stack) else "\n" * tail.count("\n"))
    return "".join(out), left


def _actions(text: str) -> Iterator[tuple[int, int, str | None]]:
    """(start, end, body) of each action, its body None for a comment; found with str.find so
    that a file of unclosed `{{` costs one pass."""
    pos = 0
    while (start := text.find("{{", pos)) >= 0 and (end := _close(text, start + 2)) >= 0:
        body = text[start + 2:end]
        body = body[1:] if body.startswith("-") else body
        body = body[:-1] if body.endswith("-") else body
        stripped = body.strip()
        yield start, end + 2, None if stripped.startswith("/*") and stripped.endswith("*/") \
            else body
        pos = end + 2


def _close(text: str, pos: int) -> int:
    """Where the action opened before `pos` closes: the next `}}` outside raw strings
    (`{{`{{ .Release.Name }}`}}` writes a release template's own action); -1 if none."""
    while (m := _INSIDE.search(text, pos)) is not None:
        if m.group(0) == "}}":
            return m.start()
        pos = m.end()
    return -1


def _action(body: str | None, stack: list[_Frame], scope: dict[str, Any],
            active: bool) -> tuple[str, int]:
    """(text to emit, 1 if the action was not evaluated)."""
    if body is None:  # a comment
        return "", 0
    words = body.strip().split(None, 1)
    word, rest = (words[0], words[1] if len(words) > 1 else "") if words else ("", "")
    if word == "if":
        if not active:
            stack.append(_Frame("off"))
            return "", 0
        value = evaluate(rest, scope)
        if value is UNKNOWN or value is MISSING:
            stack.append(_Frame("all"))
            return "", 1
        stack.append(_Frame("cond", truthy(value), truthy(value)))
        return "", 0
    if word == "else":
        return "", _else(rest, stack, scope) if stack else 1
    if word == "end":
        if stack:
            stack.pop()
            return "", 0
        return "", 1
    if word in _BLOCKS:
        stack.append(_Frame("all" if active else "off"))
        return "", int(active)
    if not active:
        return "", 0
    value = evaluate(body, scope)
    text = _format(value)
    return ("", 1) if text is None else (text, 0)


def _else(rest: str, stack: list[_Frame], scope: dict[str, Any]) -> int:
    top = stack[-1]
    if top.mode != "cond" or not _active(stack[:-1]):
        return 0
    if top.decided:
        top.taking = False
        return 0
    words = rest.split(None, 1)
    if not words:
        top.taking = top.decided = True
        return 0
    if words[0] != "if":  # `else with`
        top.mode = "all"
        return 1
    value = evaluate(words[1] if len(words) > 1 else "", scope)
    if value is UNKNOWN or value is MISSING:
        top.mode = "all"
        return 1
    top.taking = top.decided = truthy(value)
    return 0


def truthy(value: Any) -> bool:
    """Go's truth: false, 0, nil and empty strings and collections are false."""
    return value not in (None, False, 0, "") and not (isinstance(value, (dict, list))
                                                     and not value)


def _format(value: Any) -> str | None:
    if value is UNKNOWN or value is MISSING or value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---------------------------------------------------------------------------------------------
# Expressions

def evaluate(expr: str, scope: dict[str, Any]) -> Any:
    """The value of a pipeline, UNKNOWN when it cannot be known here."""
    if len(expr) > MAX_EXPRESSION or expr.count("(") > MAX_NESTING:
        return UNKNOWN
    tokens = _tokens(expr)
    if tokens is None:
        return UNKNOWN
    group, end = _group(tokens, 0)
    return UNKNOWN if end != len(tokens) else _pipeline(group, scope)


def _tokens(expr: str) -> list[str] | None:
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            return None
        out.append(m.group(0).strip())
        pos = m.end()
    return out


def _group(tokens: list[str], i: int) -> tuple[list[Any], int]:
    """Tokens up to the matching `)` (or the end), parenthesised groups nested as lists."""
    out: list[Any] = []
    while i < len(tokens):
        if tokens[i] == "(":
            inner, i = _group(tokens, i + 1)
            out.append(inner)
            i += 1  # the `)`
        elif tokens[i] == ")":
            return out, i
        else:
            out.append(tokens[i])
            i += 1
    return out, i


def _pipeline(group: list[Any], scope: dict[str, Any]) -> Any:
    commands: list[list[Any]] = [[]]
    for item in group:
        if item == "|":
            commands.append([])
        else:
            commands[-1].append(item)
    value: Any = _NONE
    for command in commands:
        value = _command(command, scope, value)
        if value is UNKNOWN:
            return UNKNOWN
    return value


_NONE: Any = object()  # no piped value


def _command(args: list[Any], scope: dict[str, Any], piped: Any) -> Any:
    if not args:
        return UNKNOWN
    head = args[0]
    if isinstance(head, str) and head in _FUNCS:
        values = [_arg(a, scope) for a in args[1:]] + ([] if piped is _NONE else [piped])
        try:
            return _FUNCS[head](values)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError):
            return UNKNOWN
    if len(args) > 1 or piped is not _NONE:
        return UNKNOWN
    return _arg(head, scope)


def _arg(token: Any, scope: dict[str, Any]) -> Any:
    if isinstance(token, list):
        return _pipeline(token, scope)
    if token.startswith('"'):
        return token[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if token.startswith("`"):
        return token[1:-1]
    if _NUMBER.match(token):
        return float(token) if "." in token else int(token)
    if token in ("true", "false"):
        return token == "true"
    if token == "nil":
        return None
    if token.startswith((".", "$.")):
        return _field(token.lstrip("$"), scope)
    return UNKNOWN  # a variable, a function of no arguments (`now`, `env` without a name)


def _field(ref: str, scope: dict[str, Any]) -> Any:
    node: Any = scope
    for key in ref.strip(".").split("."):
        if not key:
            continue
        if not isinstance(node, dict):
            return UNKNOWN
        if key not in node:
            return MISSING if node is not scope else UNKNOWN
        node = node[key]
    return node


def _known(*values: Any) -> bool:
    return not any(v is UNKNOWN or v is MISSING for v in values)


def _eq(args: list[Any]) -> Any:
    if len(args) < 2 or not _known(*args):
        return UNKNOWN
    return any(args[0] == other for other in args[1:])


def _default(args: list[Any]) -> Any:
    if len(args) != 2 or args[0] is UNKNOWN or args[1] is UNKNOWN:
        return UNKNOWN
    given = args[1]
    return args[0] if given is MISSING or not truthy(given) else given


def _get(args: list[Any]) -> Any:
    """helmfile's `get "a.b" [default] map` (without a default, a missing key is an error)."""
    if len(args) not in (2, 3) or not isinstance(args[0], str) or not isinstance(args[-1], dict):
        return UNKNOWN
    node: Any = args[-1]
    for key in args[0].split("."):
        if not isinstance(node, dict) or key not in node:
            return args[1] if len(args) == 3 else UNKNOWN
        node = node[key]
    return node


def _index(args: list[Any]) -> Any:
    if not args or not _known(*args):
        return UNKNOWN
    node = args[0]
    for key in args[1:]:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return UNKNOWN
    return node


def _scalar(fn: Callable[[Any], Any]) -> Callable[[list[Any]], Any]:
    def call(args: list[Any]) -> Any:
        if len(args) != 1 or not _known(*args) or isinstance(args[0], (dict, list)):
            return UNKNOWN
        return fn(args[0])
    return call


def _text(value: Any) -> str:
    formatted = _format(value)
    return "" if formatted is None else formatted


_FUNCS: dict[str, Callable[[list[Any]], Any]] = {
    "eq": _eq,
    "ne": lambda a: UNKNOWN if (v := _eq(a)) is UNKNOWN else not v,
    "not": lambda a: not truthy(a[0]) if len(a) == 1 and _known(*a) else UNKNOWN,
    "and": lambda a: next((v for v in a if not truthy(v)), a[-1]) if a and _known(*a)
    else UNKNOWN,
    "or": lambda a: next((v for v in a if truthy(v)), a[-1]) if a and _known(*a) else UNKNOWN,
    "default": _default,
    "get": _get,
    "getOrNil": lambda a: _get([*a[:1], None, *a[1:]]) if len(a) == 2 else UNKNOWN,
    "index": _index,
    "required": lambda a: a[-1] if len(a) == 2 and _known(a[-1]) else UNKNOWN,
    "quote": _scalar(lambda v: f'"{_text(v)}"'),
    "squote": _scalar(lambda v: f"'{_text(v)}'"),
    "toYaml": _scalar(lambda v: v),
    "toString": _scalar(_text),
    "lower": _scalar(lambda v: _text(v).lower()),
    "upper": _scalar(lambda v: _text(v).upper()),
    "trim": _scalar(lambda v: _text(v).strip()),
    "int": _scalar(lambda v: int(float(v))),
}
