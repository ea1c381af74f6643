"""Accelerator evidence in Terraform strings and in the template files they read.

Terraform carries Kubernetes and Helm text in strings: heredocs in `kubectl_manifest.yaml_body`
or `helm_release.values`, `yamlencode({...})` objects, and files read with `file()`,
`templatefile()` or a `data "template_file"` (`values.yaml.tpl`, `nodepool.tftpl`). This module
finds the evidence in them with the detectors of load/evidence.py: a string that is YAML once
its `${...}` interpolations are placeholders and its `%{...}` directives are dropped is parsed
and searched like any document; other text is searched for extended-resource names.

`block_evidence` gives, for one block, each place (file and line) that holds evidence; the
callers say why it is not a GPU resource (switched_off.py for `count = 0`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gpulint.facts.terraform.helm_tf import lenient, substitute
from gpulint.load.evidence import Evidence, find, first_line
from gpulint.model import Unknown
from gpulint.render import values_tree
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import (
    Block,
    Call,
    Conditional,
    ForExpr,
    GetAttr,
    Index,
    Splat,
    Template,
    Var,
)
from gpulint.terraform.values import expression_nodes

# Arguments that are Terraform's own: they hold no workload text.
_META = frozenset({"count", "for_each", "depends_on", "providers", "source", "version",
                   "lifecycle", "provisioner", "connection", "timeouts"})
_READS = ("file", "templatefile")
MAX_TEMPLATE_DEPTH = 2  # data.template_file → file(): references followed this deep


@dataclass
class Place:
    """Evidence at one place: a Terraform argument or a template file it reads."""

    path: str
    line: int
    evidence: list[Evidence]

    def describe(self) -> str:
        more = f" and {len(self.evidence) - 1} more" if len(self.evidence) > 1 else ""
        return f"{self.evidence[0].describe()}{more}"


def text_evidence(text: str, path: str = "", offset: int = 0) -> list[tuple[int, Evidence]]:
    """(line, evidence) in a template or heredoc text: its documents parsed as YAML with
    interpolations as placeholders; a text that is no YAML gives its first extended-resource
    line. Lines are 1-based in the text, plus `offset`."""
    blank = substitute(text, {})
    docs, problems = values_tree.parse(path, blank)
    out = []
    for tree, where in docs:
        for e in find(tree):
            line = max((where.get(e.path[:i]) or 0) for i in range(len(e.path) + 1))
            out.append((line + offset if line else offset + 1, e))
    if not out and (problems or not any(isinstance(t, (dict, list)) for t, _ in docs)):
        # not YAML (a script, a command line): the line that names an extended resource
        at = first_line(text)
        if at is not None:
            raw = text.split("\n")[at - 1].strip()
            out.append((at + offset, Evidence(("text",), "text", raw[:80], "request")))
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def syntactic(expr: Any) -> str | None:
    """A template's text with every interpolation a placeholder and directives dropped."""
    if not isinstance(expr, Template):
        return None
    return "".join(p if isinstance(p, str) else "" if _directive(p) else "<…>"
                   for p in expr.parts)


def _directive(part: Any) -> bool:
    """`%{ for }` (a join over a for expression) or `%{ if }` (a choice between templates):
    text of any shape, dropped rather than replaced by a scalar."""
    if isinstance(part, Conditional):
        return isinstance(part.then, Template) or isinstance(part.other, Template)
    return isinstance(part, Call) and part.name == "join" and len(part.args) == 2 and \
        isinstance(part.args[1], ForExpr)


def _block_tree(block: Block, scope: Scope) -> dict[str, Any]:
    """The block's arguments as values, unknown parts as placeholders; templates whose
    directives cannot be evaluated as their text."""
    out: dict[str, Any] = {}
    for name, attr in block.attributes.items():
        if name in _META:
            continue
        out[name] = lenient_text(attr.expr, scope)
    for child in block.blocks:
        if child.type not in _META:
            out.setdefault(child.type, _block_tree(child, scope))
    return out


# Arguments that carry Kubernetes objects or Helm values as structure.
_CARRIERS = frozenset({"manifest", "values", "yaml_body", "set", "set_list", "set_sensitive"})


def _structured(name: str, expr: Any) -> bool:
    return name in _CARRIERS or (isinstance(expr, Call) and expr.name in (
        "yamlencode", "jsonencode"))


def inline(block: Block, scope: Scope, path: str, arguments: bool = True) -> list[Place]:
    """Evidence written in the block itself, at each argument's line: its values (with
    `arguments`; else only those that carry objects or values, such as `manifest` or a
    `yamlencode({...})`), and YAML inside its strings. Text an argument reads from a file is
    the file's (block_evidence)."""
    places = []
    for name, attr in block.attributes.items():
        if name in _META or not (arguments or _structured(name, attr.expr)):
            continue
        value = lenient_text(attr.expr, scope)
        found = [e for e in find({name: value}, machines=arguments)
                 if not isinstance(e.value, str) or "\n" not in e.value]
        if found:
            places.append(Place(path, attr.line, found))
        if _reads_files(attr.expr):
            continue
        hits = [e for text in _strings(value) if "\n" in text
                for _, e in text_evidence(text, path)]
        if hits:
            places.append(Place(path, attr.line, hits))
    for child in block.blocks if arguments else []:
        if child.type not in _META:
            found = find({child.type: _block_tree(child, scope)}, machines=True)
            if found:
                places.append(Place(path, child.line, found))
    return places


def _reads_files(expr: Any) -> bool:
    return any(True for _ in _reads(expr)) or any(True for _ in _template_data(expr))


def lenient_text(expr: Any, scope: Scope) -> Any:
    """An argument's value for its strings: templates as text when not evaluable."""
    try:
        value = lenient(expr, scope)
    except RecursionError:
        return None
    return syntactic(expr) if isinstance(value, Unknown) else value


def _reads(expr: Any) -> Iterator[Call]:
    for node in expression_nodes(expr):
        if isinstance(node, Call) and node.name in _READS and node.args:
            yield node


def _template_data(expr: Any) -> Iterator[str]:
    """Names of `data.template_file.NAME` an expression refers to."""
    for node in expression_nodes(expr):
        target = node.target if isinstance(node, (Index, Splat)) else node
        if isinstance(target, GetAttr) and isinstance(target.target, GetAttr) and \
                isinstance(target.target.target, Var) and target.target.target.name == "data" \
                and target.target.name == "template_file":
            yield target.name


def files(block: Block, scope: Scope, data_blocks: dict[str, Block],
          depth: int = 0) -> Iterator[tuple[str, str]]:
    """(path, text) of each file in the scanned tree the block reads, directly or
    through a `data "template_file"` of its module."""
    access = scope.file_access()
    for attr in block.attributes.values():
        if attr.name in _META:
            continue
        for call in _reads(attr.expr):
            name = evaluate(call.args[0], scope)
            if not isinstance(name, str) or access is None:
                continue
            text = access.read(name)
            if isinstance(text, str):
                yield os.path.normpath(os.path.join(access.cwd, name)), text
        if depth < MAX_TEMPLATE_DEPTH:
            for data in _template_data(attr.expr):
                if data in data_blocks:
                    yield from files(data_blocks[data], scope, data_blocks, depth + 1)


def block_evidence(block: Block, scope: Scope, path: str,
                   data_blocks: dict[str, Block]) -> list[Place]:
    """Every place that asks for accelerators in a block: its own text, and the files it
    reads (a template's evidence at the template's own lines)."""
    places = inline(block, scope, path)
    seen: set[str] = set()
    for file, text in files(block, scope, data_blocks):
        if os.path.realpath(file) in seen:
            continue
        seen.add(os.path.realpath(file))
        hits = text_evidence(text, file)
        if hits:
            places.append(Place(file, min(line for line, _ in hits), [e for _, e in hits]))
    return places
