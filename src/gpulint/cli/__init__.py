"""Command line: the only place that prints and decides the exit code.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above it or a file that could not
be parsed (and, with --strict, tool warnings or GPU resources not evaluated), 2 usage or
configuration error, 3 internal error.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any

import click

from gpulint import __version__
from gpulint.cli import output as output_mod
from gpulint.cli.common import (
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    EXIT_USAGE,
    configured_rules,
    fail_usage,
    written_rules,
)
from gpulint.cli.help import ConfiguredOption
from gpulint.cli.options import scan_flags
from gpulint.cli.output import colour_options, output_option
from gpulint.cli.select import selection_flags
from gpulint.model import DEFAULT_FAIL_ON, FAIL_ON_CHOICES
from gpulint.reporters import FORMATS, help_text

# Re-exported: commands and tests use them from here.
__all__ = ["EXIT_FINDINGS", "EXIT_INTERNAL", "EXIT_USAGE", "cli", "main", "run_scan"]


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
    "validate-rules": "gpulint.cli.validate_rules:validate_rules",
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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from gpulint.cli.help import format_commands

        format_commands(self, ctx, formatter)

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


NOTHING_FOUND = "no Terraform or Kubernetes file found: nothing was scanned"


def run_scan(params: dict[str, Any], paths: list[str]) -> tuple[Any, Any]:
    """Settings (defaults < configuration < flags), the configured rules, and the scan of
    ``paths``: (ScanResult, rules). When only files are given (pre-commit), the report covers
    those files. A path that does not exist is a usage error: a mistyped path in CI must not
    scan nothing and pass."""
    from gpulint import pipeline
    from gpulint.cli import progress, select, stdin
    from gpulint.cli.options import build_settings

    missing = [p for p in paths if p != "-" and not os.path.lexists(p)]
    if missing:
        fail_usage("no such file or directory: " + ", ".join(missing))
    chosen = params.pop("select", ()), params.pop("ignore", ())
    bar = progress.ProgressBar() if progress.wanted() else None
    with stdin.as_file(paths) as (paths, stream):
        if stream:  # the configuration is the working directory's; a stream is not cached
            params["no_cache"] = True
        settings = build_settings(params, ["."] if stream else paths, report_given_files=True,
                                  progress=bar)
        rules = configured_rules(settings)
        try:
            result = pipeline.run(paths, rules, settings)
        finally:
            if bar:
                bar.close()
    if stream:
        stdin.rename(result, stream)
        paths = ["-"]
    # A flag replaces the configuration's list, as ruff's --select does.
    rules = select.apply(result, rules, chosen[0] or settings.select, chosen[1] or settings.ignore)
    from gpulint.cli.validate import check_resource_regions

    result.diagnostics += check_resource_regions(result.resources, settings.scan.inputs.vars)
    if not result.files_scanned:
        from gpulint.model import Diagnostic

        # A mistyped directory or an --exclude that matches everything must not pass silently.
        result.diagnostics.append(Diagnostic(
            paths[0] if len(paths) == 1 else ", ".join(paths), None,
            NOTHING_FOUND, "warning"))
    return result, rules


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help=help_text())
@output_option
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default=DEFAULT_FAIL_ON,
              show_default=True, help="Exit 1 when a finding has this severity or worse "
                                      "(files that cannot be parsed always fail).",
              cls=ConfiguredOption, config_key=("fail_on",))
@click.option("--strict/--no-strict", default=None,
              help="Also exit 1 on tool warnings (an unused suppression, a skipped file) and on "
                   "GPU resources that could not be priced or evaluated.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline (gpulint baseline).",
              cls=ConfiguredOption, config_key=("baseline",))
@click.option("--no-baseline", is_flag=True, help="Report every finding, baselined ones too.")
@click.option("--gate-base", "gate_base", metavar="REF",
              help="Take the gating settings (fail_on, strict, select, ignore, exclude, rules, "
                   "thresholds, suppressions) from REF's configuration, not the work tree's: "
                   "a pull request does not set its own gate.")
@click.option("--show-suppressed", is_flag=True, help="List the findings hidden by suppressions.")
@click.option("--sarif-root", type=click.Path(exists=True, file_okay=False),
              help="SARIF: the directory file URIs are relative to (default: the git top level "
                   "of the working directory, where code scanning looks for them).")
@colour_options
@click.option("--verbose", "-v", is_flag=True,
              help="Show remediations, price bases and every unevaluated item.")
@click.option("--quiet", "-q", is_flag=True,
              help="Text: only the findings and the files that could not be parsed (no tool "
                   "notices, unevaluated causes or totals).")
@click.option("--concise", is_flag=True,
              help="Text: the findings, the files that could not be parsed and one summary line "
                   "(the pre-commit hook's output).")
@selection_flags
@scan_flags
def scan(paths: tuple[str, ...], fmt: str, output: str | None,
         show_suppressed: bool, sarif_root: str | None, color: str, no_color: bool,
         verbose: bool, quiet: bool, concise: bool, **params: Any) -> None:
    """Scan PATHS (default: the current directory; - for a manifest stream on standard input,
    e.g. `helm template … | gpulint scan -`) for GPU cost problems."""
    from gpulint.report import build as report_mod

    targets = list(paths) or ["."]
    result, rules = run_scan(params, targets)
    if result.settings.baseline:
        _apply_baseline(result, targets, rules)
    report = report_mod.build(result, result.settings.pricing.hours,
                              show_suppressed=show_suppressed)
    from gpulint.reporters import render
    from gpulint.reporters import text as text_mod

    use_colour = output_mod.use_colour(color, no_color, output)
    if quiet or (concise and not report["summary"]["gate"]["strict"]):
        pass  # the exit status and the report say it all; notices gate only when strict
    elif fmt == "text":
        # Tool notices go to standard error: the report is what was found.
        # color=: click would strip the escapes from a pipe, which --color always asks for.
        click.echo(text_mod.notices(report, colour=use_colour), nl=False, err=True,
                   color=use_colour)
    elif not result.files_scanned:  # in the report's diagnostics, and said where people look
        click.echo(f"gpulint: warning: {NOTHING_FOUND}", err=True)
    text = render(fmt, report, [r.as_dict() for r in rules], colour=use_colour, verbose=verbose,
                  quiet=quiet or concise, sarif_root=sarif_root, report_root=result.root)
    if concise and not quiet and fmt == "text":
        text += text_mod.verdict(report) + "\n"  # one line, the last, for the whole run
    output_mod.emit(text, output, use_colour)
    sys.exit(EXIT_FINDINGS if report["summary"]["gate"]["failed"] else 0)


def _apply_baseline(result: Any, targets: list[str], rules: list[Any]) -> None:
    """Hide the findings the baseline records; its notices join the diagnostics."""
    from gpulint.report import baseline

    try:
        base = baseline.load(result.settings.baseline, result.root)
    except baseline.BaselineError as e:
        fail_usage(str(e) + _configured_baseline(result.settings))
    done = baseline.apply(base, result.findings, targets, (r.id for r in rules))
    result.findings, result.baselined = done.new, done.baselined
    result.diagnostics += done.notices


def _configured_baseline(settings: Any) -> str:
    """Where a baseline that cannot be read was named, when the configuration named it."""
    source = settings.source
    if source is None or not source.data.get("baseline") \
            or os.path.abspath(settings.baseline) != source.relative(source.data["baseline"]):
        return ""
    line = source.lines.get(("baseline",))
    return f" (set by {os.path.relpath(source.path)}{f':{line}' if line else ''}: baseline)"


@cli.group(invoke_without_command=True)
@click.option("--rules-dir", "rules_dirs", multiple=True,
              type=click.Path(exists=True, file_okay=False), help="Extra directory of rule files.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Configuration file (default: .gpulint.yaml or [tool.gpulint] in "
                   "pyproject.toml, searched upwards from the working directory).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json: every rule with its configured state, for tools.")
@click.pass_context
def rules(ctx: click.Context, rules_dirs: tuple[str, ...], config_file: str | None,
          fmt: str) -> None:
    """List the rules, or explain one with `gpulint rules show ID`.

    Severities and enablement are those a scan uses: the configuration file's `rules` settings
    applied (a disabled rule is listed as `off`)."""
    from gpulint.config import settings as settings_mod
    from gpulint.config.load import ConfigError, resolve

    try:
        settings = settings_mod.build(resolve(config_file, ()),
                                      settings_mod.Flags(rules_dirs=rules_dirs))
    except (ConfigError, settings_mod.SettingsError) as e:
        fail_usage(str(e))
    ctx.obj["settings"] = settings
    if ctx.invoked_subcommand is None and fmt == "json":
        _rules_json(settings)
    elif ctx.invoked_subcommand is None:
        listed, enabled = _configured_rules(settings)
        width = max(len(r.id) for r in listed)
        for r in listed:
            severity = enabled[r.id].severity.value if r.id in enabled else "off"
            click.echo(f"{r.id:<{width}}  {severity:<7}  {r.summary}")
        click.echo(_configured_by(settings, "\n"), nl=False)


def _rules_json(settings: Any) -> None:
    """A JSON array: each rule as written plus `enabled` and the configured `severity`."""
    import json

    listed, enabled = _configured_rules(settings)
    out = []
    for r in listed:
        on = enabled.get(r.id)
        out.append({**r.as_dict(), "enabled": on is not None,
                    "severity": (on or r).severity.value, "default_severity": r.severity.value,
                    "options": dict((on or r).options)})
    click.echo(json.dumps(out, indent=2, ensure_ascii=False))


def _configured_by(settings: Any, before: str) -> str:
    source = settings.source
    return "" if source is None else f"{before}(as configured by {os.path.relpath(source.path)})\n"


def _configured_rules(settings: Any) -> tuple[list[Any], dict[str, Any]]:
    """Every loaded rule sorted by id (as written), and the enabled ones by id as the
    configuration sets them (the ones a scan runs)."""
    written = sorted(written_rules(settings.rules.dirs), key=lambda r: r.id)
    return written, {r.id: r for r in configured_rules(settings)}


@rules.command("show")
@click.argument("rule_id")
@click.pass_context
def rules_show(ctx: click.Context, rule_id: str) -> None:
    """Explain one rule, with a bad and a good example."""
    import difflib

    settings = ctx.obj["settings"]
    written, enabled = _configured_rules(settings)
    loaded = {r.id: r for r in written}
    if rule_id not in loaded:
        near = difflib.get_close_matches(rule_id, list(loaded), n=1)
        fail_usage(f"no such rule: {rule_id!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    rule = enabled.get(rule_id, loaded[rule_id])
    state = rule.severity.value if rule_id in enabled else f"off; {rule.severity.value} when on"
    lines = [f"{rule.id} ({state}, {rule.category}): {rule.summary}", "",
             rule.docs["why"].strip(), "", "How to fix: " + rule.remediation.strip()]
    if rule.options:
        lines += ["", "Options: " + ", ".join(f"{k} = {v!r}" for k, v in rule.options.items())]
    lines += ["", "Flagged:", _indent(rule.docs["bad"]), "Fixed:", _indent(rule.docs["good"])]
    if rule.references:
        lines += ["References:"] + [f"  {u}" for u in rule.references]
    click.echo("\n".join(lines))
    click.echo(_configured_by(settings, "\n"), nl=False)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines()) + "\n"


def _global_debug(args: list[str]) -> tuple[list[str], bool]:
    """--debug anywhere before a `--` (after the subcommand too) moves to the front, where the
    group reads it."""
    end = args.index("--") if "--" in args else len(args)
    rest = [a for a in args[:end] if a != "--debug"] + args[end:]
    debug = len(rest) < len(args)
    return (["--debug", *rest] if debug else rest), debug


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI and turn unexpected exceptions into exit code 3."""
    args, debug = _global_debug(argv if argv is not None else sys.argv[1:])
    try:
        cli.main(args=args, prog_name="gpulint", standalone_mode=False)
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
    except BaseException as e:  # the last line of defence
        if debug:
            traceback.print_exc()
        click.echo(f"gpulint: internal error: {type(e).__name__}: {e}; rerun with --debug for "
                   "the traceback", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(0)
