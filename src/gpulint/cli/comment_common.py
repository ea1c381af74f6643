"""What `comment github` and `comment gitlab` share: reading the report and diff, the
--dry-run/-o preview, and the --fail-on verdict."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text
from gpulint.report.exit import fails


def read_json(path: str, what: str) -> dict[str, Any]:
    try:
        data = json.loads(read_file_text(path, TOOL_FILE_LIMIT))
    except OSError as exc:
        raise click.UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise click.UsageError(f"{what} {path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise click.UsageError(f"{what} {path} must contain a JSON object")
    return data


def check_report(report: dict[str, Any], path: str) -> None:
    """The report must be one `gpulint scan --format json` writes (its published schema): a
    report cut short or edited by hand failed deep in the rendering (exit 3)."""
    from importlib import resources

    import jsonschema

    schema = json.loads((resources.files("gpulint") / "schemas" / "report.schema.json")
                        .read_text("utf-8"))
    # Shapes only (types, required keys): reports of earlier versions and hand-trimmed ones
    # differ in patterns and enums, which the rendering does not depend on.
    error = jsonschema.exceptions.best_match(
        e for e in jsonschema.Draft202012Validator(schema).iter_errors(report)
        if e.validator in {"type", "required"})
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "(top level)"
        raise click.UsageError(f"report {path} is not a gpulint JSON report: at {where}: "
                               f"{error.message[:200]}")


def gate(report: dict[str, Any], fail_on: str) -> None:
    if fails(report, fail_on):
        click.echo(f"gpulint: findings at or above '{fail_on}'", err=True)
        sys.exit(1)


def preview_options(func: Any) -> Any:
    """--dry-run and -o FILE, shared by every `comment` command."""
    from gpulint.cli.output import check_output

    func = click.option("--output", "-o", type=click.Path(dir_okay=False), callback=check_output,
                        help="Also write the comment body to this file.")(func)
    return click.option("--dry-run", is_flag=True,
                        help="Write the body that would be posted (to standard output, or -o "
                             "FILE) and post nothing; no token needed.")(func)


def preview(body: str, dry_run: bool, output: str | None) -> bool:
    """Write ``body`` where -o says (standard output for a dry run without -o); True when
    the run stops there."""
    from gpulint.cli import output as output_mod

    if output or dry_run:
        output_mod.emit(body, output)  # byte for byte what is posted
    return dry_run
