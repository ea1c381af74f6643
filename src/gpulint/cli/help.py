"""Help that tells the whole story: `gpulint --help` lists each command's first paragraph in
full (click cuts it at about 45 characters), and options whose default the configuration file
changes show the configured value in `--help` (`[default: error, from .gpulint.yaml]`)."""

from __future__ import annotations

import os
from typing import Any

import click


def first_paragraph(cmd: click.Command) -> str:
    text = cmd.short_help or (cmd.help or "").split("\n\n")[0]
    return " ".join(text.split())


def format_commands(group: click.Group, ctx: click.Context,
                    formatter: click.HelpFormatter) -> None:
    rows = []
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is not None and not cmd.hidden:
            rows.append((name, first_paragraph(cmd)))
    if rows:
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _configured(key: tuple[str, ...]) -> tuple[Any, str] | None:
    """(value, file) of a setting in the configuration the working directory would use."""
    from gpulint.config.load import ConfigError, display, resolve

    try:
        config = resolve(None, ["."])
    except (ConfigError, OSError, ValueError):
        return None
    if config is None:
        return None
    value: Any = config.data
    for k in key:
        if not isinstance(value, dict) or k not in value:
            return None
        value = value[k]
    return value, display(config.path)


class ConfiguredOption(click.Option):
    """An option whose default comes from the configuration file (`config_key`): the help
    shows the configured value and where it is set."""

    def __init__(self, *args: Any, config_key: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config_key = config_key

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        found = _configured(self.config_key)
        if record is None or found is None:
            return record
        names, text = record
        value, where = found
        shown = value if not isinstance(value, str) or not self.config_key == ("baseline",) \
            else os.path.normpath(value)
        note = f"[default: {shown}, from {where}]"
        if "[default: " in text:
            head, _, rest = text.partition("[default: ")
            tail = rest.split("]", 1)[1] if "]" in rest else ""
            extra = rest.split("]", 1)[0].split("; ", 1)
            note = note[:-1] + (f"; {extra[1]}]" if len(extra) > 1 else "]")
            return names, f"{head}{note}{tail}"
        return names, f"{text}  {note}"
