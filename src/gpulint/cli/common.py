"""Helpers every command shares: usage errors (exit 2), --var parsing, the configured rules."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

import click

if TYPE_CHECKING:
    from gpulint.config.settings import Settings
    from gpulint.ruleset import Rule

EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 3


def fail_usage(message: str) -> NoReturn:
    click.echo(f"gpulint: {message}", err=True)
    sys.exit(EXIT_USAGE)


def parse_vars(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            fail_usage(f"--var expects name=value, got {item!r}")
        out[name.strip()] = value
    return out


def written_rules(dirs: tuple[str, ...]) -> list[Rule]:
    """Built-in and extra rules as their files say; invalid rules are a usage error."""
    from gpulint.ruleset import RuleError, load_rules

    try:
        return load_rules(dirs)
    except RuleError as e:
        fail_usage(f"invalid rules\n{e}")


def configured_rules(settings: Settings) -> list[Rule]:
    """The rules a scan runs: the configuration file turns them on, off or tunes them."""
    from gpulint.config.load import ConfigError
    from gpulint.config.rule_settings import configure_rules

    rules = written_rules(settings.rules.dirs)
    if settings.source is None:
        return rules
    try:
        return configure_rules(settings.source, rules)
    except ConfigError as e:
        fail_usage(str(e))
