"""Command-line flags shared by scan, cost, diff and baseline, and the one place they become
`Settings` (config/settings.py: defaults < configuration file < flags)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from gpulint.cli.common import fail_usage, parse_vars
from gpulint.cli.help import ConfiguredOption

if TYPE_CHECKING:
    from gpulint.config.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])


def pricing_flags(func: F) -> F:
    """--pricing-overrides, --catalog, --hours-for, --default-region."""
    for option in reversed([
        click.option("--pricing-overrides", type=click.Path(dir_okay=False),
                     help="YAML file of negotiated/reserved prices applied on top of list prices."),
        click.option("--catalog", "catalog_file", type=click.Path(dir_okay=False),
                     help="Price from this catalog snapshot instead of the bundled one."),
        click.option("--hours-for", "hours_for", multiple=True, metavar="WORKLOAD=HOURS",
                     help="Hours a month for a workload class, e.g. notebook=160 (repeatable)."),
        click.option("--default-region", "default_regions", multiple=True,
                     metavar="PROVIDER=REGION",
                     help="Region used when the code names none, e.g. aws=eu-west-1."),
    ]):
        func = option(func)
    return func


def scan_flags(func: F) -> F:
    """The configuration file, the scan inputs (variables, rules, exclusions, hours, file size)
    plus the pricing flags."""
    for option in reversed([
        click.option("--config", "config_file", type=click.Path(dir_okay=False),
                     help="Configuration file (default: .gpulint.yaml or [tool.gpulint] in "
                          "pyproject.toml, searched upwards from the scanned paths)."),
        click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
                     help="Set a Terraform root variable (like terraform -var)."),
        click.option("--var-file", "var_files", multiple=True,
                     type=click.Path(exists=True, dir_okay=False),
                     help="Read Terraform variables from a .tfvars file."),
        click.option("--rules-dir", "rules_dirs", multiple=True,
                     type=click.Path(exists=True, file_okay=False),
                     help="Extra directory of rule files."),
        click.option("--hours", type=_FiniteHours(0, 744, min_open=True), default=730.0,
                     show_default=True, help="Hours a month each resource runs.",
                     cls=ConfiguredOption, config_key=("usage_hours", "default")),
        click.option("--max-file-size", type=click.IntRange(1), default=5 * 1024,
                     show_default=True, help="Skip files larger than this many KiB."),
        click.option("--max-hcl-size", type=click.IntRange(1), default=256, show_default=True,
                     help="Do not parse Terraform files (.tf, .tf.json) larger than this many "
                          "KiB (parsing takes about 20 s a MiB)."),
        click.option("--jobs", "-j", type=click.IntRange(0), default=0,
                     help="Parse with this many processes (0: one per core, for large scans "
                          "only)."),
        click.option("--no-cache", is_flag=True,
                     help="Do not read or write the parse cache ($GPULINT_CACHE_DIR, "
                          "$XDG_CACHE_HOME/gpulint or ~/.cache/gpulint)."),
        click.option("--exclude", multiple=True, metavar="GLOB",
                     help="Do not scan or report paths matching this glob; a bare name "
                          "(vendor) matches at any depth (repeatable)."),
        click.option("--helm-values", "helm_values", multiple=True,
                     type=click.Path(exists=True, dir_okay=False),
                     help="Values file for `helm template` when a scanned directory is a Helm "
                          "chart (repeatable)."),
    ]):
        func = option(func)
    return pricing_flags(func)


class _FiniteHours(click.FloatRange):
    """A float range that refuses nan, which passes every comparison and reached the JSON
    report as NaN."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number of hours", param, ctx)
        return number


def use_catalog(path: str) -> None:
    """Price from the snapshot in ``path``; a missing or invalid file is a usage error."""
    from gpulint.pricing import catalog

    try:
        catalog.use_catalog_file(path)
    except (OSError, ValueError, KeyError, TypeError) as e:  # JSONDecodeError is a ValueError
        raise click.UsageError(f"--catalog {path}: {e}") from None


def _given(name: str, value: Any) -> Any:
    """The value of a flag the user gave, else None (the configuration file decides)."""
    source = click.get_current_context().get_parameter_source(name)
    return None if source in (None, ParameterSource.DEFAULT) else value


def build_settings(params: dict[str, Any], paths: list[str], *, report_given_files: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> Settings:
    """Settings from the values of scan_flags (consumed from ``params``) and the configuration
    file (--config, else found from ``paths``); bad values are usage errors (exit 2). A
    --catalog snapshot is put in use here."""
    from gpulint.cli.var_order import ARGS_KEY, cli_order
    from gpulint.config import settings as settings_mod
    from gpulint.config.inputs import Inputs
    from gpulint.config.load import ConfigError, resolve

    variables, var_files = params.pop("variables"), params.pop("var_files")
    ctx = click.get_current_context()
    inputs = Inputs(var_files=list(var_files), vars=parse_vars(variables),
                    env={k: v for k, v in os.environ.items() if k.startswith("TF_VAR_")},
                    cli_order=cli_order(ctx.meta.get(ARGS_KEY), variables, var_files))
    cache_dir = None
    if not params.pop("no_cache"):
        from gpulint.load.cache import default_dir

        cache_dir = default_dir()
    flags = settings_mod.Flags(
        inputs=inputs, hours=_given("hours", params.pop("hours")),
        hours_for=params.pop("hours_for"), default_regions=params.pop("default_regions"),
        pricing_overrides=params.pop("pricing_overrides"),
        catalog_file=params.pop("catalog_file"), rules_dirs=params.pop("rules_dirs"),
        exclude=params.pop("exclude"), helm_values=params.pop("helm_values"),
        max_file_kib=params.pop("max_file_size"), max_hcl_kib=params.pop("max_hcl_size"),
        jobs=params.pop("jobs"), cache_dir=cache_dir,
        report_given_files=report_given_files,
        fail_on=_given("fail_on", params.pop("fail_on", None)),
        strict=params.pop("strict", None),
        max_increase_usd=params.pop("max_increase", None),
        baseline=params.pop("baseline_file", None), no_baseline=params.pop("no_baseline", False),
        allow_unpriced=bool(params.pop("allow_unpriced", False)), progress=progress)
    explicit, gate_base = params.pop("config_file"), params.pop("gate_base", None)
    try:
        config = resolve(explicit, paths)
        if gate_base:
            config = _base_gate(config, gate_base, paths, explicit)
        settings = settings_mod.build(config, flags)
    except ConfigError as e:
        fail_usage(str(e))
    except settings_mod.SettingsError as e:
        raise click.UsageError(str(e)) from None
    if settings.catalog_file:
        use_catalog(settings.catalog_file)
    _check_regions(settings, bool(flags.default_regions))
    from gpulint.pricing.catalog_store import set_max_age_days

    set_max_age_days(settings.catalog_max_age_days)
    return settings


def _check_regions(settings: Settings, from_flags: bool) -> None:
    """Default regions the catalog in use does not price are usage errors (exit 2), every one
    at once, with the configuration file's line when they come from it."""
    from gpulint.config.load import display
    from gpulint.pricing import regions

    problems = []
    source = settings.source
    for provider, region in sorted(settings.pricing.default_regions.items()):
        problem = regions.problem(provider, region)
        if problem is None:
            continue
        if from_flags or source is None:
            problems.append(f"--default-region {provider}={region}: {problem}")
        else:
            key = next((k for k in source.data.get("regions", {}) if k.lower() == provider),
                       provider)
            line = source.lines.get(("regions", key))
            where = f"{display(source.path)}:{line}" if line else display(source.path)
            problems.append(f"{where}: regions.{key}: {problem}")
    from gpulint.pricing.regions import catalog_problems

    problems += catalog_problems(settings.clusters)
    if problems:
        fail_usage("\n".join(problems))


def _base_gate(config: Any, ref: str, paths: list[str], explicit: str | None) -> Any:
    """The gating settings of ``ref``'s configuration over the head's; the head's own changes
    to them are kept in the context for the report (`gate_changes`) and said on stderr."""
    from gpulint.report.base_gate import overlay
    from gpulint.report.git_base import GitError

    try:
        merged, changes = overlay(config, ref, paths, explicit)
    except GitError as e:
        raise click.UsageError(f"gating from {ref}: {e}") from None
    click.get_current_context().meta["gpulint.gate_changes"] = changes
    if changes:
        click.echo("gpulint: this change edits gating settings, not applied to its own run "
                   f"(the gate is {ref}'s): " + "; ".join(changes), err=True)
    return merged
