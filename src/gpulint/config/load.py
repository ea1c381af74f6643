"""Find, read and validate the configuration: `.gpulint.yaml` or `[tool.gpulint]` in pyproject.toml.

Discovery walks up from the scanned paths (or the working directory) and stops at the repository
root, or outside a repository at the working directory (or the scanned paths when they are not
under it). Every problem is reported at once, each with its file, line (YAML) and key path, and a
did-you-mean for misspelt keys. config/settings.py turns the file, under the flags, into
Settings.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpulint.config.checks import non_finite
from gpulint.files.reader import read_file, read_file_text
from gpulint.files.words import did_you_mean

CONFIG_FILES = (".gpulint.yaml", ".gpulint.yml")
PYPROJECT = "pyproject.toml"


class ConfigError(Exception):
    """A configuration that cannot be used; the message lists every problem."""


@dataclass(frozen=True)
class Config:
    path: str  # the file it came from
    data: dict[str, Any]
    lines: dict[tuple[Any, ...], int] = field(default_factory=dict, compare=False)

    @property
    def base_dir(self) -> str:
        return os.path.dirname(os.path.abspath(self.path))

    def relative(self, path: str) -> str:
        """A path written in the file is relative to the file's directory."""
        return os.path.normpath(os.path.join(self.base_dir, os.path.expanduser(path)))


def schema() -> dict[str, Any]:
    import json
    from importlib import resources

    text = (resources.files("gpulint") / "schemas" / "config.schema.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------------------------
# Discovery

def _has_tool_section(path: str) -> bool:
    try:
        raw = read_file(path)
    except OSError:
        return False
    # Cheap test first: most pyproject files have no gpulint section, so skip parsing them.
    if b"tool.gpulint" not in raw:
        return False
    try:
        _load_toml(path)
    except ConfigError as e:
        if "no [tool.gpulint] section" in str(e):
            return False  # only mentioned, e.g. in a comment
        raise
    return True


def find(paths: Iterable[str] = ()) -> str | None:
    """The nearest config file above the scanned paths (or the working directory), never above
    the repository root (the nearest `.git`) or, outside a repository, above the working
    directory (or the scanned paths, when they are not under it): a `.gpulint.yaml` in some
    parent of a checkout must not decide what is scanned."""
    dirs = [os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    try:
        start = os.path.commonpath(dirs) if dirs else os.getcwd()
    except ValueError:  # paths on different drives
        start = os.getcwd()
    stop = _search_root(start)
    current = start
    while True:
        for name in CONFIG_FILES:
            candidate = os.path.join(current, name)
            if os.path.isfile(candidate):
                return candidate
        candidate = os.path.join(current, PYPROJECT)
        if os.path.isfile(candidate) and _has_tool_section(candidate):
            return candidate
        parent = os.path.dirname(current)
        if parent == current or current == stop:
            return None
        current = parent


def _search_root(start: str) -> str:
    """Where discovery from `start` stops: the repository root, else the working directory when
    `start` is inside it, else `start` itself."""
    current = start
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    cwd = os.getcwd()
    inside = start == cwd or start.startswith(cwd.rstrip(os.sep) + os.sep)
    return cwd if inside else start


def resolve(explicit: str | None, paths: Iterable[str]) -> Config | None:
    """`--config FILE` if given, else the discovered file, else None."""
    if explicit:
        if not os.path.exists(explicit):  # a FIFO or directory: the reader says what it is
            raise ConfigError(f"{explicit}: configuration file not found")
        return load(explicit)
    found = find(paths)
    return load(found) if found else None


# ---------------------------------------------------------------------------------------------
# Reading

def _load_toml(path: str) -> tuple[dict[str, Any], dict[tuple[Any, ...], int]]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    from gpulint.config.toml_lines import key_lines

    try:
        text = read_file_text(path)
        data = tomllib.loads(text)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    except RecursionError:  # the TOML parser recurses once per level of arrays or tables
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    section = data.get("tool", {}).get("gpulint")
    if section is None:
        raise ConfigError(f"{path}: no [tool.gpulint] section")
    return section, key_lines(text)


def _line_map(node: Any, prefix: tuple[Any, ...], out: dict[tuple[Any, ...], int]) -> None:
    """Key path → 1-based line, from the YAML node tree, so errors can point at the line."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = (*prefix, key.value)
            out[path] = key.start_mark.line + 1
            _line_map(value, path, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            at = (*prefix, i)
            out[at] = item.start_mark.line + 1
            _line_map(item, at, out)


def _load_yaml(path: str) -> tuple[Any, dict[tuple[Any, ...], int]]:
    from gpulint.files.safe_yaml import YamlProblem, load_one

    try:
        text = read_file_text(path)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        data, node = load_one(text)  # depth, alias bombs and recursion checked first
    except YamlProblem as e:
        where = f":{e.line}" if e.line else ""
        raise ConfigError(f"{path}{where}: invalid YAML: {e}") from None
    lines: dict[tuple[Any, ...], int] = {}
    _line_map(node, (), lines)
    return ({} if data is None else data), lines


def load(path: str) -> Config:
    if os.path.basename(path) == PYPROJECT or path.endswith(".toml"):
        data, lines = _load_toml(path)
    else:
        data, lines = _load_yaml(path)
    config = Config(path, data if isinstance(data, dict) else {}, lines)
    problems = validate(data, lines) + _check_values(config, lines)
    problems.sort(key=lambda p: (p[2] or 0, key_path(p[0])))
    if problems:
        raise ConfigError(format_problems(display(path), problems))
    return config


def display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


# ---------------------------------------------------------------------------------------------
# Validation

Problem = tuple[tuple[Any, ...], str, "int | None"]  # key path, message, line


def key_path(path: Iterable[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def format_problems(path: str, problems: list[Problem]) -> str:
    lines = []
    for keys, message, line in problems:
        where = f"{path}:{line}" if line else path
        lines.append(f"{where}: {key_path(keys)}: {message}")
    return f"invalid configuration ({len(problems)} problem{'s' * (len(problems) != 1)})\n" \
        + "\n".join("  " + s for s in lines)


def _expected(errors: list[Any]) -> str:
    """What an anyOf branch set accepts, in words, from its failed branches."""
    kinds = {"boolean": "true/false", "object": "a mapping", "array": "a list",
             "string": "a string", "number": "a number"}
    parts: list[str] = []
    for e in errors:
        if e.validator == "enum":
            parts.append("one of " + ", ".join(repr(v) for v in e.validator_value))
        elif e.validator == "type":
            parts.append(kinds.get(str(e.validator_value), str(e.validator_value)))
    return " or ".join(dict.fromkeys(parts))


def _describe(error: Any, lines: dict[tuple[Any, ...], int]) -> list[Problem]:
    path = tuple(error.absolute_path)

    def at(keys: tuple[Any, ...], message: str) -> Problem:
        probe = keys
        while probe and probe not in lines:
            probe = probe[:-1]
        return keys, message, lines.get(probe)

    if error.validator == "additionalProperties":
        props = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in props]
        return [at((*path, k), f"unknown key {k!r}{did_you_mean(str(k), props)}") for k in extra]
    if error.validator in ("anyOf", "oneOf") and error.context:
        # Keep the errors of the branch whose type matched (e.g. a misspelt key in a mapping);
        # if no branch matched the type, say what is accepted.
        structural = [e for e in error.context if e.validator not in ("type", "enum")
                      and not (e.validator == "required" and not e.relative_path)]
        if structural:
            return [p for e in structural for p in _describe(e, lines)]
        needed = [v for e in error.context if e.validator == "required" for v in e.validator_value]
        if needed and len(needed) == len(error.context):
            return [at(path, "needs " + " or ".join(repr(k) for k in needed))]
        choices = [str(v) for e in error.context if e.validator == "enum"
                   for v in e.validator_value]
        hint = did_you_mean(error.instance, choices) if isinstance(error.instance, str) else ""
        expected = _expected(list(error.context))
        return [at(path, f"got {error.instance!r}; expected {expected}{hint}")]
    if error.validator == "enum":
        hint = did_you_mean(error.instance, map(str, error.validator_value)) \
            if isinstance(error.instance, str) else ""
        options = ", ".join(repr(v) for v in error.validator_value)
        if "propertyNames" in error.schema_path:
            return [at((*path, error.instance), f"unknown key {error.instance!r}{hint}; "
                                                 f"expected one of {options}")]
        return [at(path, f"{error.instance!r} is not one of {options}{hint}")]
    if error.validator == "propertyNames" and error.context:
        return [p for e in error.context for p in _describe(e, lines)]
    return [at(path, error.message)]


def validate(data: Any, lines: dict[tuple[Any, ...], int] | None = None) -> list[Problem]:
    """Every schema problem, in file order."""
    from jsonschema import Draft202012Validator

    lines = lines or {}
    if not isinstance(data, dict):
        return [((), "the configuration must be a mapping", None)]
    validator = Draft202012Validator(schema())
    problems: list[Problem] = []
    for error in validator.iter_errors(data):
        problems.extend(_describe(error, lines))
    problems = list(dict.fromkeys(problems))
    return sorted(problems, key=lambda p: (p[2] or 0, key_path(p[0])))


def _check_values(config: Config, lines: dict[tuple[Any, ...], int]) -> list[Problem]:
    """What a schema cannot say: regular expressions compile, referenced paths exist. Runs on
    whatever has the right type, so these come together with the schema's problems."""
    import re

    d = config.data
    problems: list[Problem] = [(keys, "not a finite number (.nan and .inf are not accepted)",
                                lines.get(keys)) for keys in non_finite(d, ())]
    tags = d.get("tags")
    patterns = tags.get("patterns") if isinstance(tags, dict) else None
    for key, pattern in (patterns.items() if isinstance(patterns, dict) else ()):
        if not isinstance(pattern, str):
            continue
        try:
            re.compile(pattern)
        except re.error as e:
            keys = ("tags", "patterns", key)
            problems.append((keys, f"invalid regular expression: {e}", lines.get(keys)))
    dirs = d.get("rules_dirs")
    for i, directory in enumerate(dirs if isinstance(dirs, list) else ()):
        if isinstance(directory, str) and not os.path.isdir(config.relative(directory)):
            problems.append((("rules_dirs", i), f"no such directory: {directory}",
                             lines.get(("rules_dirs", i))))
    from gpulint.config import cluster_checks

    problems += cluster_checks.problems(d, lines)
    overrides = d.get("pricing_overrides")
    if isinstance(overrides, str) and not os.path.isfile(config.relative(overrides)):
        problems.append((("pricing_overrides",), f"no such file: {overrides}",
                         lines.get(("pricing_overrides",))))
    return problems


# ---------------------------------------------------------------------------------------------
# Applying
