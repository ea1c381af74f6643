"""The condition vocabulary of rule files, evaluated with three values.

A condition returns True, False or None (unknown). Rules fire only on True; an unknown fact
makes its condition unknown, so a value that could not be resolved never passes silently and
never fires either: the engine reports it as not evaluated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import regex

from gpulint.model import Unknown

Facts = dict[str, Any]


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _compare(fn: Callable[[float, float], bool]) -> Callable[[Any, Any], bool]:
    def op(value: Any, arg: Any) -> bool:
        a, b = _num(value), _num(arg)
        return a is not None and b is not None and fn(a, b)
    return op


def _lacks_keys(value: Any, keys: Any) -> Any:
    if not isinstance(value, dict):
        return True
    # A tag map with an unknown value still has the key; only absent or empty keys are missing.
    return any(k not in value or value[k] in (None, "") for k in keys or [])


class ConditionError(Exception):
    """A condition that cannot be decided for a reason other than an unknown fact."""


# A tag pattern or rule regex is written by whoever controls the configuration or the rules
# directory; `(a|aa)+` against forty characters would run for hours with the standard engine.
PATTERN_SECONDS = 0.25


def full_match(pattern: str, text: str) -> bool:
    """`pattern` matches all of `text`, within the time limit (ConditionError past it or when
    the pattern does not compile)."""
    try:
        return regex.fullmatch(pattern, text, timeout=PATTERN_SECONDS) is not None
    except TimeoutError:
        raise ConditionError(f"pattern {pattern!r} took longer than {PATTERN_SECONDS} s "
                             "(gpulint's limit)") from None
    except (regex.error, RecursionError, OverflowError) as e:
        raise ConditionError(f"invalid regular expression {pattern!r}: {e}") from None


def _mismatches(value: Any, patterns: Any) -> bool | None:
    """A present tag whose value does not match its pattern in full; unknown values are unknown."""
    if not isinstance(value, dict) or not patterns:
        return False
    unknown = False
    for key, pattern in patterns.items():
        if key not in value or value[key] in (None, ""):
            continue  # absence is lacks_keys' business
        if isinstance(value[key], Unknown):
            unknown = True
        elif not full_match(pattern, str(value[key])):
            return True
    return None if unknown else False


def mismatched_tags(tags: Any, patterns: Any) -> list[str]:
    """`key=value (expected pattern)` for each tag that fails its pattern, for messages."""
    if not isinstance(tags, dict) or not isinstance(patterns, dict):
        return []
    out = []
    for k, p in patterns.items():
        if not (isinstance(tags.get(k), str) and tags[k]):
            continue
        try:
            if not full_match(p, tags[k]):
                out.append(f"{k}={tags[k]!r} (expected {p})")
        except ConditionError as e:
            out.append(f"{k}={tags[k]!r} ({e})")
    return out


OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "equals": lambda v, a: v == a,
    "not_equals": lambda v, a: v != a,
    "in": lambda v, a: v in a,
    "not_in": lambda v, a: v not in a,
    "gt": _compare(lambda x, y: x > y),
    "gte": _compare(lambda x, y: x >= y),
    "lt": _compare(lambda x, y: x < y),
    "lte": _compare(lambda x, y: x <= y),
    "exists": lambda v, a: (v is not None) == bool(a),
    "lacks_keys": _lacks_keys,
    "mismatches": _mismatches,
}


def missing_facts(cond: dict[str, Any], facts: Facts, options: dict[str, Any]) -> list[str]:
    """Reasons of the unknown facts a condition depends on, for 'could not evaluate' notes."""
    out: list[str] = []
    for key in ("all", "any"):
        for sub in cond.get(key, []):
            out += missing_facts(sub, facts, options)
    if "not" in cond:
        out += missing_facts(cond["not"], facts, options)
    if "fact" in cond:
        value = facts.get(cond["fact"])
        if isinstance(value, Unknown):
            out.append(f"{cond['fact']}: {value.reason}")
        for arg in cond.values():
            if isinstance(arg, dict) and set(arg) == {"fact"} \
                    and isinstance(facts.get(arg["fact"]), Unknown):
                out.append(f"{arg['fact']}: {facts[arg['fact']].reason}")
    return out


def resolve_arg(arg: Any, options: dict[str, Any], facts: Facts | None = None) -> Any:
    """`{option: name}` takes the value from the rule's (possibly configured) options, and
    `{fact: name}` from another fact of the same resource (e.g. tags.required).

    `{option: name, per: fact}` lets the option be a mapping keyed by that fact's value (e.g.
    required tags per provider), with `default` for the other values.
    """
    if isinstance(arg, dict) and set(arg) == {"fact"} and isinstance(arg["fact"], str):
        return (facts or {}).get(arg["fact"])
    if not (isinstance(arg, dict) and "option" in arg and set(arg) <= {"option", "per"}):
        return arg
    value = options[arg["option"]]
    if "per" in arg and isinstance(value, dict):
        key = (facts or {}).get(arg["per"])
        default = value.get("default")
        return value.get(key, default) if isinstance(key, str) else default
    return value


def test(cond: dict[str, Any], facts: Facts, options: dict[str, Any]) -> bool | None:
    if "all" in cond:
        results = [test(c, facts, options) for c in cond["all"]]
        if False in results:
            return False
        return None if None in results else True
    if "any" in cond:
        results = [test(c, facts, options) for c in cond["any"]]
        if True in results:
            return True
        return None if None in results else False
    if "not" in cond:
        r = test(cond["not"], facts, options)
        return None if r is None else not r
    value = facts.get(cond["fact"])
    if isinstance(value, Unknown):
        return None
    (op, arg), = ((k, v) for k, v in cond.items() if k != "fact")
    resolved = resolve_arg(arg, options, facts)
    if isinstance(resolved, Unknown):  # a {fact: name} argument that is unknown
        return None
    result = OPERATORS[op](value, resolved)
    return None if result is None else bool(result)
