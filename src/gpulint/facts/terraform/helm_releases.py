"""Where Terraform writes Helm values: `helm_release` resources, and chart values in the inputs
of module calls gpulint cannot follow (a registry module such as the EKS blueprints or data
add-ons takes `<addon>_helm_config = { values = [...], set = [...] }` and installs the chart).

`releases(result, read)` finds them; `helm_tf.read` turns each into objects. Values files read
through `file()`/`templatefile()` are returned too: the values reader must not read them again
on their own, without the release's name and namespace.
"""

from __future__ import annotations

import os
from typing import Any

from gpulint.facts.terraform import helm_local
from gpulint.facts.terraform.helm_tf import (
    ReadText,
    Release,
    documents,
    lenient,
    sensitive_entries,
)
from gpulint.model import Unknown
from gpulint.render import helm_set
from gpulint.render import values as values_reader
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import Block, Conditional, Literal, ObjectExpr, TupleExpr
from gpulint.terraform.values import expression_strings

_SUFFIXES = ("_helm_config", "_helm_values", "_values", "_config")
_NOT_INPUTS = frozenset({"source", "version", "providers", "depends_on", "count", "for_each"})


def _lines(path: str, read: ReadText) -> list[str]:
    return (read(path) or "").split("\n")


def _sets(entries: Any, line: int) -> list[tuple[str, Any, int]]:
    """`set`/`set_list` as blocks' values or as a list of {name, value[, type]} objects."""
    out = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str) \
                and not isinstance(entry.get("value"), Unknown):
            out.append((entry["name"], helm_set.scalar(entry.get("value"),
                                                       entry.get("type") == "string"), line))
    return out


def _mentions(exprs: list[Any]) -> bool:
    strings = [s for e in exprs for s in expression_strings(e)]
    return any(values_reader.may_request(s) for s in strings)


def from_resource(inst: Any, read: ReadText) -> Release | None:
    """A `helm_release` instance's values and sets."""
    view = inst.view
    block = getattr(view, "block", None)
    if inst.type != "helm_release" or inst.mode != "managed" or block is None:
        return None
    name, namespace = view.get("name"), view.get("namespace")
    release = Release(name if isinstance(name, str) else inst.name,
                      namespace if isinstance(namespace, str) else None, inst.path, view.line,
                      inst.address)
    release.chart_dir = helm_local.chart_dir(view)
    attr = block.attributes.get("values")
    if attr is not None:
        docs = documents(attr.expr, view.scope, inst.path, attr.line, _lines(inst.path, read))
        if isinstance(docs, Unknown):
            release.unknown = docs.reason
            release.mentions_gpu = _mentions([attr.expr])
        else:
            release.documents = docs
    for kind in ("set", "set_list", "set_sensitive"):
        found: list[tuple[str, Any, int]] = []
        for sub in view.blocks(kind):
            found += _sets([{"name": sub.get("name"), "value": sub.get("value"),
                             "type": sub.get("type")}], sub.line)
        if kind in block.attributes:
            found += _sets(lenient(block.attributes[kind].expr, view.scope),
                           block.attributes[kind].line)
        release.sets += sensitive_entries(found) if kind == "set_sensitive" else found
    return release


def _configs(expr: Any, scope: Scope, keys: tuple[str, ...],
             out: list[tuple[tuple[str, ...], ObjectExpr]]) -> None:
    """Objects with a `values` or `set` key inside a module input, with the keys leading to
    them (`karpenter_resources_helm_config.g5`)."""
    if isinstance(expr, Conditional):
        cond = evaluate(expr.cond, scope)
        branch = expr.other if not isinstance(cond, Unknown) and not cond else expr.then
        _configs(branch, scope, keys, out)
    elif isinstance(expr, TupleExpr):
        for item in expr.items:
            _configs(item, scope, keys, out)
    elif isinstance(expr, ObjectExpr):
        names = {k.value: v for k, v in expr.items if isinstance(k, Literal)}
        if "values" in names or "set" in names:
            out.append((keys, expr))
            return
        for key, value in names.items():
            _configs(value, scope, (*keys, str(key)), out)


def from_module_call(call: Any, read: ReadText) -> list[Release]:
    """Chart values in the inputs of a module call that is not followed."""
    block: Block = call.block
    instances = call.instances if not isinstance(call.instances, Unknown) else []
    lines = _lines(call.path, read)
    out = []
    for key, scope in instances:
        for name, attr in block.attributes.items():
            if name in _NOT_INPUTS:
                continue
            found: list[tuple[tuple[str, ...], ObjectExpr]] = []
            _configs(attr.expr, scope, (), found)
            for keys, obj in found:
                items = {k.value: v for k, v in obj.items if isinstance(k, Literal)}
                label = f"{call.address}{key}.{'.'.join((name, *keys))}"
                stem = name
                for suffix in _SUFFIXES:
                    stem = stem.removesuffix(suffix)
                ns = evaluate(items["namespace"], scope) if "namespace" in items else None
                rel = Release(keys[-1] if keys else stem, ns if isinstance(ns, str) else None,
                              call.path, attr.line, label)
                if "values" in items:
                    docs = documents(items["values"], scope, call.path, attr.line, lines)
                    if isinstance(docs, Unknown):
                        rel.unknown = docs.reason
                        rel.mentions_gpu = _mentions([items["values"]])
                    else:
                        rel.documents = docs
                if "set" in items:
                    rel.sets = _sets(lenient(items["set"], scope), attr.line)
                out.append(rel)
    return out


def releases(result: Any, read: ReadText) -> list[Release]:
    """Every release of a loaded Terraform configuration whose values may be read."""
    out = [r for r in (from_resource(i, read) for i in result.resources) if r is not None]
    for call in result.remote_calls:
        out += from_module_call(call, read)
    return out


def consumed_files(found: list[Release]) -> set[str]:
    return {os.path.realpath(d.consumed) for r in found for d in r.documents if d.consumed}

