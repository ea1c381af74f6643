"""GPU workloads that `count`/`for_each` switch off by default.

Tutorials and production modules guard their GPU parts with a toggle: `count =
var.enable_vllm ? 1 : 0` on the `helm_release` whose values file asks for `nvidia.com/gpu`, an
empty `for_each` on the `kubectl_manifest` of a GPU node pool. With the variables' defaults the
resource has no instance, so nothing reads it; without a word, a reader could not tell "no GPU
here" from "gpulint did not look". Each such block whose text, or a template file it reads,
holds accelerator evidence (string_evidence.py) becomes a "could not evaluate" note at the
evidence, naming the variable and the setting that creates it. Notes group by the variable.
"""

from __future__ import annotations

import os
import re
from typing import Any

from gpulint.facts.terraform.string_evidence import Place, block_evidence
from gpulint.files.text import read_text
from gpulint.load.evidence import Evidence, EvidenceNote, first_line, is_gpu_instance
from gpulint.model import Unknown
from gpulint.terraform.expressions import evaluate
from gpulint.terraform.syntax import GetAttr, Var
from gpulint.terraform.values import expression_nodes

_OFF_VALUES = (False, 0, "", None)


def _source(path: str, line: int) -> str:
    """The argument as written (`count = var.enable_vllm ? 1 : 0`), for the message."""
    text, _ = read_text(path)
    lines = (text or "").split("\n")
    return " ".join(lines[line - 1].split())[:120] if 0 < line <= len(lines) else ""


def _expansion(off: Any) -> str:
    return "count" if "count" in off.block.attributes else "for_each"


def _variables(off: Any) -> tuple[list[tuple[str, Any]], bool]:
    """The variables in the expansion argument whose value switches it off, and whether
    one of them was given that value (then the block is off by choice, not by default)."""
    found: list[tuple[str, Any]] = []
    chosen = False
    for node in expression_nodes(off.block.attributes[_expansion(off)].expr):
        if isinstance(node, GetAttr) and isinstance(node.target, Var) and \
                node.target.name == "var" and node.name not in dict(found):
            value = evaluate(node, off.scope)
            if not isinstance(value, Unknown) and (
                    value in _OFF_VALUES if not isinstance(value, (list, dict)) else not value):
                found.append((node.name, value))
                chosen = chosen or node.name in off.given
    return found, chosen


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else repr(value) if isinstance(value, str) else str(value)


def cause_and_fix(off: Any, variables: list[tuple[str, Any]]) -> tuple[str, str]:
    """`switched off by default (variable enable_vllm = false)` and the setting that
    creates it: a flag for a root module's variables, an input of the call for a module's."""
    if not variables:
        what = "count is 0" if _expansion(off) == "count" else "for_each is empty"
        return (f"switched off by default ({what})",
                f"set what {_expansion(off)} depends on (--var or --var-file) to evaluate it")
    shown = ", ".join(f"{n} = {_shown(v)}" for n, v in variables)
    noun = "variable" if len(variables) == 1 else "variables"
    on = [n for n, v in variables if v is False]
    others = [n for n, v in variables if v is not False]
    if off.module_address:
        fix = "pass " + ", ".join([f"{n} = true" for n in on] + [
            f"a {n} that creates it" for n in others]) + f" to {off.module_address}"
    else:
        fix = " and ".join(([f"pass {' '.join(f'--var {n}=true' for n in on)}"] if on else [])
                           + ([f"give {', '.join(others)} a value that creates it (--var or "
                               "--var-file)"] if others else []))
    return f"switched off by default ({noun} {shown})", f"{fix} to evaluate it"


def _note(off: Any, place: Place, cause: str, fix: str) -> EvidenceNote:
    written = _source(off.path, off.block.attributes[_expansion(off)].line) or _expansion(off)
    read = "" if os.path.realpath(place.path) == os.path.realpath(off.path) else \
        f", read by {off.address} ({os.path.relpath(off.path)}:{off.block.line})"
    return EvidenceNote(off.address, place.path, place.line,
                        f"{place.describe()}{read}, with `{written}` creating no instance: "
                        f"{cause}; {fix}")


# In a child module's own text: a quoted GPU machine type, a GCE accelerator block, an
# extended resource. The module is not expanded, so its text is all there is to go on.
_QUOTED = re.compile(r'"([^"\n]{2,60})"')
_ACCELERATOR_BLOCK = re.compile(r"^\s*(guest_accelerator|accelerator_config|gpu_config)\b")


def _text_places(text: str, path: str) -> list[Place]:
    """The first line of a module file that asks for accelerators, as one place."""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.split("#")[0].split("//")[0]
        gpu = next((m.group(1) for m in _QUOTED.finditer(stripped)
                    if is_gpu_instance(m.group(1))), None)
        field = stripped.split("=")[0].strip() if "=" in stripped else "machine type"
        if gpu:
            return [Place(path, number, [Evidence((field,), field, gpu, "selector")])]
        block = _ACCELERATOR_BLOCK.match(stripped)
        if block or first_line(stripped):
            name = block.group(1) if block else field
            value = "{ … }" if block else stripped.split("=", 1)[-1].strip()
            return [Place(path, number, [Evidence((name,), name, value, "bare")])]
    return []


def _child_places(off: Any) -> list[Place]:
    """Evidence in the files of a local child module a switched-off `module` call would
    instantiate (the loader found and confined them): its arguments may be only toggles
    while its GPU pool lives inside."""
    out: list[Place] = []
    for path in off.module_files:
        text, _ = read_text(path)
        out += _text_places(text or "", path)
    return out


def notes(loaded: Any) -> list[EvidenceNote]:
    """One note per place that holds evidence in a block switched off by default."""
    out: list[EvidenceNote] = []
    seen: set[tuple[str, int]] = set()
    for off in getattr(loaded, "switched_off", []):
        try:
            places = block_evidence(off.block, off.scope, off.path, off.templates) or \
                _child_places(off)
        except RecursionError:
            continue
        variables, chosen = _variables(off)
        if not places or chosen:  # a block the configuration switches off is not a miss
            continue
        cause, fix = cause_and_fix(off, variables)
        for place in places:
            key = (os.path.realpath(place.path), place.line)
            if key not in seen:
                seen.add(key)
                out.append(_note(off, place, cause, fix))
    return out
