"""Helm values written in Terraform: `helm_release` `values` and `set` blocks, and chart values
passed to module inputs (`karpenter_resources_helm_config = { g5 = { values = [<<-EOT … ] } }`).

Values are evaluated as Terraform would, with one leniency: an interpolation that cannot be
known here (`${module.eks.cluster_name}`) does not make the whole document unknown; it is kept
as a placeholder (`<module.eks.cluster_name>`) and the rest of the YAML is read. `file(...)`,
`templatefile(...)` (its `${name}` variables substituted, directives dropped, when the function
itself cannot be evaluated), `yamlencode({...})` and heredocs are read; the documents of one
release are merged in order, then its `set`/`set_list` entries, as Helm does. The merged values
go to the values reader and are reported at the Terraform lines: a heredoc at its own lines,
any other value at its attribute's line. Values that mention accelerators but cannot be read
make a "could not evaluate" resource at the release's line, never nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpulint.fact_types import Resource
from gpulint.load.evidence import EvidenceNote
from gpulint.load.kubernetes import K8sObject
from gpulint.model import Diagnostic, Unknown
from gpulint.render import helm_set, values_evidence, values_tree
from gpulint.render import values as values_reader
from gpulint.render.values_tree import Values
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.namespace import RenderedTemplate
from gpulint.terraform.syntax import (
    Call,
    Conditional,
    ForExpr,
    GetAttr,
    Index,
    Literal,
    ObjectExpr,
    Template,
    TupleExpr,
    Var,
)

ReadText = Callable[[str], "str | None"]
_INTERPOLATION = re.compile(r"(?<!\$)\$\{\s*([^{}]*?)\s*\}")
_DIRECTIVE = re.compile(r"(?<!%)%\{[^{}]*\}")


@dataclass
class Document:
    value: Any  # YAML text or an already built tree
    path: str  # file of the lines
    line: int  # line of the first body line (heredoc) or of the attribute
    exact: bool  # whether lines inside the text are lines of `path`
    consumed: str | None = None  # a values file read through file()/templatefile()


@dataclass
class Release:
    name: str
    namespace: str | None
    path: str
    line: int
    label: str  # helm_release.x, or module.y input z, for messages
    documents: list[Document] = field(default_factory=list)
    sets: list[tuple[str, Any, int]] = field(default_factory=list)  # (name, value, line)
    unknown: str | None = None  # why the values could not be evaluated
    mentions_gpu: bool = False
    chart_dir: str | None = None  # a local chart in the scanned tree


def _text(expr: Any) -> str:
    """`module.eks.cluster_name` for a reference; `…` for anything else."""
    if isinstance(expr, Var):
        return expr.name
    if isinstance(expr, GetAttr):
        return f"{_text(expr.target)}.{expr.name}"
    if isinstance(expr, Index) and isinstance(expr.key, Literal):
        return f"{_text(expr.target)}[{expr.key.value}]"
    return "…"


def _string(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return "" if v is None else str(v)


def lenient(expr: Any, scope: Scope) -> Any:
    """The value of an expression, templates keeping their known text."""
    if isinstance(expr, Template):
        out = []
        for part in expr.parts:
            v = part if isinstance(part, str) else evaluate(part, scope)
            if isinstance(v, Unknown) and _directive(part):
                return v  # its text may be any YAML: a placeholder would not parse
            out.append(f"<{_text(part)}>" if isinstance(v, Unknown)
                       else v if isinstance(v, str) else _string(v))
        return "".join(out)
    if isinstance(expr, TupleExpr):
        return [_part(i, scope) for i in expr.items]
    if isinstance(expr, ObjectExpr):
        obj: dict[str, Any] = {}
        for k, v in expr.items:
            key = evaluate(k, scope)
            if not isinstance(key, Unknown):
                obj[_string(key)] = _part(v, scope)
        return obj
    if isinstance(expr, Call) and expr.name == "yamlencode" and len(expr.args) == 1:
        return _plain(lenient(expr.args[0], scope))
    if isinstance(expr, Call) and expr.name == "templatefile":
        return _templatefile(expr, scope)
    if isinstance(expr, GetAttr) and expr.name == "rendered":
        return _rendered(expr, scope)
    return evaluate(expr, scope)


def _directive(part: Any) -> bool:
    """A `%{ if }` (a conditional between templates) or `%{ for }` (a join over a for
    expression) inside a template."""
    if isinstance(part, Conditional):
        return isinstance(part.then, Template) and isinstance(part.other, Template)
    return isinstance(part, Call) and part.name == "join" and len(part.args) == 2 and \
        isinstance(part.args[1], ForExpr)


def _part(expr: Any, scope: Scope) -> Any:
    """An element of a tuple or object: a placeholder naming it when it is unknown."""
    value = lenient(expr, scope)
    return f"<{_text(expr)}>" if isinstance(value, Unknown) and _text(expr) != "…" else value


def _plain(value: Any) -> Any:
    """A value yamlencode would write, unknown parts as placeholders."""
    if isinstance(value, Unknown):
        return "<unknown>"
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _templatefile(expr: Call, scope: Scope) -> Any:
    value = evaluate(expr, scope)
    if not isinstance(value, Unknown) or len(expr.args) != 2:
        return value
    path, names = evaluate(expr.args[0], scope), lenient(expr.args[1], scope)
    files = scope.file_access()
    if not isinstance(path, str) or files is None:
        return value
    text = files.read(path)
    if isinstance(text, Unknown):
        return Unknown(f"templatefile(): {text.reason}")
    return substitute(text, names if isinstance(names, dict) else {})


def _rendered(expr: GetAttr, scope: Scope) -> Any:
    """`data.template_file.x[0].rendered`, with the leniency of templatefile(): a var that
    cannot be known stays a placeholder and the rest of the values is read."""
    value = evaluate(expr, scope)
    if not isinstance(value, Unknown):
        return value
    source = evaluate(expr.target, scope)
    if not isinstance(source, RenderedTemplate):
        return value
    text = source["template"]
    if not isinstance(text, str):
        return value
    attr = source.block.attributes.get("vars")
    names = lenient(attr.expr, source.scope) if attr is not None else {}
    return substitute(text, names if isinstance(names, dict) else {})


def substitute(text: str, names: dict[str, Any]) -> str:
    """A template's `${name}` replaced by the known names, directives dropped."""
    def sub(m: re.Match[str]) -> str:
        v = names.get(m.group(1))
        return _string(v) if isinstance(v, (str, int, float, bool)) else f"<{m.group(1)}>"

    text = _DIRECTIVE.sub("", _INTERPOLATION.sub(sub, text))
    return text.replace("$${", "${").replace("%%{", "%{")


def _body_line(lines: list[str], start: int, text: str) -> int | None:
    """The line (1-based) where a heredoc's body starts: its first line, searched from the
    attribute's line."""
    first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
    head = first.split("<", 1)[0].strip() or first
    if not head:
        return None
    for i in range(max(start - 1, 0), min(len(lines), start + 2000)):
        if lines[i].strip().startswith(head):
            before = text[:text.find(first)].count("\n") if first in text else 0
            return i + 1 - before
    return None


def documents(expr: Any, scope: Scope, path: str, line: int, lines: list[str]) -> \
        list[Document] | Unknown:
    """The values documents of a `values` expression, in order."""
    items = expr.items if isinstance(expr, TupleExpr) else None
    values = [lenient(i, scope) for i in items] if items is not None else lenient(expr, scope)
    if isinstance(values, Unknown):
        return values
    if values is None:
        return []
    if not isinstance(values, list):
        return Unknown("values is not a list")
    out = []
    for i, value in enumerate(values):
        item = items[i] if items is not None else None
        if isinstance(value, Unknown):
            return value
        if value is None:
            continue
        consumed = None
        if isinstance(item, Call) and item.name in ("file", "templatefile") and item.args:
            name = evaluate(item.args[0], scope)
            files = scope.file_access()
            consumed = os.path.realpath(os.path.join(files.cwd, name)) if files is not None \
                and isinstance(name, str) else None
        written = isinstance(item, Template) or (isinstance(item, Literal) and "\n" in str(
            item.value))  # a heredoc: its lines are in the file
        start = _body_line(lines, line, value) if written and isinstance(value, str) else None
        out.append(Document(value, path, start or line, start is not None, consumed))
    return out


# Keys under which a `set_sensitive` value shapes what a pod asks for and where it runs. Other
# sensitive values (passwords, tokens, env) are not applied: no secret reaches a fact or message.
_SCHEDULING = frozenset({"resources", "nodeSelector", "tolerations", "affinity", "replicaCount",
                         "replicas", "autoscaling", "minReplicas", "maxReplicas", "requestGPU",
                         "requestGPUType", "nodeSelectorTerms", "nodePool", "node_selector",
                         "extra_resource_limits", "extra_resource_guarantees", "extraResource"})
SENSITIVE = "<sensitive value>"


def sensitive_entries(entries: list[tuple[str, Any, int]]) -> list[tuple[str, Any, int]]:
    """`set_sensitive` entries read like `set` where they size or place a pod; an accelerator
    count that is not a number is kept as a placeholder, so a message never quotes it."""
    out = []
    for name, value, line in entries:
        try:
            path = helm_set.path(name)
        except helm_set.Refused:
            continue  # reported where the sets are applied
        if not any(isinstance(p, str) and p in _SCHEDULING for p in path):
            continue
        last = str(path[-1]) if path else ""
        if values_reader.is_accelerator(last) or last == "requestGPU":
            value = value if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else SENSITIVE
        out.append((name, value, line))
    return out


def to_values(release: Release, read: ReadText) -> tuple[Values, list[Diagnostic]]:
    """The release's documents and sets merged, with the line of each path."""
    values, diags = Values(), []
    for doc in release.documents:
        if isinstance(doc.value, str):
            parsed, problems = values_tree.parse(doc.path, doc.value)
            offset = doc.line - 1 if doc.exact else 0
            diags += [Diagnostic(doc.path, (p.line or 1) + offset if doc.exact else doc.line,
                                 f"{release.label}: {p.message}", p.severity) for p in problems]
            for tree, where in parsed:
                values_tree.add(values, doc.path, tree,
                                {p: (n + offset if doc.exact else doc.line)
                                 for p, n in where.items()})
        elif isinstance(doc.value, dict):
            values_tree.add(values, doc.path, doc.value, {(): doc.line})
    for name, value, line in release.sets:
        try:
            path = helm_set.path(name)
        except helm_set.Refused as e:
            diags.append(Diagnostic(release.path, line, f"{release.label}: set {name!r} not "
                                    f"applied: {e}", "warning"))
            continue
        tree = helm_set.put(values.tree, path, value)
        values.tree = tree if isinstance(tree, dict) else values.tree
        values.where[path] = (release.path, line)
    return values, diags


def read(release: Release, read_text: ReadText) -> tuple[
        list[K8sObject], list[Diagnostic], Resource | None, list[EvidenceNote]]:
    """Objects from one release's values, the diagnostics on it, or a could-not-evaluate
    resource; and a note for accelerator evidence in the values that no object reads."""
    if release.unknown is not None:
        if not release.mentions_gpu:
            return [], [], None, []
        res = Resource(release.label.split(" ")[0], "HelmValues", release.path, release.line,
                       "terraform")
        res.set_fact("gpu.count", Unknown(
            f"GPU settings in Helm values: {release.unknown}; give the values as a heredoc, "
            "yamlencode() or a file in the scanned tree"))
        return [], [], res, []
    values, diags = to_values(release, read_text)
    objects, notes, _ = values_evidence.read(values, release.name, release.namespace) \
        if values.tree else ([], [], [])
    for note in notes:
        note.address = f"{release.label} values"
    if objects:
        diags.append(Diagnostic(release.path, release.line, f"read "
                                f"{values_reader.describe(objects)} from the Helm values of "
                                f"{release.label} (not rendered)", "info"))
    return objects, diags, None, notes
