"""The command-line order of --var and --var-file, which Terraform applies in that order.

Click collects each multiple option into its own tuple and drops the interleaving, so the group
records the subcommand's arguments (`ARGS_KEY` in the context's meta) and this module reads the
two options' occurrences back from them. The result is checked against what click parsed; when
the two disagree (an option value that looks like `--var`, arguments not recorded because the
command was invoked on its own, values from the configuration file) the order is unknown and the
caller falls back to every var file, then every var.
"""

from __future__ import annotations

from typing import Any

ARGS_KEY = "gpulint.command_args"
_KINDS = {"--var": "var", "--var-file": "var-file"}


def _occurrences(args: list[str]) -> list[tuple[str, str]]:
    """(kind, value) for each --var / --var-file in args, up to a `--` end of options."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(args):
        tok = args[i]
        if tok == "--":
            break
        name, eq, value = tok.partition("=")
        if name in _KINDS:
            if not eq:
                if i + 1 >= len(args):
                    break
                value = args[i + 1]
                i += 1
            out.append((_KINDS[name], value))
        i += 1
    return out


def cli_order(args: list[str] | None, variables: tuple[str, ...],
              var_files: tuple[str, ...]) -> list[tuple[str, Any]]:
    """Inputs.cli_order for these values, or [] when their order cannot be told for sure."""
    if args is None or not (variables and var_files):
        return []  # with only one of the two kinds, the order between them does not matter
    seen = _occurrences(args)
    if [v for k, v in seen if k == "var"] != list(variables) \
            or [v for k, v in seen if k == "var-file"] != list(var_files):
        return []
    order: list[tuple[str, Any]] = []
    file_index = 0
    for kind, value in seen:
        if kind == "var-file":
            order.append(("var-file", file_index))
            file_index += 1
        else:
            name, _, raw = value.partition("=")  # already checked by the --var parser
            order.append(("var", (name.strip(), raw)))
    return order
