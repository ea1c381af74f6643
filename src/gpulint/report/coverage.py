"""Evidence coverage of a scan: of the YAML/JSON documents that ask for accelerators, how many
gpulint reports as GPU resources (found), names as "could not evaluate" or in a diagnostic
(named), knows to run nothing (non-workload), and how many it passes over in silence
(unaccounted, which must be none).

The count is made independently of the readers: every document of every discovered YAML/JSON
file is parsed again and searched for evidence (load/evidence.py), then matched with the scan's
resources, notes and diagnostics by file and line. Terraform counts too: each resource or
module block whose strings carry objects or values with evidence (a heredoc, a `yamlencode`,
a `manifest`), and each template file (`.tpl`, `.tftpl`) beside Terraform code, which is read
through the release that evaluated it, or named.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gpulint.files.text import read_text
from gpulint.load.evidence import MARKER, Evidence, find
from gpulint.load.kubernetes import K8sObject, is_manifest, separators
from gpulint.load.source import is_template_name
from gpulint.render import values_evidence, values_tree
from gpulint.render.values_tree import Values

FOUND, NAMED, NON_WORKLOAD, UNACCOUNTED = "found", "named", "non-workload", "unaccounted"
# Values or patches a chart render, helmfile, kustomize build or Terraform release consumed:
# their evidence ends in the objects rendered from them.
THROUGH = "through-release"


@dataclass
class Item:
    path: str
    line: int
    what: str  # Kind/name or "values"
    evidence: list[Evidence]
    outcome: str = UNACCOUNTED
    cause: str = ""


@dataclass
class Coverage:
    items: list[Item] = field(default_factory=list)
    templates: int = 0  # unparsable chart templates, read through their chart

    def counts(self) -> Counter[str]:
        return Counter(i.outcome for i in self.items)

    def causes(self) -> Counter[str]:
        return Counter(i.cause for i in self.items if i.outcome == NAMED)


def _doc_ranges(text: str) -> list[tuple[int, int]]:
    """(first, last) line of each document of the text."""
    starts = [1] + [text.count("\n", 0, a) + 1 for a, _ in separators(text) if a > 0]
    ends = [s - 1 for s in starts[1:]] + [text.count("\n") + 1]
    return list(zip(starts, ends, strict=True))


def _documents(path: str, text: str) -> list[tuple[int, int, Any]]:
    from gpulint.render.values_tree import parse

    out = []
    ranges = _doc_ranges(text)
    docs, _ = parse(path, text)
    for tree, lines in docs:
        first = lines.get((), 1)
        end = next((e for s, e in ranges if s <= first <= e), first)
        out.append((first, end, tree))
    return out


def _in_chart_templates(path: str) -> bool:
    parts = os.path.abspath(path).split(os.sep)
    for i, part in enumerate(parts[:-1]):
        if part == "templates" and os.path.isfile(os.sep.join([*parts[:i], "Chart.yaml"])):
            return True
    return False


def _non_workload(tree: Any, path: str, line: int, found: list[Evidence]) -> bool:
    from gpulint.facts.kubernetes.accounting import non_workload

    if is_manifest(tree):
        return non_workload(K8sObject(path, line, tree), found) is not None
    values = Values()
    values_tree.add(values, path, tree, {(): line})
    _, _, outcomes = values_evidence.read(values, "coverage")
    return bool(outcomes) and all(o == "non-workload" for _, o in outcomes)


def root_cause(reason: str) -> str:
    """The cause a reason ends with (the text report groups by it the same way)."""
    return reason.split("; ")[0].rsplit(": ", 1)[-1].strip()


def measure(paths: list[str]) -> Coverage:
    """Run a scan of `paths` and account for each document that holds evidence."""
    from gpulint.discover import discover
    from gpulint.pipeline import run
    from gpulint.ruleset import load_rules

    result = run(paths, load_rules())
    cov = Coverage()
    found_files = discover(paths).files
    consumed = _consumed(found_files)
    for sf in found_files:
        if not sf.path.endswith((".yaml", ".yml", ".json")) and not is_template_name(sf.path):
            continue
        text, _ = read_text(sf.path)
        if not text:
            continue
        documents = _documents(sf.path, text)
        if not documents and _in_chart_templates(sf.path):
            cov.templates += 1
            continue
        for first, end, tree in documents:
            if isinstance(tree, dict) and (tree.get("kind") == "CustomResourceDefinition"
                                           or _own_report(tree)):
                continue
            found = find(tree)
            if not found:
                continue
            what = f"{tree.get('kind')}/{(tree.get('metadata') or {}).get('name')}" \
                if is_manifest(tree) else "values"
            item = _outcome(Item(sf.path, first, what, found), end, tree, result)
            if item.outcome == UNACCOUNTED and (os.path.abspath(sf.path) in consumed or (
                    os.path.realpath(sf.path) in result.terraform_reads)):
                item.outcome = THROUGH
            cov.items.append(item)
    cov.items += _terraform(found_files, discover(paths).roots, result)
    return cov


def _terraform(files: list[Any], roots: tuple[str, ...], result: Any) -> list[Item]:
    """Evidence in Terraform strings (per block) and in template files (per file)."""
    from gpulint.facts.terraform import string_evidence, unread_templates
    from gpulint.terraform.expressions import Scope
    from gpulint.terraform.parser import parse_hcl
    from gpulint.terraform.syntax import HclSyntaxError

    items = []
    for sf in files:
        if not sf.path.endswith(".tf"):
            continue
        text, _ = read_text(sf.path)
        if not text or not MARKER.search(text):
            continue
        try:
            root = parse_hcl(text)
        except (HclSyntaxError, RecursionError):  # the scan reports it
            continue
        for block in root.blocks:
            if block.type not in ("resource", "module") or not block.labels:
                continue
            places = string_evidence.inline(block, Scope(), sf.path, arguments=False)
            if places:
                what = ".".join(block.labels) if block.type == "resource" else \
                    f"module.{block.labels[0]}"
                item = Item(sf.path, block.line, what, [e for p in places for e in p.evidence])
                items.append(_outcome(item, block.end_line, {}, result))
    has_tf: dict[str, bool] = {}
    for root_dir in roots:
        for path in unread_templates.templates((root_dir,)):
            if unread_templates.terraform_dir(path, root_dir, has_tf) is None:
                continue
            text, _ = read_text(path)
            hits = string_evidence.text_evidence(text or "", path)
            if not hits:
                continue
            item = Item(path, min(h[0] for h in hits), "template", [e for _, e in hits])
            item = _outcome(item, (text or "").count("\n") + 1, {}, result)
            if item.outcome == UNACCOUNTED and os.path.realpath(path) in result.terraform_reads:
                item.outcome = THROUGH
            items.append(item)
    return items


def _own_report(tree: dict[str, Any]) -> bool:
    """A gpulint JSON report (a saved scan, a baseline's input): it describes, it deploys not."""
    tool = tree.get("tool")
    return "schema_version" in tree and isinstance(tool, dict) and tool.get("name") == "gpulint"


def _consumed(files: list[Any]) -> set[str]:
    """Values files read through something else: a chart's own values.yaml, the files a
    render plan consumed (helmfile, kustomize, configured values), files a Terraform file
    names by path (helm_release values = [file("${path.module}/values.yaml")])."""
    from gpulint.config.settings import ScanSettings
    from gpulint.render.templates import render

    class _Found:
        def __init__(self) -> None:
            self.files = files

    out = set(render(_Found(), ScanSettings(), None).skip)  # type: ignore[arg-type]
    for f in files:
        if f.path.endswith(".tf"):
            out.update(_named_by_terraform(f.path, read_text(f.path)[0] or ""))
    for f in files:
        path = os.path.abspath(f.path)
        chart = os.path.join(os.path.dirname(path), "Chart.yaml")
        if os.path.basename(path) == "values.yaml" and os.path.isfile(chart):
            out.add(path)
    return out


# A quoted YAML path in Terraform, relative to the module (`${path.module}/…`) or as written.
_TF_PATH = re.compile(r'"(?:\$\{path\.(?:module|root|cwd)\}/)?([^"$]*\.ya?ml)"')


def _named_by_terraform(tf: str, text: str) -> set[str]:
    """The YAML files a Terraform file names, resolved from its directory: a file elsewhere
    with the same base name is not consumed by it."""
    here = os.path.dirname(os.path.abspath(tf))
    return {os.path.normpath(os.path.join(here, m.group(1))) for m in _TF_PATH.finditer(text)}


def _outcome(item: Item, end: int, tree: Any, result: Any) -> Item:
    same = os.path.realpath(item.path)

    def here(path: str, line: int | None) -> bool:
        return os.path.realpath(path) == same and (line is None or item.line <= line <= end)

    if any(here(r.path, r.line) for r in result.resources):
        item.outcome = FOUND
        return item
    for n in [*result.not_evaluated, *result.module_notes]:
        if here(n.path, n.line):
            item.outcome, item.cause = NAMED, root_cause(n.reason)
            return item
    if _non_workload(tree, item.path, item.line, item.evidence) or (
            isinstance(tree, dict) and "suite" in tree and isinstance(tree.get("tests"), list)):
        # a documented non-workload, or a helm-unittest spec (test inputs)
        item.outcome = NON_WORKLOAD
        return item
    for d in result.diagnostics:
        if here(d.path, d.line):
            item.outcome, item.cause = NAMED, f"diagnostic: {d.message[:80]}"
            return item
    return item
