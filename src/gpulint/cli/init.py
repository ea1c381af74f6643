"""`gpulint init`: write a commented starter configuration."""

from __future__ import annotations

import os
import sys
from importlib import resources

import click

from gpulint.cli.output import check_output


def starter() -> str:
    """The starter configuration (data/starter.yaml: it reads as the YAML it is)."""
    return (resources.files("gpulint") / "data" / "starter.yaml").read_text("utf-8")


@click.command()
@click.option("--path", "path", type=click.Path(dir_okay=False), default=".gpulint.yaml",
              show_default=True, callback=check_output,
              help="Where to write the configuration (its directory must exist).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def init(path: str, force: bool) -> None:
    """Write a commented starter configuration."""
    if os.path.exists(path) and not force:
        click.echo(f"gpulint: {path} already exists; use --force to overwrite it", err=True)
        sys.exit(2)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(starter())
    except OSError as e:  # a usage problem (permissions, a full disk), not a crash
        click.echo(f"gpulint: cannot write {path}: {e.strerror or e}", err=True)
        sys.exit(2)
    click.echo(f"wrote {path}; edit it, then run `gpulint scan`")
