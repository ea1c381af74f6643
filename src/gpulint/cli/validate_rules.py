"""`gpulint validate-rules [FILE]...`: rule files checked against the rule schema, every problem
at once with its file, line and key path. Without files: every file of the configured rule
directories (`rules_dirs`), so a CI step or hook without arguments checks something."""

from __future__ import annotations

import sys

import click

from gpulint.cli.common import EXIT_USAGE, fail_usage


@click.command("validate-rules")
@click.argument("files", nargs=-1, type=click.Path())
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Configuration file whose rules_dirs are checked when no FILES are given "
                   "(default: found from the working directory).")
def validate_rules(files: tuple[str, ...], config_file: str | None) -> None:
    """Check rule files against the rule schema; report every problem at once. Without FILES,
    check every rule file of the configured rule directories."""
    from gpulint.ruleset import RuleError, load_rule_file, rule_files
    from gpulint.units import plural

    problems: list[str] = []
    paths = list(files)
    if not paths:
        from gpulint.config.load import display

        for directory in map(display, _configured_dirs(config_file)):
            try:
                paths += rule_files(directory)
            except OSError as e:
                problems.append(f"{directory}: cannot list rule directory: {e.strerror or e}")
    seen: dict[str, str] = {}
    for path in paths:
        try:
            rule = load_rule_file(path)
        except RuleError as e:
            problems.append(str(e))
            continue
        if rule.id in seen and not files:
            problems.append(f"{path}: rule id {rule.id!r} is already defined in {seen[rule.id]}")
        seen.setdefault(rule.id, path)
    if problems:
        click.echo("\n".join(problems), err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"{plural(len(paths), 'rule file')} valid")


def _configured_dirs(config_file: str | None) -> tuple[str, ...]:
    """The configuration's rules_dirs; none is a usage error (nothing would be checked)."""
    from gpulint.config import settings as settings_mod
    from gpulint.config.load import ConfigError, resolve

    try:
        settings = settings_mod.build(resolve(config_file, ()), settings_mod.Flags())
    except (ConfigError, settings_mod.SettingsError) as e:
        fail_usage(str(e))
    if not settings.rules.dirs:
        fail_usage("no rule files given and no rule directories configured (rules_dirs in "
                   ".gpulint.yaml or [tool.gpulint] in pyproject.toml)")
    return settings.rules.dirs
