"""The configuration's rule settings applied to the loaded rules: `rules.<id>` (on/off, severity,
options) and the `select`/`ignore` lists, each checked against the rules' real ids and options so
a misspelt name is an error at its line with a suggestion, never a silently ignored setting."""

from __future__ import annotations

from typing import Any

from gpulint.config.load import Config, ConfigError, Problem, display, format_problems
from gpulint.files.words import did_you_mean


def configure_rules(config: Config, rules: list[Any]) -> list[Any]:
    """The enabled rules, with configured severities and options.

    Rule ids and option names are checked against the loaded rules (custom ones included), so a
    misspelt id is an error with a suggestion, not a silently ignored setting.
    """
    import dataclasses

    from gpulint.model import Severity

    d = config.data
    by_id = {r.id: r for r in rules}
    problems: list[Problem] = []
    changes: dict[str, dict[str, Any]] = {}
    disabled: set[str] = set()
    for rule_id, setting in d.get("rules", {}).items():
        rule = by_id.get(rule_id)
        if rule is None:
            problems.append((("rules", rule_id), f"unknown rule {rule_id!r}"
                             f"{did_you_mean(rule_id, by_id)}",
                             config.lines.get(("rules", rule_id))))
            continue
        if not isinstance(setting, dict):
            setting = {"enabled": False} if setting in (False, "off") else \
                {} if setting is True else {"severity": setting}
        if setting.get("enabled") is False:
            disabled.add(rule_id)
        change = changes.setdefault(rule_id, {})
        if "severity" in setting:
            change["severity"] = Severity(setting["severity"])
        options = dict(change.get("options", rule.options))
        known = {**rule.options, **rule.deprecated_options}
        for name, value in setting.get("options", {}).items():
            if name not in rule.options and name not in rule.deprecated_options:
                problems.append((("rules", rule_id, "options", name),
                                 f"rule {rule_id} has no option {name!r}"
                                 f"{did_you_mean(name, known)}",
                                 config.lines.get(("rules", rule_id, "options", name))))
            elif name in rule.options and (mismatch := _option_type(rule.options[name], value)):
                problems.append((("rules", rule_id, "options", name), mismatch,
                                 config.lines.get(("rules", rule_id, "options", name))))
            elif name in rule.deprecated_options and \
                    (mismatch := _setting_type(rule.deprecated_options[name], value)):
                problems.append((("rules", rule_id, "options", name), mismatch,
                                 config.lines.get(("rules", rule_id, "options", name))))
            options[name] = value
        change["options"] = options
    problems += _selector_problems(config, list(by_id))
    if problems:
        raise ConfigError(format_problems(display(config.path), problems))
    return [dataclasses.replace(r, **changes.get(r.id, {})) for r in rules if r.id not in disabled]


def _selector_problems(config: Config, rule_ids: list[str]) -> list[Problem]:
    """`select`/`ignore` entries that name no rule (a typo would report nothing, or all)."""
    problems: list[Problem] = []
    for key in ("select", "ignore"):
        for i, selector in enumerate(config.data.get(key, ())):
            if selector != "ALL" and not any(r.startswith(selector) for r in rule_ids):
                problems.append(((key, i), f"no rule id is or starts with {selector!r}"
                                 f"{did_you_mean(selector, rule_ids)}",
                                 config.lines.get((key, i))))
    return problems


def _option_type(default: Any, value: Any) -> str:
    """Why ``value`` cannot replace a rule option whose default is ``default`` (same kind:
    a number, true/false, text, a list or a mapping); empty when it can. Caught here, with
    the line, instead of as a comparison failing while the rule runs."""
    kinds = ((bool, "true or false"), ((int, float), "a number"), (str, "text"),
             (list, "a list"), (dict, "a mapping"))
    if isinstance(value, dict):
        return ""  # a mapping per provider ({option: name, per: provider}) or the default's
    for kind, name in kinds:
        if isinstance(default, kind):
            number = kind == (int, float)
            ok = isinstance(value, kind) and not (number and isinstance(value, bool))
            return "" if ok else f"must be {name} like its default {default!r}, got {value!r}"
    return ""


def _setting_type(target: str, value: Any) -> str:
    """Why ``value`` cannot stand for the setting a deprecated option maps to (``target``,
    e.g. ``tags.required``), checked against that setting's schema; empty when it can."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    from gpulint.config.load import schema

    whole = schema()
    node: Any = whole
    for part in target.split("."):
        node = (node.get("properties") or {}).get(part) if isinstance(node, dict) else None
        if node is None:
            return ""
    error = best_match(Draft202012Validator({**node, "$defs": whole.get("$defs", {})})
                       .iter_errors(value))
    return "" if error is None else f"must be what {target} takes: {error.message}"
