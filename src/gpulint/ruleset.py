"""Find rule files, validate them against the shipped schema, and load them as Rule objects."""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from gpulint.files.reader import read_file_text
from gpulint.model import Severity


class RuleError(Exception):
    """A rule file that cannot be used; the message lists every problem at once."""


@dataclass(frozen=True)
class Rule:
    id: str
    summary: str
    severity: Severity
    category: str
    applies_to: tuple[str, ...]
    match: dict[str, Any]
    message: str
    remediation: str
    docs: dict[str, str]
    cost: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    # Options the rule used to have, now settings: option -> "sizing.<name>" / "tags.<name>".
    deprecated_options: dict[str, str] = field(default_factory=dict)
    references: tuple[str, ...] = ()
    path: str = ""
    short: str = ""  # the message in a few words, without the address (text output)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "summary": self.summary, "severity": self.severity.value,
                "category": self.category, "applies_to": list(self.applies_to),
                "message": self.message, "short": self.short or None,
                "remediation": self.remediation, "docs": dict(self.docs),
                "references": list(self.references), "options": dict(self.options)}


def builtin_rules_dir() -> str:
    """rules/ ships inside the wheel; in a source checkout it sits at the repository root."""
    packaged = resources.files("gpulint") / "rules"
    if packaged.is_dir():
        return str(packaged)
    return os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "rules")


@cache
def rule_schema() -> dict[str, Any]:
    text = (resources.files("gpulint") / "schemas" / "rule.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _fact_names() -> list[str]:
    from gpulint.facts.registry import BY_NAME

    return list(BY_NAME)


def _branch_errors(error: Any) -> list[Any]:
    """A condition that matches no branch of the oneOf: report what is wrong deeper inside
    (e.g. a misspelt fact in match/all/0) instead of "not valid under any of the schemas"."""
    if error.validator not in ("oneOf", "anyOf") or not error.context \
            or (isinstance(error.instance, dict) and "fact" in error.instance):
        return [error]
    deeper = [c for c in error.context if len(c.absolute_path) > len(error.absolute_path)]
    return [leaf for c in deeper for leaf in _branch_errors(c)] or [error]


def _describe(error: Any) -> str:
    where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
    message = error.message
    if error.validator == "oneOf" and isinstance(error.instance, dict) and "fact" in error.instance:
        fact = error.instance["fact"]
        if fact not in _fact_names():
            near = difflib.get_close_matches(str(fact), _fact_names(), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            message = f"{fact!r} is not a known fact{hint}"
        else:
            ops = [k for k in error.instance if k != "fact"]
            message = f"leaf condition needs exactly one known operator, got {ops}"
    elif error.validator == "additionalProperties":
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        props = list(error.schema.get("properties", {}))
        hints = []
        for k in extra:
            near = difflib.get_close_matches(k, props, n=1)
            hints.append(f"{k!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
        message = "unknown key " + ", ".join(hints)
    return f"at {where}: {message}"


def validate(data: Any, path: str) -> list[str]:
    """Every problem with one rule file, as readable lines."""
    from jsonschema import Draft202012Validator

    if not isinstance(data, dict):
        return ["a rule file must hold a mapping"]
    validator = Draft202012Validator(rule_schema())
    errors = [leaf for e in validator.iter_errors(data) for leaf in _branch_errors(e)]
    problems = list(dict.fromkeys(_describe(e) for e in sorted(
        errors, key=lambda e: list(map(str, e.absolute_path)))))
    stem = os.path.basename(path).rsplit(".", 1)[0]
    if isinstance(data.get("id"), str) and data["id"] != stem:
        problems.append(f"at id: {data['id']!r} must equal the file name {stem!r}")
    for key in ("message", "short"):
        if isinstance(data.get(key), str):
            problems += _placeholder_problems(data[key], key)
    problems += _fact_ref_problems(data.get("match"))
    problems += _pattern_problems(data.get("match"))
    compare = (data.get("cost") or {}).get("compare_with") if isinstance(
        data.get("cost"), dict) else None
    if isinstance(compare, dict) and isinstance(compare.get("alternative"), str):
        from gpulint.facts.registry import BY_NAME

        if BY_NAME.get(f"alternative.{compare['alternative']}", None) is None:
            kinds = [n.split(".", 1)[1] for n, f in BY_NAME.items() if f.type == "alternative"]
            problems.append(f"at cost/compare_with/alternative: no fact alternative."
                            f"{compare['alternative']} (known: {', '.join(kinds)})")
    for opt in _option_refs(data.get("match")):
        if opt not in (data.get("options") or {}):
            problems.append(f"at match: option {opt!r} is used but not declared under options")
    return problems


MAX_FORMAT_WIDTH = 200  # in a message's format specifications


def _placeholder_problems(message: str, key: str = "message") -> list[str]:
    """A misspelt {placeholder} would fail when the rule fires; catch it when it is loaded."""
    import string

    from gpulint.facts.registry import placeholder_names

    known = placeholder_names()
    try:
        names = [f for _, f, _, _ in string.Formatter().parse(message) if f is not None]
    except ValueError as e:
        return [f"at {key}: {e}"]
    out = []
    for _, name, spec, _ in string.Formatter().parse(message):
        # `{address:>999999999}` would build a gigabyte per finding
        if spec and ("{" in spec or any(int(n) > MAX_FORMAT_WIDTH
                                        for n in re.findall(r"\d+", spec))):
            out.append(f"at {key}: format specification {{{name}:{spec}}} is beyond gpulint's "
                       f"limit (widths and precisions up to {MAX_FORMAT_WIDTH})")
    for name in names:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            out.append(f"at {key}: unknown placeholder {{{name}}}"
                       + (f" (did you mean {{{near[0]}}}?)" if near else ""))
    return out


def _pattern_problems(cond: Any) -> list[str]:
    """The regular expressions written in `mismatches:` conditions must compile (the engine
    matches them with a time limit)."""
    import regex

    out: list[str] = []
    if isinstance(cond, dict):
        for key, value in cond.items():
            if key == "mismatches" and isinstance(value, dict) \
                    and not ({"fact"} == set(value) or "option" in value):
                for tag, pattern in value.items():
                    try:
                        regex.compile(str(pattern))
                    except (regex.error, RecursionError, OverflowError) as e:
                        out.append(f"at match: pattern of {tag!r} is not a valid regular "
                                   f"expression: {e}")
            else:
                out += _pattern_problems(value)
    elif isinstance(cond, list):
        out = [p for v in cond for p in _pattern_problems(v)]
    return out


def _fact_ref_problems(cond: Any) -> list[str]:
    """`{fact: name}` as an operator's argument must name a registered fact."""
    from gpulint.facts.registry import BY_NAME

    out: list[str] = []
    if isinstance(cond, dict):
        for key, value in cond.items():
            if key != "fact" and isinstance(value, dict) and set(value) == {"fact"} \
                    and value["fact"] not in BY_NAME:
                near = difflib.get_close_matches(str(value["fact"]), list(BY_NAME), n=1)
                out.append(f"at match: {value['fact']!r} is not a known fact"
                           + (f" (did you mean {near[0]!r}?)" if near else ""))
            else:
                out += _fact_ref_problems(value)
    elif isinstance(cond, list):
        out = [p for v in cond for p in _fact_ref_problems(v)]
    return out


def _option_refs(cond: Any) -> list[str]:
    if isinstance(cond, dict):
        if "option" in cond and set(cond) <= {"option", "per"}:
            return [str(cond["option"])]
        return [r for v in cond.values() for r in _option_refs(v)]
    if isinstance(cond, list):
        return [r for v in cond for r in _option_refs(v)]
    return []


def load_rule_file(path: str, check: bool = True) -> Rule:
    """One rule file; `check=False` skips the schema (built-in rules: tests validate them, and
    importing jsonschema would cost every run a fifth of a second)."""
    from gpulint.files.safe_yaml import YamlProblem, load_one

    try:
        text = read_file_text(path)
        data, node = load_one(text)  # depth and aliases checked before anything is built
    except OSError as e:
        raise RuleError(f"{path}: cannot read rule file: {e}") from None
    except YamlProblem as e:
        line = f":{e.line}" if e.line else ""
        raise RuleError(f"{path}{line}: invalid YAML: {e}") from None
    problems = validate(data, path) if check else []
    if problems:
        where = _key_lines(node)
        raise RuleError(f"{path}: invalid rule\n" + "\n".join(
            f"  {_line_of(problem, where, path)}{problem}" for problem in problems))
    return Rule(
        id=data["id"], summary=data["summary"], severity=Severity(data["severity"]),
        category=data["category"], applies_to=tuple(data["applies_to"]), match=data["match"],
        message=data["message"], remediation=data["remediation"], docs=data["docs"],
        cost=data.get("cost") or {}, options=data.get("options") or {},
        deprecated_options=data.get("deprecated_options") or {},
        references=tuple(data.get("references") or ()), path=path, short=data.get("short") or "",
    )


def _key_lines(root: Any) -> dict[str, int]:
    """The 1-based line of every key path (`match/all/0`) of a rule file's YAML node tree
    (already checked for depth and aliases)."""
    import yaml

    out: dict[str, int] = {}

    def walk(node: Any, at: str) -> None:
        out.setdefault(at, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                child = f"{at}/{key.value}" if at else str(key.value)
                out[child] = key.start_mark.line + 1
                walk(value, child)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, f"{at}/{i}" if at else str(i))

    if root is not None:
        walk(root, "")
    return out


def _line_of(problem: str, lines: dict[str, int], path: str) -> str:
    """`path:line: ` for a problem `at KEY/PATH: …`, the nearest enclosing key that has a line."""
    key = problem[3:].split(": ", 1)[0] if problem.startswith("at ") else ""
    while key and key not in lines:
        key = key.rpartition("/")[0]
    line = lines.get(key) or lines.get("")
    return f"{path}:{line}: " if line else ""


def rule_files(directory: str) -> list[str]:
    return sorted(os.path.join(directory, n) for n in os.listdir(directory)
                  if n.endswith((".yaml", ".yml")))


def load_rules(extra_dirs: tuple[str, ...] = ()) -> list[Rule]:
    """Built-in rules plus those in extra directories; all problems are collected first."""
    rules: list[Rule] = []
    errors: list[str] = []
    seen: dict[str, str] = {}
    builtin = builtin_rules_dir()
    for directory in (builtin, *extra_dirs):
        try:
            paths = rule_files(directory)
        except OSError as e:
            errors.append(f"{directory}: cannot list rule directory: {e.strerror}")
            continue
        for path in paths:
            try:
                rule = load_rule_file(path, check=directory != builtin)
            except RuleError as e:
                errors.append(str(e))
                continue
            if rule.id in seen:
                errors.append(f"{path}: rule id {rule.id!r} is already defined in {seen[rule.id]}")
                continue
            seen[rule.id] = path
            rules.append(rule)
    if errors:
        raise RuleError("\n".join(errors))
    return rules
