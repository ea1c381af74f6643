"""Which files are helmfiles: the names helmfile itself looks for, without parsing anything
(discovery imports this; keep it free of YAML)."""

from __future__ import annotations

import os

# What `helmfile` reads in a directory: helmfile.yaml, else helmfile.yaml.gotmpl, else every
# helmfile.d/*.yaml and *.yaml.gotmpl, each a helmfile of its own.
HELMFILE_NAMES = ("helmfile.yaml", "helmfile.yml", "helmfile.yaml.gotmpl", "helmfile.yml.gotmpl")
HELMFILE_DIR = "helmfile.d"
_EXTENSIONS = (".yaml", ".yml", ".yaml.gotmpl", ".yml.gotmpl")


def is_helmfile(path: str) -> bool:
    name = os.path.basename(path)
    if name in HELMFILE_NAMES:
        return True
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return parent == HELMFILE_DIR and name.endswith(_EXTENSIONS)


def is_template(path: str) -> bool:
    """A `.gotmpl` helmfile: YAML only once its template actions are read."""
    return path.endswith(".gotmpl") and is_helmfile(path)
