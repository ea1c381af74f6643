"""Terraform fixtures against the facts written next to them.

Each file or directory under tests/terraform/ is scanned as a user would scan it. Comments say
what gpulint must conclude about the resource (or module call) on the next line of code:

    # expect: capacity=spot gpu.count=8 cost.count=3 cost.monthly=21.5
    # expect: address='module.eks.eks_managed_node_groups["gpu"]' instance.type=g5.xlarge
    # expect: why:instance.type="has no default"     (the fact is unknown for that reason)
    # expect: region=? shutdown=-                      (? unknown, - absent)
    # expect-none:                                     (no GPU resource comes from this code)
    # expect-none: aws_instance.x.driver               (no GPU resource with this address)
    # expect-note: not evaluated                       (a module call reported as not followed)
    # expect-note: might be GPU                        (a pool of unknown machine type, named in
                                                        a note that stands for several)
    # scan: var=gpu_type=p4d.24xlarge env=TF_VAR_n=2 var-file=prod.tfvars

Without `address=`, exactly one resource must start on that line; with it, the resource of that
address is checked wherever it is defined (a module call's resources live in the module).
`tags.<key>=v` reads a tag; `model.declared=ID` the id of the model the resource declares
(working state, not a fact).
"""

from __future__ import annotations

import os
import shlex
from typing import Any

import pytest

from gpulint import pipeline as scan
from gpulint.comments import directives
from gpulint.config.inputs import Inputs
from gpulint.config.settings import ScanSettings, Settings
from gpulint.facts.model_decl import declared_model
from gpulint.facts.terraform import BUILDERS
from gpulint.model import Resource, Unknown

FIXTURES = os.path.join(os.path.dirname(__file__), "terraform")
# The further clouds' fixtures sit with their Kubernetes manifests (tests/clouds/<cloud>).
CLOUD_FIXTURES = os.path.join(os.path.dirname(__file__), "clouds")
KEYS = {"expect", "expect-none", "expect-note", "scan"}


def _cases() -> list[str]:
    clouds = [os.path.join(CLOUD_FIXTURES, n) for n in os.listdir(CLOUD_FIXTURES)]
    return sorted(os.path.join(FIXTURES, n) for n in os.listdir(FIXTURES)) + \
        sorted(p for p in clouds if _files(p))


def _files(path: str) -> list[str]:
    if os.path.isfile(path):
        return [path]
    return sorted(os.path.join(d, n) for d, _, names in os.walk(path) for n in names
                  if n.endswith((".tf", ".tfvars")))


def _annotations(path: str) -> list[tuple[str, Any]]:
    out = []
    for f in _files(path):
        with open(f, encoding="utf-8") as fh:
            for d in directives(fh.read(), KEYS):
                out.append((os.path.relpath(f), d))
    return out


def _inputs(path: str, annotations: list[tuple[str, Any]]) -> Inputs:
    inputs = Inputs()
    base = path if os.path.isdir(path) else os.path.dirname(path)
    for _, d in annotations:
        if d.key != "scan":
            continue
        for token in shlex.split(d.value):
            kind, _, rest = token.partition("=")
            name, _, value = rest.partition("=")
            if kind == "var":
                inputs.vars[name] = value
            elif kind == "env":
                inputs.env[name] = value
            elif kind == "var-file":
                inputs.var_files.append(os.path.relpath(os.path.join(base, rest)))
    return inputs


def _fact(res: Resource, name: str) -> Any:
    if name.startswith("tags.") and name not in res.facts:
        tags = res.facts.get("tags")
        return tags.get(name[5:]) if isinstance(tags, dict) else tags
    if name == "model.declared":
        return declared_model(res).id if declared_model(res) is not None else None
    return res.facts.get(name)


def _check(res: Resource, name: str, want: str) -> str | None:
    if name.startswith("why:"):
        fact = name[4:]
        reasons = [r for f, r in res.unknowns if f == fact]
        got = _fact(res, fact)
        if isinstance(got, Unknown):
            reasons.append(got.reason)
        if any(want in r for r in reasons):
            return None
        return f"{fact}: wanted unknown because {want!r}, got {got!r} / {reasons}"
    got = _fact(res, name)
    if want == "?":
        return None if isinstance(got, Unknown) else f"{name}: wanted unknown, got {got!r}"
    if want == "-":
        return None if got is None else f"{name}: wanted absent, got {got!r}"
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        shown = ",".join(map(str, got)) if isinstance(got, list) else str(got)
        return None if shown == want else f"{name}: wanted {want!r}, got {got!r}"
    try:
        return None if abs(float(want) - got) < 0.01 else f"{name}: wanted {want}, got {got!r}"
    except ValueError:
        return f"{name}: wanted {want!r}, got {got!r}"


def _members(note: Any) -> list[tuple[str, int]]:
    """Where the resources a grouped note stands for are written."""
    return [(path, line) for _, path, line in getattr(note, "members", ())]


@pytest.mark.parametrize("path", _cases(), ids=os.path.basename)
def test_fixture(path: str) -> None:
    annotations = _annotations(path)
    assert any(d.key.startswith("expect") for _, d in annotations), f"{path}: no expectations"
    result = scan.run([os.path.relpath(path)], [], Settings(scan=ScanSettings(
        inputs=_inputs(path, annotations))))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert not errors, errors
    at: dict[tuple[str, int], list[Resource]] = {}
    for res in result.resources:
        at.setdefault((os.path.relpath(res.path), res.line), []).append(res)
    problems = []
    for f, d in annotations:
        where = f"{f}:{d.comment_line}"
        here = at.get((f, d.target_line), [])
        if d.key == "expect-none" and d.value:
            if any(r.address == d.value for r in result.resources):
                problems.append(f"{where}: wanted no resource {d.value}")
        elif d.key == "expect-none":
            if here:
                problems.append(f"{where}: wanted no resource, got {[r.address for r in here]}")
        elif d.key == "expect-note":
            notes = [n for n in result.module_notes
                     if (f, d.target_line) in {(os.path.relpath(p), line) for p, line in
                                               [(n.path, n.line), *_members(n)]}]
            if not any(d.value in n.reason for n in notes):
                problems.append(f"{where}: wanted a note {d.value!r}, got "
                                f"{[n.reason for n in notes]}")
        elif d.key == "expect":
            pairs = [t.partition("=")[::2] for t in shlex.split(d.value)]
            address = next((v for k, v in pairs if k == "address"), None)
            # An address names the resource wherever it is defined (inside a module, say).
            chosen = here if address is None else \
                [r for r in result.resources if r.address == address]
            if len(chosen) != 1:
                problems.append(f"{where}: wanted one resource{' ' + address if address else ''}"
                                f", got {[r.address for r in here]}")
                continue
            for name, want in pairs:
                if name != "address":
                    err = _check(chosen[0], name, want)
                    if err:
                        problems.append(f"{where} {chosen[0].address}: {err}")
    assert not problems, "\n" + "\n".join(problems)


def test_every_resource_type_has_fixtures() -> None:
    """Each supported resource type is exercised by at least one expectation."""
    text = "\n".join(open(f, encoding="utf-8").read() for p in _cases() for f in _files(p))
    missing = [t for t in BUILDERS if f'resource "{t}"' not in text]
    assert not missing, missing
