"""Command line: the only place that prints and decides the exit code.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage or configuration
error, 3 internal error.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any, NoReturn

import click

from gpulint import __version__
from gpulint.cli.options import scan_flags
from gpulint.report.exit import FAIL_ON_CHOICES, fails
from gpulint.reporters import FORMATS

EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 3


def _fail_usage(message: str) -> NoReturn:
    click.echo(f"gpulint: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _parse_vars(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            _fail_usage(f"--var expects name=value, got {item!r}")
        out[name.strip()] = value
    return out


def _load_rules(rules_dirs: tuple[str, ...]) -> list[Any]:
    """Built-in and extra rules, as the configuration (if any) turns them on, off or tunes them."""
    from gpulint.ruleset import RuleError, load_rules

    try:
        rules = load_rules(rules_dirs)
    except RuleError as e:
        _fail_usage(f"invalid rules\n{e}")
    ctx = click.get_current_context(silent=True)
    config = ctx.meta.get("gpulint.config.load") if ctx is not None else None
    if config is None:
        return rules
    from gpulint.config.load import ConfigError, configure_rules

    try:
        return configure_rules(config, rules)
    except ConfigError as e:
        _fail_usage(str(e))


# Commands that live in their own modules, imported only when used (keeps start-up fast).
# Add a command: one line here, "name": "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "catalog": "gpulint.cli.catalog:catalog_cmd",
    "comment": "gpulint.cli.comment:comment",
    "cost": "gpulint.cli.cost:cost",
    "diff": "gpulint.cli.diff:diff",
    "explain-model": "gpulint.cli.explain:explain_model",
    "baseline": "gpulint.cli.baseline:baseline",
    "init": "gpulint.cli.init:init",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            import importlib

            module, attr = LAZY_COMMANDS[name].split(":")
            return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]
        return super().get_command(ctx, name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        # The subcommand's arguments, for what click's parse drops: the order of --var and
        # --var-file (gpulint.commands.var_order).
        ctx.meta["gpulint.command_args"] = list(args[1:])
        return super().resolve_command(ctx, args)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gpulint")
@click.option("--debug", is_flag=True, help="Show the traceback of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Find GPU money wasted in Terraform and Kubernetes before it is merged."""
    ctx.obj = {"debug": debug}


def _given_files(paths: list[str]) -> tuple[list[str], set[str] | None]:
    """When only files are given (pre-commit), report on those files alone; a changed .tfvars
    file stands for the Terraform files of its directory. A path that does not exist is a
    usage error: a mistyped path in CI must not scan nothing and pass."""
    missing = [p for p in paths if not os.path.lexists(p)]
    if missing:
        _fail_usage("no such file or directory: " + ", ".join(missing))
    if not paths or not all(os.path.isfile(p) for p in paths):
        return paths, None
    out: list[str] = []
    for p in paths:
        if p.endswith((".tfvars", ".tfvars.json")):
            directory = os.path.dirname(p) or "."
            out += [os.path.join(os.path.dirname(p), n) for n in sorted(os.listdir(directory))
                    if n.endswith((".tf", ".tf.json"))]
        else:
            out.append(p)
    return out, {os.path.normpath(p) for p in out}


def run_scan(rules_dirs: tuple[str, ...], params: dict[str, Any]) -> tuple[Any, Any]:
    """Build options (flags, then configuration), scan, and return (ScanResult, rules)."""
    from gpulint.cli import progress
    from gpulint import pipeline as scan_mod
    from gpulint.cli.options import build_options

    opts = build_options(params)
    rules = _load_rules(rules_dirs)
    paths, opts.report_only = _given_files(list(params.pop("paths")) or ["."])
    bar = progress.ProgressBar() if progress.wanted() else None
    opts.progress = bar
    try:
        return scan_mod.run(paths, rules, opts), rules
    finally:
        if bar:
            bar.close()


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Output format: text, the JSON report, SARIF 2.1.0, Markdown, GitHub "
                   "workflow annotations, JUnit XML or a self-contained HTML page with charts.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to a file instead of standard output.")
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="warning",
              show_default=True, help="Exit 1 when a finding has this severity or worse.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline (gpulint baseline).")
@click.option("--show-suppressed", is_flag=True, help="List the findings hidden by suppressions.")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: on a terminal).")
@click.option("--verbose", "-v", is_flag=True, help="Show remediations, price bases and every unevaluated item.")
@scan_flags
def scan(fmt: str, output: str | None, fail_on: str, baseline_file: str | None,
         show_suppressed: bool, color: bool | None, verbose: bool, rules_dirs: tuple[str, ...],
         **params: Any) -> None:
    """Scan PATHS (default: the current directory) for GPU cost problems."""
    from gpulint.report import build as report_mod

    result, rules = run_scan(rules_dirs, params)
    if baseline_file:
        from gpulint.report import baseline

        try:
            known = baseline.load(baseline_file)
        except baseline.BaselineError as e:
            _fail_usage(str(e))
        result.findings, result.baselined = baseline.split(result.findings, known)
    report = report_mod.build(result, result.options.hours, show_suppressed=show_suppressed)
    from gpulint.reporters import render

    use_colour = color if color is not None else (output is None and sys.stdout.isatty()
                                                  and "NO_COLOR" not in os.environ)
    text = render(fmt, report, [r.as_dict() for r in rules], colour=use_colour, verbose=verbose)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)
    sys.exit(EXIT_FINDINGS if fails(report, fail_on) else 0)


@cli.group(invoke_without_command=True)
@click.option("--rules-dir", "rules_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False), help="Extra directory of rule files.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Configuration file (default: .gpulint.yaml or [tool.gpulint] in "
                   "pyproject.toml, searched upwards from the working directory).")
@click.pass_context
def rules(ctx: click.Context, rules_dirs: tuple[str, ...], config_file: str | None) -> None:
    """List the rules, or explain one with `gpulint rules show ID`.

    Severities and enablement are those a scan uses: the configuration file's `rules` settings
    applied (a disabled rule is listed as `off`)."""
    from gpulint.config.load import ConfigError, resolve

    try:
        config = resolve(config_file, ())
    except ConfigError as e:
        _fail_usage(str(e))
    if config is not None:
        ctx.meta["gpulint.config.load"] = config
        if not rules_dirs:  # the configuration's custom rule directories, if any
            rules_dirs = tuple(config.cli_defaults().get("rules_dirs", ()))
    ctx.obj["rules_dirs"] = rules_dirs
    if ctx.invoked_subcommand is None:
        listed, enabled = _configured_rules(rules_dirs)
        width = max(len(r.id) for r in listed)
        for r in listed:
            severity = enabled[r.id].severity.value if r.id in enabled else "off"
            click.echo(f"{r.id:<{width}}  {severity:<7}  {r.summary}")
        if config is not None:
            click.echo(f"\n(as configured by {os.path.relpath(config.path)})")


def _configured_rules(rules_dirs: tuple[str, ...]) -> tuple[list[Any], dict[str, Any]]:
    """Every loaded rule sorted by id (as written), and the enabled ones by id as the
    configuration sets them (the ones a scan runs)."""
    from gpulint.ruleset import RuleError, load_rules

    try:
        written = sorted(load_rules(rules_dirs), key=lambda r: r.id)
    except RuleError as e:
        _fail_usage(f"invalid rules\n{e}")
    return written, {r.id: r for r in _load_rules(rules_dirs)}


@rules.command("show")
@click.argument("rule_id")
@click.pass_context
def rules_show(ctx: click.Context, rule_id: str) -> None:
    """Explain one rule, with a bad and a good example."""
    import difflib

    written, enabled = _configured_rules(ctx.obj.get("rules_dirs", ()))
    loaded = {r.id: r for r in written}
    if rule_id not in loaded:
        near = difflib.get_close_matches(rule_id, list(loaded), n=1)
        _fail_usage(f"no such rule: {rule_id!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    rule = enabled.get(rule_id, loaded[rule_id])
    state = rule.severity.value if rule_id in enabled else f"off; {rule.severity.value} when on"
    lines = [f"{rule.id} ({state}, {rule.category}): {rule.summary}", "",
             rule.docs["why"].strip(), "", "How to fix: " + rule.remediation.strip()]
    if rule.options:
        lines += ["", "Options: " + ", ".join(f"{k} = {v!r}" for k, v in rule.options.items())]
    lines += ["", "Flagged:", _indent(rule.docs["bad"]), "Fixed:", _indent(rule.docs["good"])]
    if rule.references:
        lines += ["References:"] + [f"  {u}" for u in rule.references]
    config = ctx.meta.get("gpulint.config.load")
    if config is not None:
        lines += ["", f"(as configured by {os.path.relpath(config.path)})"]
    click.echo("\n".join(lines))


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines()) + "\n"


@cli.command("validate-rules")
@click.argument("files", nargs=-1, type=click.Path())
def validate_rules(files: tuple[str, ...]) -> None:
    """Check rule files against the rule schema; report every problem at once."""
    from gpulint.ruleset import RuleError, load_rule_file

    problems = []
    for path in files:
        try:
            load_rule_file(path)
        except RuleError as e:
            problems.append(str(e))
    if problems:
        click.echo("\n".join(problems), err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"{len(files)} rule file(s) valid")


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI and turn unexpected exceptions into exit code 3."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=argv, prog_name="gpulint", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as e:
        e.show()
        sys.exit(EXIT_USAGE)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(130)
    except BaseException as e:  # noqa: BLE001 - the last line of defence
        if debug:
            traceback.print_exc()
        click.echo(f"gpulint: internal error: {type(e).__name__}: {e}; rerun with --debug for "
                   "the traceback", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(0)
