"""The values a scan gives a root module's variables: tfvars files, -var flags, the environment
and the configuration's per-directory var files (read by terraform/variables.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Inputs:
    """Values set for a root module's variables, from tfvars files, CLI and the environment."""

    var_files: list[str] = field(default_factory=list)
    vars: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    # -var and -var-file in command-line order, as Terraform applies them: ("var-file", index
    # into var_files) or ("var", (name, value)). Empty when the order is not known: every var
    # file, then every var.
    cli_order: list[tuple[str, Any]] = field(default_factory=list)
    # The configuration's terraform.var_files: (absolute directory glob, var files relative to
    # a matching root module's directory), applied after the auto-loaded files and before
    # -var-file and -var, as if given first on the command line there.
    dir_var_files: list[tuple[str, list[str]]] = field(default_factory=list)
    # The configuration's terraform.var_file_variants: each unloaded .tfvars file of a root
    # module is scanned as a variant of its own (terraform/loader.py).
    var_file_variants: bool = False
