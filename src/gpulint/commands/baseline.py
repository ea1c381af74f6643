"""`gpulint baseline`: record the current findings so `scan --baseline` reports only new ones."""

from __future__ import annotations

from typing import Any

import click

from gpulint.cli import run_scan, scan_inputs


@click.command()
@scan_inputs
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              default=".gpulint-baseline.json", show_default=True,
              help="Where to write the baseline.")
@click.pass_context
def baseline(ctx: click.Context, output: str, **params: Any) -> None:
    """Record the findings in PATHS (default: the current directory) as accepted."""
    from gpulint.baseline import to_json

    result, _ = run_scan(ctx, params)
    with open(output, "w", encoding="utf-8") as fh:
        fh.write(to_json(result.findings))
    click.echo(f"{len(result.findings)} finding(s) recorded in {output}; "
               f"use `gpulint scan --baseline {output}` to report only new ones")
