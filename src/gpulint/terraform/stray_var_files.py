"""Var files no root module in the scan would be given: `.tfvars` kept away from the Terraform
they configure (`config/stage-1.tfvars` for a root in `infra/stage-1/`, copied there by a
script, or `environments/prod/cluster.tfvars` beside no `.tf`). Terraform reads them only with
-var-file from their root, which nothing in the repository names, so the pools they declare
would vanish in silence; fact building names those that hold accelerators (var_files.py)."""

from __future__ import annotations

import os
from typing import Any

from gpulint.terraform.variables import ParseSource, _read_tfvars

_SKIP_DIRS = frozenset({".terraform", "node_modules", ".git"})
_MAX_ENTRIES = 200_000  # a walk of a huge tree stops here; nothing is read past it


def _owned(path: str, roots: set[str]) -> bool:
    """A root reads the file, by itself or with -var-file (variables.unloaded_var_files): it
    sits in a root, or in a subdirectory of one that holds no Terraform of its own."""
    here = os.path.dirname(path)
    if here in roots:
        return True
    try:
        has_tf = any(n.endswith((".tf", ".tf.json")) for n in os.listdir(here))
    except OSError:
        has_tf = False
    return not has_tf and os.path.dirname(here) in roots


def find(scan_roots: tuple[str, ...], root_dirs: list[str],
         parse: ParseSource | None) -> list[tuple[str, dict[str, Any]]]:
    """Each var file under the scanned directories that no root module owns, with its values."""
    roots = {os.path.normpath(os.path.abspath(d)) for d in root_dirs}
    out: list[tuple[str, dict[str, Any]]] = []
    seen = 0
    for top in scan_roots:
        if not os.path.isdir(top):
            continue
        for here, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
            seen += len(names) + len(dirs)
            if seen > _MAX_ENTRIES:
                return out
            for n in sorted(names):
                if not n.endswith((".tfvars", ".tfvars.json")):
                    continue
                path = os.path.normpath(os.path.abspath(os.path.join(here, n)))
                if not _owned(path, roots):
                    data, _ = _read_tfvars(os.path.relpath(path), parse)
                    out.append((os.path.relpath(path), data))
    return out
