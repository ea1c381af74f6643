"""Infrastructure formats gpulint does not read: CloudFormation templates and their parameter
files, AWS ParallelCluster configurations. Their accelerators are not priced, but they are never
passed in silence: each resource, queue or parameter that names a GPU instance type (or asks
AWS Batch for GPUs) is a "could not evaluate" item at its line, naming the format.

Recognised by shape, not by file name: a CloudFormation template has `AWSTemplateFormatVersion`
or `Resources` whose entries have an `AWS::` type; a parameter file is a list of
`{ParameterKey, ParameterValue}`; a ParallelCluster configuration has `HeadNode` and
`Scheduling` with queues.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gpulint.load.evidence import EvidenceNote, is_gpu_instance

# A cheap test before parsing a file for these formats.
MARK = re.compile(r"AWSTemplateFormatVersion|AWS::|ParameterKey|SlurmQueues|AwsBatchQueues")

CLOUDFORMATION = "a CloudFormation template"
PARAMETERS = "a CloudFormation parameter file"
PARALLELCLUSTER = "an AWS ParallelCluster configuration"
_UNREAD = ("{fmt}, a format gpulint does not read (its instances and accelerators are not "
           "priced)")
_PLACEHOLDER = re.compile(r"\$\{?\w+\}?|\{\{.*\}\}|<[\w-]+>|PLACEHOLDER", re.I)
_MAX_NODES = 20_000  # a template is small; a pathological one is not walked whole

Lines = dict[tuple[Any, ...], int]


def kind_of(tree: Any) -> str | None:
    """Which unread format a parsed document is, or None."""
    if isinstance(tree, list):
        pairs = [t for t in tree if isinstance(t, dict)]
        if pairs and all("ParameterKey" in t and "ParameterValue" in t for t in pairs):
            return PARAMETERS
        return None
    if not isinstance(tree, dict):
        return None
    resources = tree.get("Resources")
    if "AWSTemplateFormatVersion" in tree or (isinstance(resources, dict) and any(
            isinstance(r, dict) and str(r.get("Type", "")).startswith("AWS::")
            for r in resources.values())):
        return CLOUDFORMATION
    scheduling = tree.get("Scheduling")
    if "HeadNode" in tree and isinstance(scheduling, dict) and (
            "SlurmQueues" in scheduling or "AwsBatchQueues" in scheduling):
        return PARALLELCLUSTER
    return None


def notes(path: str, tree: Any, lines: Lines, line_of: Any = None) -> list[EvidenceNote]:
    """The "could not evaluate" items of a document in an unread format (none for others).
    `lines` maps key paths to lines (YAML); `line_of(text)` finds a value's line (JSON)."""
    fmt = kind_of(tree)
    if fmt is None:
        return []
    cause = _UNREAD.format(fmt=fmt)
    out = []
    for address, where, found in _items(fmt, tree):
        line = lines.get(where) or (line_of(found[0].split(" = ", 1)[-1]) if line_of else None)
        more = f" and {len(found) - 1} more" if len(found) > 1 else ""
        out.append(EvidenceNote(address, path, line or 1, f"{found[0]}{more}: {cause}"))
    return out


def _items(fmt: str, tree: Any) -> Iterator[tuple[str, tuple[Any, ...], list[str]]]:
    """(address, key path of the item, evidence) for each item that names accelerators."""
    if fmt == PARAMETERS:
        for i, pair in enumerate(tree):
            value = pair.get("ParameterValue") if isinstance(pair, dict) else None
            if is_gpu_instance(value):
                key = pair.get("ParameterKey")
                yield f"Parameter/{key}", (i,), [f"{key} = {value}"]
        return
    if fmt == CLOUDFORMATION:
        params = tree.get("Parameters") if isinstance(tree.get("Parameters"), dict) else {}
        gpu_defaults = {name: p["Default"] for name, p in params.items()
                        if isinstance(p, dict) and is_gpu_instance(p.get("Default"))}
        for name, res in (tree.get("Resources") or {}).items():
            if isinstance(res, dict):
                found = list(_evidence(res.get("Properties"), "Properties", gpu_defaults))
                if found:
                    yield f"{res.get('Type', 'Resource')}/{name}", ("Resources", name), found
        return
    key = "SlurmQueues" if "SlurmQueues" in tree["Scheduling"] else "AwsBatchQueues"
    queues = tree["Scheduling"][key]
    for qi, queue in enumerate(queues if isinstance(queues, list) else []):
        if not isinstance(queue, dict):
            continue
        found = list(_evidence(queue.get("ComputeResources"), "ComputeResources", {}))
        unset = [f"{where} = {value} (unset: might be a GPU queue)"
                 for where, value in _instance_types(queue.get("ComputeResources"))
                 if isinstance(value, str) and _PLACEHOLDER.search(value)]
        if found or unset:
            yield f"{key}/{queue.get('Name', qi)}", ("Scheduling", key, qi), found + unset


def _walk(node: Any, where: str) -> Iterator[tuple[str, Any]]:
    stack: list[tuple[str, Any]] = [(where, node)]
    seen = 0
    while stack and seen < _MAX_NODES:
        here, item = stack.pop()
        seen += 1
        yield here, item
        if isinstance(item, dict):
            stack.extend((f"{here}.{k}", v) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((f"{here}[{i}]", v) for i, v in reversed(list(enumerate(item))))


def _evidence(node: Any, where: str, gpu_defaults: dict[str, Any]) -> Iterator[str]:
    """GPU instance types, references to parameters whose default is one (`!Ref`, read as the
    parameter's name), and AWS Batch `{Type: GPU, Value: n}` requirements."""
    for here, item in _walk(node, where):
        if is_gpu_instance(item):
            yield f"{here} = {item}"
        elif isinstance(item, str) and item in gpu_defaults:
            yield f"{here} = !Ref {item} (default {gpu_defaults[item]})"
        elif isinstance(item, dict) and str(item.get("Type", "")).upper() == "GPU" and \
                "Value" in item:
            yield f"{here} = GPU {item['Value']}"


def _instance_types(node: Any) -> Iterator[tuple[str, Any]]:
    for here, item in _walk(node, "ComputeResources"):
        if here.endswith(".InstanceType"):
            yield here, item
