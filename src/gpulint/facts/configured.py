"""What the configuration declares that the code cannot tell: which model a resource serves or
trains, and which paths are not scanned."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass
from typing import Iterable

from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource


@dataclass(frozen=True)
class ModelDeclaration:
    """`models:` entry: a resource address glob and/or an absolute path glob → a model."""

    decl: ModelDecl
    address: str | None = None
    path: str | None = None

    def matches(self, res: Resource) -> bool:
        if self.address is not None and not fnmatch.fnmatchcase(res.address, self.address):
            return False
        return self.path is None or glob_match(res.path, self.path)


def glob_match(path: str, pattern: str) -> bool:
    """The file or one of its parent directories matches (`*` also crosses `/`)."""
    current = os.path.abspath(path)
    while True:
        if fnmatch.fnmatchcase(current, pattern):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def excluded(path: str, patterns: Iterable[str]) -> bool:
    return any(glob_match(path, p) for p in patterns)


def apply(resources: list[Resource], models: list[ModelDeclaration]) -> None:
    """Configured models, set before sizing. A configured model replaces one read from the code:
    the team wrote it down on purpose."""
    for res in resources:
        decl = next((m.decl for m in models if m.matches(res)), None)
        if decl is not None:
            res.facts["model.declared"] = decl
