"""Where a report goes and how it looks: the output path checked before any scanning, and the
colour decision (flag, then NO_COLOR / FORCE_COLOR, then whether standard output is a
terminal)."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def check_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An -o path that cannot be written is a usage error (exit 2) before the scan runs, not an
    internal error after it."""
    if value is None:
        return value
    parent = os.path.dirname(os.path.abspath(value))
    if os.path.isdir(value):
        raise click.BadParameter(f"{value} is a directory", ctx, param)
    if not os.path.isdir(parent):
        raise click.BadParameter(f"directory {os.path.dirname(value) or '.'} does not exist",
                                 ctx, param)
    writable = os.access(value, os.W_OK) if os.path.exists(value) else os.access(parent, os.W_OK)
    if not writable:
        raise click.BadParameter(f"{value} is not writable", ctx, param)
    return value


def output_option(func: F) -> F:
    """-o/--output FILE, checked when the command line is read."""
    option = click.option("--output", "-o", type=click.Path(dir_okay=False),
                          callback=check_output,
                          help="Write to this file instead of standard output (its directory "
                               "must exist).")
    return option(func)


def colour_options(func: F) -> F:
    """--color always|auto|never, and --no-color for never."""
    func = click.option("--no-color", "no_color", is_flag=True, hidden=True,
                        help="Same as --color never.")(func)
    return click.option("--color", "color", type=click.Choice(["always", "auto", "never"]),
                        default="auto", show_default=True,
                        help="Colour the text output: auto colours a terminal; NO_COLOR (set "
                             "and not empty) turns it off, FORCE_COLOR on.")(func)


def use_colour(choice: str, no_color: bool, output: str | None) -> bool:
    """The flag wins; auto: a non-empty NO_COLOR disables colour, a non-empty FORCE_COLOR
    enables it on standard output (never in a file), else colour when it is a terminal."""
    if no_color or choice == "never":
        return False
    if choice == "always":
        return True
    if os.environ.get("NO_COLOR") or output:
        return False
    return bool(os.environ.get("FORCE_COLOR")) or (sys.stdout is not None and sys.stdout.isatty())


def emit(text: str, output: str | None, colour: bool = False) -> None:
    """The report to `output`, or to standard output. A write that fails (a full disk, a closed
    standard output) is an error message and exit 2, not an internal error; a reader that went
    away (`| head`) ends the run quietly."""
    try:
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
            return
        if sys.stdout is None:
            raise OSError(errno.EBADF, "standard output is closed (use -o FILE)")
        click.echo(text, nl=False, color=colour)
        sys.stdout.flush()
    except BrokenPipeError:
        # Point standard output at nothing so the interpreter's last flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except OSError as e:
        where = output or "standard output"
        click.echo(f"gpulint: cannot write the report to {where}: {e.strerror or e}", err=True)
        sys.exit(2)
