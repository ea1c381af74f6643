"""What the configuration declares that the code cannot tell: which model a resource serves or
trains (`models:`), set as the resource's declared model before derivation."""

from __future__ import annotations

from collections.abc import Iterable

from gpulint import globs
from gpulint.config.settings import ModelSpec
from gpulint.fact_types import Resource
from gpulint.facts.model_decl import ModelDecl, declare


def matches(spec: ModelSpec, res: Resource) -> bool:
    """Both the address glob and the path glob, where given, match (globs.py dialect)."""
    if spec.address is not None and not globs.match(spec.address, res.address):
        return False
    return spec.path is None or globs.path_match(spec.path, res.path)


def declared(spec: ModelSpec) -> ModelDecl:
    return ModelDecl(spec.model, spec.source, precision=spec.precision, purpose=spec.purpose,
                     tensor_parallel=spec.tensor_parallel,
                     pipeline_parallel=spec.pipeline_parallel, data_parallel=spec.data_parallel)


def apply(resources: Iterable[Resource], specs: Iterable[ModelSpec]) -> None:
    """A configured model replaces one read from the code: the team wrote it down on purpose.
    The first matching entry wins."""
    specs = tuple(specs)
    for res in resources:
        spec = next((s for s in specs if matches(s, res)), None)
        if spec is not None:
            declare(res, declared(spec))
