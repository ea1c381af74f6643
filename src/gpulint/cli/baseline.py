"""`gpulint baseline`: record the current findings so `scan --baseline` reports only new ones."""

from __future__ import annotations

from typing import Any

import click

from gpulint.cli import output as output_mod
from gpulint.cli import run_scan
from gpulint.cli.options import scan_flags
from gpulint.cli.output import check_output
from gpulint.cli.select import selection_flags


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), callback=check_output,
              default=".gpulint-baseline.json", show_default=True,
              help="Where to write the baseline.")
@selection_flags
@scan_flags
def baseline(paths: tuple[str, ...], output: str, **params: Any) -> None:
    """Record the findings in PATHS (default: the current directory) as accepted."""
    from gpulint.report.baseline import to_json

    result, _ = run_scan(params, list(paths) or ["."])
    output_mod.emit(to_json(result.findings), output)
    from gpulint.units import plural

    click.echo(f"{plural(len(result.findings), 'finding')} recorded in {output}; "
               f"use `gpulint scan --baseline {output}` to report only new ones")
