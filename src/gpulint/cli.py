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
from gpulint.commands.pricing_flags import apply_pricing_flags, pricing_flags

EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 3
SEVERITIES = ("error", "warning", "info")


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
    from gpulint.ruleset import RuleError, load_rules

    try:
        return load_rules(rules_dirs)
    except RuleError as e:
        _fail_usage(f"invalid rules\n{e}")


def _exit_code(report: dict[str, Any], fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = SEVERITIES.index(fail_on)
    for f in report["findings"]:
        if SEVERITIES.index(f["severity"]) <= threshold:
            return EXIT_FINDINGS
    return 0


# Commands that live in their own modules, imported only when used (keeps start-up fast).
# Add a command: one line here, "name": "module:attribute".
LAZY_COMMANDS: dict[str, str] = {
    "catalog": "gpulint.commands.catalog_cmd:catalog_cmd",
    "comment": "gpulint.github.cli:comment",
    "cost": "gpulint.commands.cost_cmd:cost",
    "diff": "gpulint.commands.diff_cmd:diff",
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


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="gpulint")
@click.option("--debug", is_flag=True, help="Show the traceback of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Find GPU money wasted in Terraform and Kubernetes before it is merged."""
    ctx.obj = {"debug": debug}


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "markdown", "github",
                                                   "junit"]), default="text", show_default=True,
              help="Output format: text, the JSON report, SARIF 2.1.0, Markdown, GitHub "
                   "workflow annotations or JUnit XML.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              help="Write the report to a file instead of standard output.")
@click.option("--fail-on", type=click.Choice([*SEVERITIES, "never"]), default="warning",
              show_default=True, help="Exit 1 when a finding has this severity or worse.")
@click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
              help="Set a Terraform root variable (like terraform -var).")
@click.option("--var-file", "var_files", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Read Terraform variables from a .tfvars file (like terraform -var-file).")
@click.option("--rules-dir", "rules_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False), help="Extra directory of rule files.")
@click.option("--hours", type=click.FloatRange(0, 744, min_open=True), default=730.0,
              show_default=True, help="Hours a month each resource runs.")
@click.option("--max-file-size", type=click.IntRange(1), default=5 * 1024, show_default=True,
              help="Skip files larger than this many KiB (with a notice).")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: on a terminal).")
@click.option("--verbose", "-v", is_flag=True, help="Show remediations, price bases and every unevaluated item.")
@pricing_flags
def scan(paths: tuple[str, ...], fmt: str, output: str | None, fail_on: str,
         variables: tuple[str, ...], var_files: tuple[str, ...], rules_dirs: tuple[str, ...],
         hours: float, max_file_size: int, color: bool | None, verbose: bool,
         pricing_overrides: str | None, catalog_file: str | None, hours_for: tuple[str, ...],
         default_regions: tuple[str, ...]) -> None:
    """Scan PATHS (default: the current directory) for GPU cost problems."""
    from gpulint import report as report_mod
    from gpulint import scan as scan_mod
    from gpulint.terraform.module import Inputs

    rules = _load_rules(rules_dirs)
    inputs = Inputs(var_files=list(var_files), vars=_parse_vars(variables),
                    env={k: v for k, v in os.environ.items() if k.startswith("TF_VAR_")})
    opts = scan_mod.ScanOptions(inputs=inputs, hours=hours, max_file_bytes=max_file_size * 1024)
    apply_pricing_flags(opts, pricing_overrides, catalog_file, hours_for, default_regions)
    result = scan_mod.run(list(paths) or ["."], rules, opts)
    report = report_mod.build(result, hours)
    from gpulint.reporters import render

    use_colour = color if color is not None else (output is None and sys.stdout.isatty()
                                                  and "NO_COLOR" not in os.environ)
    text = render(fmt, report, [r.as_dict() for r in rules], colour=use_colour, verbose=verbose)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)
    sys.exit(_exit_code(report, fail_on))


@cli.group(invoke_without_command=True)
@click.option("--rules-dir", "rules_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False), help="Extra directory of rule files.")
@click.pass_context
def rules(ctx: click.Context, rules_dirs: tuple[str, ...]) -> None:
    """List the rules, or explain one with `gpulint rules show ID`."""
    ctx.obj["rules_dirs"] = rules_dirs
    if ctx.invoked_subcommand is None:
        loaded = _load_rules(rules_dirs)
        width = max(len(r.id) for r in loaded)
        for r in sorted(loaded, key=lambda r: r.id):
            click.echo(f"{r.id:<{width}}  {r.severity.value:<7}  {r.summary}")


@rules.command("show")
@click.argument("rule_id")
@click.pass_context
def rules_show(ctx: click.Context, rule_id: str) -> None:
    """Explain one rule, with a bad and a good example."""
    import difflib

    loaded = {r.id: r for r in _load_rules(ctx.obj.get("rules_dirs", ()))}
    rule = loaded.get(rule_id)
    if rule is None:
        near = difflib.get_close_matches(rule_id, list(loaded), n=1)
        _fail_usage(f"no such rule: {rule_id!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    lines = [f"{rule.id} ({rule.severity.value}, {rule.category}): {rule.summary}", "",
             rule.docs["why"].strip(), "", "How to fix: " + rule.remediation.strip()]
    if rule.options:
        lines += ["", "Options: " + ", ".join(f"{k} = {v!r}" for k, v in rule.options.items())]
    lines += ["", "Flagged:", _indent(rule.docs["bad"]), "Fixed:", _indent(rule.docs["good"])]
    if rule.references:
        lines += ["References:"] + [f"  {u}" for u in rule.references]
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
