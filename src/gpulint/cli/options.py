"""Command-line flags shared by scan, cost and diff: what to scan and how to price it."""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar

import click

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


def _config_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Find and validate the configuration before the other options take their defaults, so
    they default to the file's values and an explicit flag still wins (Black's pattern). PATHS
    is eager too, so the search starts from the scanned paths."""
    from gpulint.cli import _fail_usage
    from gpulint.config.load import ConfigError, resolve

    try:
        config = resolve(value, ctx.params.get("paths") or ())
    except ConfigError as e:
        _fail_usage(str(e))
    ctx.meta["gpulint.config.load"] = config
    if config is not None:
        ctx.default_map = {**config.cli_defaults(), **(ctx.default_map or {})}
    return value


def scan_flags(func: F) -> F:
    """The configuration file, the scan inputs (variables, rules, exclusions, hours, file size)
    plus the pricing flags."""
    for option in reversed([
        click.option("--config", "config_file", type=click.Path(dir_okay=False), is_eager=True,
                     callback=_config_callback,
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
        click.option("--hours", type=click.FloatRange(0, 744, min_open=True), default=730.0,
                     show_default=True, help="Hours a month each resource runs."),
        click.option("--max-file-size", type=click.IntRange(1), default=5 * 1024,
                     show_default=True, help="Skip files larger than this many KiB."),
        click.option("--jobs", "-j", type=click.IntRange(0), default=0,
                     help="Parse with this many processes (0: one per core, for large scans "
                          "only)."),
        click.option("--no-cache", is_flag=True,
                     help="Do not read or write the parse cache ($GPULINT_CACHE_DIR, "
                          "$XDG_CACHE_HOME/gpulint or ~/.cache/gpulint)."),
        click.option("--exclude", multiple=True, metavar="GLOB",
                     help="Do not scan paths matching this glob (repeatable)."),
        click.option("--helm-values", "helm_values", multiple=True,
                     type=click.Path(exists=True, dir_okay=False),
                     help="Values file for `helm template` when a scanned directory is a Helm "
                          "chart (repeatable)."),
    ]):
        func = option(func)
    return pricing_flags(func)


def _pairs(values: tuple[str, ...], flag: str, what: str) -> dict[str, str]:
    out = {}
    for item in values:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise click.UsageError(f"{flag} expects {what}, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def use_catalog(path: str) -> None:
    """Price from the snapshot in ``path``; a missing or invalid file is a usage error."""
    from gpulint.pricing import catalog

    try:
        catalog.use_catalog_file(path)
    except (OSError, ValueError, KeyError, TypeError) as e:  # JSONDecodeError is a ValueError
        raise click.UsageError(f"--catalog {path}: {e}") from None


def apply_pricing_flags(opts: Any, pricing_overrides: str | None, catalog_file: str | None,
                        hours_for: tuple[str, ...], default_regions: tuple[str, ...]) -> None:
    """Load the files the flags name into ScanOptions; bad input is a usage error (exit 2)."""
    from gpulint.pricing.overrides import OverridesError, load

    if catalog_file:
        use_catalog(catalog_file)
    if pricing_overrides:
        try:
            opts.pricing_overrides = load(pricing_overrides)
        except OverridesError as e:
            raise click.UsageError(str(e)) from None
    from gpulint.facts.common import WORKLOADS

    known = sorted(WORKLOADS | {"unknown"})
    for workload, hours in _pairs(hours_for, "--hours-for", "WORKLOAD=HOURS").items():
        if workload not in known:
            raise click.UsageError(f"--hours-for: unknown workload {workload!r}; expected one "
                                   f"of {', '.join(known)}")
        try:
            value = float(hours)
        except ValueError:
            value = -1.0
        if not 0 <= value <= 744:
            raise click.UsageError(f"--hours-for {workload}: hours must be a number from 0 to "
                                   f"744, got {hours!r}")
        opts.hours_by_workload[workload] = value
    regions = _pairs(default_regions, "--default-region", "PROVIDER=REGION")
    for provider in regions:
        if provider.lower() not in ("aws", "gcp", "azure"):
            raise click.UsageError(f"--default-region: unknown provider {provider!r}; expected "
                                   "aws, gcp or azure")
    opts.default_regions.update({k.lower(): v for k, v in regions.items()})


def build_options(kwargs: dict[str, Any]) -> Any:
    """ScanOptions from the values of scan_flags (consumed from kwargs)."""
    from gpulint import pipeline as scan_mod
    from gpulint.cli import _parse_vars
    from gpulint.terraform.variables import Inputs

    from gpulint.cli.var_order import ARGS_KEY, cli_order

    variables, var_files = kwargs.pop("variables"), kwargs.pop("var_files")
    inputs = Inputs(var_files=list(var_files), vars=_parse_vars(variables),
                    env={k: v for k, v in os.environ.items() if k.startswith("TF_VAR_")},
                    cli_order=cli_order(click.get_current_context().meta.get(ARGS_KEY),
                                        variables, var_files))
    opts = scan_mod.ScanOptions(inputs=inputs, hours=kwargs.pop("hours"),
                                max_file_bytes=kwargs.pop("max_file_size") * 1024,
                                helm_values=list(kwargs.pop("helm_values")),
                                jobs=kwargs.pop("jobs"))
    if not kwargs.pop("no_cache"):
        from gpulint.load.cache import default_dir

        opts.cache_dir = default_dir()
    apply_pricing_flags(opts, kwargs.pop("pricing_overrides"), kwargs.pop("catalog_file"),
                        kwargs.pop("hours_for"), kwargs.pop("default_regions"))
    kwargs.pop("config_file")
    opts.exclude = [os.path.normpath(os.path.join(os.getcwd(), g)) for g in kwargs.pop("exclude")]
    config = click.get_current_context().meta.get("gpulint.config.load")
    if config is not None:  # what flags cannot say: models, per-resource hours, suppressions
        from gpulint.cli import _fail_usage
        from gpulint.config.load import ConfigError, apply

        try:
            apply(config, opts)
        except ConfigError as e:
            _fail_usage(str(e))
    return opts
