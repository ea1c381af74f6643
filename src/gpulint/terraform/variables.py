"""A root module's variable values: TF_VAR_ environment, terraform.tfvars, *.auto.tfvars, then
-var-file and -var in command-line order, later ones winning, as Terraform applies them."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
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
                   diagnostics: list[Diagnostic], parse: ParseSource | None = None,
                   variant: str | None = None) -> dict[str, Any]:
    """Variable values for a root module, in Terraform's precedence order (later wins).
    `variant`: one more var file, applied as if first on the command line."""
    values: dict[str, Any] = {}
    for key, raw in inputs.env.items():
        if key.startswith("TF_VAR_"):
            values[key[len("TF_VAR_"):]] = cli_value(raw)
    order: list[tuple[str, Any]] = inputs.cli_order or (
        [("var-file", i) for i in range(len(inputs.var_files))]
        + [("var", pair) for pair in inputs.vars.items()])
    configured = _configured_files(directory, inputs, diagnostics)
    for path in _auto_files(directory) + configured + ([variant] if variant else []):
        _apply_tfvars(values, path, diagnostics, parse)
    for kind, item in order:
        if kind == "var-file":
            _apply_tfvars(values, inputs.var_files[item], diagnostics, parse)
        else:
            values[item[0]] = cli_value(item[1])
    _name_unloaded_files(files, directory, values, loaded_files(directory, inputs, variant),
                         parse)
    return values


def loaded_files(directory: str, inputs: Inputs, variant: str | None = None) -> set[str]:
    """The var files an option loads for this root (absolute): configured, given, a variant."""
    configured = _configured_files(directory, inputs, [])
    return {os.path.abspath(p) for p in [*configured, *inputs.var_files, *filter(None, [variant])]}


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


def _tfvars_in(directory: str) -> list[str]:
    try:
        listing = sorted(os.listdir(directory))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in listing
            if n.endswith((".tfvars", ".tfvars.json"))
            and os.path.isfile(os.path.join(directory, n))]


def unloaded_var_files(directory: str, loaded: set[str] | None = None) -> list[str]:
    """The .tfvars files of a root module that Terraform does not load by itself (neither
    terraform.tfvars nor *.auto.tfvars) and no option loads: those beside the root, then those
    of its subdirectories that hold no Terraform of their own (`projects/leap.tfvars`, one file
    per cluster, as production repositories lay them out)."""
    auto = {os.path.abspath(p) for p in _auto_files(directory)}
    found = _tfvars_in(directory)
    try:
        subdirs = sorted(n for n in os.listdir(directory)
                         if not n.startswith(".") and os.path.isdir(os.path.join(directory, n)))
    except OSError:
        subdirs = []
    for sub in subdirs:
        inner = os.path.join(directory, sub)
        try:
            if any(n.endswith((".tf", ".tf.json")) for n in os.listdir(inner)):
                continue  # a module of its own: its var files are its own
        except OSError:
            continue
        found += _tfvars_in(inner)
    skip = auto | (loaded or set())
    return [p for p in found if os.path.abspath(p) not in skip]


@dataclass(frozen=True)
class VarFileSetting:
    """A root variable that unloaded var files set: what the scan did not see."""

    variable: str
    path: str  # the variable block's file and line
    line: int
    has_default: bool
    files: tuple[tuple[str, Any], ...]  # (var file, the value it gives the variable)
    # The value the scan gave the variable (terraform.tfvars, -var…); NOT_GIVEN: its default.
    used: Any = None
    given: bool = False


def unloaded_settings(files: list[ParsedFile], directory: str, loaded: set[str],
                      parse: ParseSource | None) -> list[VarFileSetting]:
    """Every declared variable that an unloaded var file of the root sets, with each value."""
    declared = {b.labels[0]: (f.path, b) for f in files for b in f.root.blocks
                if b.type == "variable" and b.labels}
    given: dict[str, list[tuple[str, Any]]] = {}
    for path in unloaded_var_files(directory, loaded):
        data, _ = _read_tfvars(path, parse)  # a broken file names nothing; it is not loaded
        for var in sorted(set(declared) & set(data)):
            given.setdefault(var, []).append((path, data[var]))
    return [VarFileSetting(var, declared[var][0], declared[var][1].line,
                           "default" in declared[var][1].attributes, tuple(found))
            for var, found in given.items()]


def _name_unloaded_files(files: list[ParsedFile], directory: str, values: dict[str, Any],
                         loaded: set[str], parse: ParseSource | None) -> None:
    """A variable with no value that a .tfvars file of the root sets, which Terraform does
    not load by itself (not terraform.tfvars, not *.auto.tfvars): name the file and the flag."""
    missing = {b.labels[0] for f in files for b in f.root.blocks
               if b.type == "variable" and b.labels and "default" not in b.attributes
               and b.labels[0] not in values}
    if not missing:
        return
    setters: dict[str, list[str]] = {}
    for path in unloaded_var_files(directory, loaded):
        data, _ = _read_tfvars(path, parse)  # a broken file names nothing; it is not loaded
        for var in missing & set(data):
            setters.setdefault(var, []).append(path)
    for var, paths in setters.items():
        names = ", ".join(os.path.relpath(p, directory) for p in paths)
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
