"""Helm values written inline in Terraform: `helm_release` heredocs (`values = [<<-EOT … EOT]`).

Read from the text, without evaluating Terraform: each heredoc of a `helm_release` block is a
values document, reported at its own lines of the .tf file, under the release's literal `name`
(else the resource name) and `namespace`. Values built with `yamlencode({...})`, `templatefile`
or variables need Terraform evaluation and are not read here; values files the release reads
with `file()` are scanned on their own as values.
"""

from __future__ import annotations

import re
import textwrap

from gpulint.load import values as values_reader
from gpulint.load import values_tree
from gpulint.load.kubernetes import K8sObject
from gpulint.load.values_tree import Values
from gpulint.model import Diagnostic

_RELEASE = re.compile(r'^[ \t]*resource[ \t]+"helm_release"[ \t]+"([\w-]+)"[ \t]*\{', re.MULTILINE)
_HEREDOC = re.compile(r"<<(-?)[ \t]*([A-Za-z_]\w*)[ \t]*$")
_LITERAL = re.compile(r'^[ \t]*(name|namespace)[ \t]*=[ \t]*"([^"$]*)"[ \t]*$')


def _block(lines: list[str], start: int) -> tuple[int, dict[str, str], list[tuple[int, str]]]:
    """From a `resource "helm_release"` line: the block's last line, its literal name and
    namespace, and each heredoc as (line of its first body line, body)."""
    depth = 0
    attrs: dict[str, str] = {}
    docs: list[tuple[int, str]] = []
    i = start
    while i < len(lines):
        line = lines[i]
        m = _HEREDOC.search(line)
        depth += line.count("{") - line.count("}") if m is None else \
            line[:m.start()].count("{") - line[:m.start()].count("}")
        lit = _LITERAL.match(line)
        if lit and depth == 1:
            attrs.setdefault(lit.group(1), lit.group(2))
        if m is not None:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == m.group(2)),
                       len(lines))
            body = "\n".join(lines[i + 1:end])
            docs.append((i + 2, textwrap.dedent(body) if m.group(1) else body))
            i = end
        elif depth <= 0 and i > start:
            break
        i += 1
    return i, attrs, docs


def read(path: str, text: str) -> tuple[list[K8sObject], list[Diagnostic]]:
    """GPU requests in the heredoc values of every `helm_release` of a Terraform file."""
    if "helm_release" not in text or not values_reader.may_request(text):
        return [], []
    lines = text.split("\n")
    objects: list[K8sObject] = []
    diags: list[Diagnostic] = []
    for m in _RELEASE.finditer(text):
        start = text.count("\n", 0, m.start())
        _, attrs, docs = _block(lines, start)
        values = Values()
        for first, body in docs:
            parsed, problems = values_tree.parse(path, body)
            diags.extend(Diagnostic(path, (d.line or 1) + first - 1, d.message, d.severity)
                         for d in problems)
            for tree, where in parsed:
                values_tree.add(values, path, tree, {p: n + first - 1 for p, n in where.items()})
        found = values_reader.read(values, attrs.get("name") or m.group(1),
                                   attrs.get("namespace") or None) if values.tree else []
        if found:
            objects += found
            n = values_reader.count(found)
            diags.append(Diagnostic(path, start + 1, f"read {n} GPU request{'' if n == 1 else 's'} "
                                    f"from the Helm values of helm_release.{m.group(1)} (not "
                                    "rendered)", "info"))
    return objects, diags
