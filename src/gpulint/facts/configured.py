"""What the configuration declares that the code cannot tell: which model a resource serves or
trains, and which paths are not scanned."""

from __future__ import annotations

from dataclasses import dataclass

from gpulint import globs
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource


@dataclass(frozen=True)
class ModelDeclaration:
    """`models:` entry: a resource address glob and/or an absolute path glob → a model (both in
    the one dialect of `globs`)."""

    decl: ModelDecl
    address: str | None = None
    path: str | None = None

    def matches(self, res: Resource) -> bool:
        if self.address is not None and not globs.match(self.address, res.address):
            return False
        return self.path is None or globs.path_match(self.path, res.path)


def apply(resources: list[Resource], models: list[ModelDeclaration]) -> None:
    """Configured models, set before sizing. A configured model replaces one read from the code:
    the team wrote it down on purpose."""
    for res in resources:
        decl = next((m.decl for m in models if m.matches(res)), None)
        if decl is not None:
            res.facts["model.declared"] = decl
