"""A root module's variable values: TF_VAR_ environment, terraform.tfvars, *.auto.tfvars, then
-var-file and -var in command-line order, later ones winning, as Terraform applies them."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from gpulint import globs
from gpulint.config.inputs import Inputs
from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.parser import parse_expression, parse_hcl
from gpulint.terraform.syntax import HclSyntaxError
from gpulint.terraform.views import ParsedFile

# The scan's cached parser: path → (parsed file or None, diagnostics).
ParseSource = Callable[[str], "tuple[ParsedFile | None, list[Diagnostic]]"]


def _read_tfvars(path: str, parse: ParseSource | None = None) -> tuple[dict[str, Any],
                                                                       Diagnostic | None]:
    if parse is not None and not path.endswith(".json"):
        # The scan's cached parser: a warm run then needs no HCL parser at all.
        parsed, diags = parse(path)
        if parsed is None:
            return {}, diags[0] if diags else None
        empty = Scope({})
        return {k: evaluate(a.expr, empty) for k, a in parsed.root.attributes.items()}, None
    from gpulint.files.text import read_text

    text, problem = read_text(path)
    if text is None:
        return {}, problem
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            return {}, Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}")
        except ValueError as e:  # more digits than int() converts
            return {}, Diagnostic(path, None, f"invalid JSON: {e}")
        return (data if isinstance(data, dict) else {}), None
    try:
        root = parse_hcl(text)
    except HclSyntaxError as e:
        return {}, Diagnostic(path, e.line, f"parse error: {e}")
    empty = Scope({})
    return {k: evaluate(a.expr, empty) for k, a in root.attributes.items()}, None


def cli_value(raw: str) -> Any:
    """-var and TF_VAR_ values are strings unless they parse as HCL (lists, maps, numbers)."""
    try:
        value = evaluate(parse_expression(raw), Scope({}))
        if not isinstance(value, Unknown):
            return value
    except HclSyntaxError:
        pass
    return raw


def _auto_files(directory: str) -> list[str]:
    """terraform.tfvars(.json), then *.auto.tfvars(.json) in name order."""
    auto = [os.path.join(directory, n) for n in ("terraform.tfvars", "terraform.tfvars.json")
            if os.path.isfile(os.path.join(directory, n))]
    try:
        listing = sorted(os.listdir(directory))
    except OSError:
        listing = []
    return auto + [os.path.join(directory, n) for n in listing
                   if n.endswith(".auto.tfvars") or n.endswith(".auto.tfvars.json")]


def root_variables(files: list[ParsedFile], directory: str, inputs: Inputs,
                   diagnostics: list[Diagnostic],
                   parse: ParseSource | None = None) -> dict[str, Any]:
    """Variable values for a root module, in Terraform's precedence order (later wins)."""
    values: dict[str, Any] = {}
    for key, raw in inputs.env.items():
        if key.startswith("TF_VAR_"):
            values[key[len("TF_VAR_"):]] = cli_value(raw)
    order: list[tuple[str, Any]] = inputs.cli_order or (
        [("var-file", i) for i in range(len(inputs.var_files))]
        + [("var", pair) for pair in inputs.vars.items()])
    configured = _configured_files(directory, inputs, diagnostics)
    for path in _auto_files(directory) + configured:
        _apply_tfvars(values, path, diagnostics, parse)
    for kind, item in order:
        if kind == "var-file":
            _apply_tfvars(values, inputs.var_files[item], diagnostics, parse)
        else:
            values[item[0]] = cli_value(item[1])
    loaded = {os.path.abspath(p) for p in [*configured, *inputs.var_files]}
    _name_unloaded_files(files, directory, values, loaded, parse)
    return values


def _configured_files(directory: str, inputs: Inputs,
                      diagnostics: list[Diagnostic]) -> list[str]:
    """The configuration's var files for this directory; a missing one is a warning."""
    where = os.path.normpath(os.path.abspath(directory))
    out = []
    for pattern, names in inputs.dir_var_files:
        if not globs.match(pattern, where):
            continue
        for name in names:
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                out.append(path)
            else:
                diagnostics.append(Diagnostic(directory, None, f"var file {name} (configuration "
                                              "terraform.var_files) does not exist here",
                                              "warning"))
    return out


def _name_unloaded_files(files: list[ParsedFile], directory: str, values: dict[str, Any],
                         loaded: set[str], parse: ParseSource | None) -> None:
    """A variable with no value that a .tfvars file of the directory sets, which Terraform does
    not load by itself (not terraform.tfvars, not *.auto.tfvars): name the file and the flag."""
    missing = {b.labels[0] for f in files for b in f.root.blocks
               if b.type == "variable" and b.labels and "default" not in b.attributes
               and b.labels[0] not in values}
    if not missing:
        return
    auto = {os.path.abspath(p) for p in _auto_files(directory)}
    try:
        listing = sorted(os.listdir(directory))
    except OSError:
        return
    setters: dict[str, list[str]] = {}
    for name in listing:
        path = os.path.join(directory, name)
        if not name.endswith((".tfvars", ".tfvars.json")) or os.path.abspath(path) in auto \
                or os.path.abspath(path) in loaded or not os.path.isfile(path):
            continue
        data, _ = _read_tfvars(path, parse)  # a broken file names nothing; it is not loaded
        for var in missing & set(data):
            setters.setdefault(var, []).append(path)
    for var, paths in setters.items():
        names = ", ".join(os.path.basename(p) for p in paths)
        flag = f"--var-file {os.path.relpath(paths[0])}"
        more = " (or another of them)" if len(paths) > 1 else ""
        values[var] = Unknown(f"variable {var} has no default and no value was given; set by "
                              f"{names} (not auto-loaded): pass {flag}{more}")


def _apply_tfvars(values: dict[str, Any], path: str, diagnostics: list[Diagnostic],
                  parse: ParseSource | None) -> None:
    data, diag = _read_tfvars(path, parse)
    if diag:
        diagnostics.append(diag)
    values.update(data)
