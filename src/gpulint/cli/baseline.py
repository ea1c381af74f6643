"""`gpulint baseline`: record the current findings so later scans report only new ones."""

from __future__ import annotations

import os
from typing import Any

import click

from gpulint.cli import output as output_mod
from gpulint.cli import run_scan
from gpulint.cli.options import scan_flags
from gpulint.cli.output import check_output
from gpulint.cli.select import selection_flags

DEFAULT_FILE = ".gpulint-baseline.json"


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), callback=check_output,
              help=f"Where to write the baseline [default: the configuration's `baseline`, "
                   f"else {DEFAULT_FILE}].")
@selection_flags
@scan_flags
def baseline(paths: tuple[str, ...], output: str | None, **params: Any) -> None:
    """Record the findings in PATHS (default: the current directory) as accepted.

    Entries are relative to the repository root, so the file matches wherever a scan starts."""
    from gpulint.report.baseline import to_json
    from gpulint.units import plural

    result, _ = run_scan(params, list(paths) or ["."])
    configured = result.settings.baseline
    target = output or (os.path.relpath(configured) if configured else DEFAULT_FILE)
    output_mod.emit(to_json(result.findings, result.root), target)
    recorded = f"{plural(len(result.findings), 'finding')} recorded in {target}"
    if configured and os.path.abspath(target) == os.path.abspath(configured):
        click.echo(f"{recorded}; the configuration names it, so `gpulint scan` reports only "
                   "new ones")
    else:
        click.echo(f"{recorded}; add `baseline: {target}` to .gpulint.yaml (or use `gpulint "
                   f"scan --baseline {target}`) to report only new ones")
