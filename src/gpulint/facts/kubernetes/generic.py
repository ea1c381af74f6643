"""Kinds read generically: pod shapes found wherever an object keeps them.

Operators put pod templates under paths of their own (`spec.podSpec`, `roles[].template`,
`services.<name>`, `podSets[].template`), or a single container spec with its resources
(`spec.slurmd`, a Dynamo service, a Run:ai workload). Rather than one reader per operator, the
object is searched for:
- a PodSpec (a mapping with a `containers` list) or a PodTemplateSpec (`metadata` + such a spec);
- a container-like mapping: accelerator resources (or a bare `gpu` field) next to an `image`,
  `command` or `args`, itself or in a mapping under it (Dynamo's `extraPodSpec.mainContainer`);
- a whole manifest nested in the object (AppWrapper components), read as the kind it is.
Replicas come from the nearest count field up the path (multiplied level by level: a role's
count within the object's replicas), node selection from the nearest placement fields. Hints
from the kind table (data/kinds.yaml) narrow the search. A mapping that asks for accelerators
with no pod shape near it stays evidence, named by accounting.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gpulint.facts.kubernetes.kinds import Context, PodGroup, _count, _one_unit, as_dict, dig
from gpulint.load.evidence import Path, dotted, find, is_vendor_resource, unwrap
from gpulint.load.kubernetes import is_manifest
from gpulint.model import Unknown

_COUNT_KEYS = ("replicas", "replicaCount", "count", "numReplicas", "numNodes", "nodeCount",
               "instances", "size", "parallelism", "workers")
_SCALE_MAPS = ("scale", "scaling", "autoscaling", "autoscaler", "multinode", "multiNode")
_PER_REPLICA = ("nodeCount", "numberOfNodes", "numNodes", "size")  # pods of one replica
_MIN_KEYS = ("minReplicas", "min_replicas", "minScale", "minimum", "min")
_MAX_KEYS = ("maxReplicas", "max_replicas", "maxScale", "maximum", "max")
_SIZING = re.compile(r"(?i)scal|replica|siz|capacity")
_PLACEMENT = ("nodeSelector", "tolerations", "affinity")
_SKIP = frozenset({"metadata", "status", "description"})
_BARE = frozenset({"gpu", "gpus", "gpuCount", "numGpus", "gpuDevices", "num_gpus"})
_CONTAINER_FIELDS = ("image", "command", "args", "env", "name")


@dataclass
class Hints:
    """What the kind table may say about a generically read kind."""

    templates: list[str] = field(default_factory=list)  # paths, `[*]` over a list
    replicas: list[str] = field(default_factory=list)  # count fields, first found wins
    bare_resource: str = "nvidia.com/gpu"  # what a bare `gpu` field counts
    unit: bool = False  # every pod of the object works on one model together
    wrapped: str | None = None  # path of whole manifests the object wraps
    workload: str | None = None
    # The operator builds a pod from any mapping asking for accelerators, image or not
    # (BentoML's runners name a bento, not an image).
    flat: bool = False
    # `path=value`: when the object says so, it runs one pod per matching node (a NodeSet in
    # DaemonSet mode), so its pod count is the node count, unknown here.
    per_node: str | None = None
    # Paths of `[{name, value}]` parameter lists whose values fill `{{<scope>.parameters.name}}`
    # in the object (Argo Workflows' arguments and template inputs).
    parameters: list[str] = field(default_factory=list)


@dataclass
class _Found:
    path: Path
    pod: dict[str, Any]
    meta: dict[str, Any]
    flat: bool = False  # built from a container-like mapping


def unwrapped(node: Any) -> Any:
    """The object with every `{value: …}` wrapper (Run:ai) replaced by its value."""
    node = unwrap(node)
    if isinstance(node, dict):
        return {k: unwrapped(v) for k, v in node.items()}
    if isinstance(node, list):
        return [unwrapped(v) for v in node]
    return node


def _at(doc: Any, path: Path) -> Any:
    for p in path:
        doc = doc[p] if (isinstance(doc, dict) and p in doc) or (isinstance(doc, list) and \
            isinstance(p, int) and p < len(doc)) else None
    return doc


def _expand(doc: Any, pattern: str) -> list[Path]:
    """Concrete paths of `spec.roles[*].template`-like patterns."""
    paths: list[Path] = [()]
    for part in pattern.replace("[*]", ".[*]").split("."):
        nxt: list[Path] = []
        for p in paths:
            node = _at(doc, p)
            if part == "[*]":
                nxt += [(*p, i) for i in range(len(node))] if isinstance(node, list) else []
            elif part == "*":
                nxt += [(*p, k) for k in node] if isinstance(node, dict) else []
            elif isinstance(node, dict) and part in node:
                nxt.append((*p, part))
        paths = nxt
    return paths


def _container_of(node: dict[str, Any], depth: int = 2) -> dict[str, Any] | None:
    """The mapping holding a container's image/command: the node or one under it."""
    if any(isinstance(node.get(k), (str, list, dict)) and k != "name" for k in
           ("image", "command", "args")):
        return node
    if depth == 0:
        return None
    for key, value in node.items():
        if isinstance(value, dict) and key not in _SKIP and key not in ("resources",):
            found = _container_of(value, depth - 1)
            if found is not None:
                return found
    return None


def _resources(node: dict[str, Any], bare: str) -> dict[str, Any] | None:
    """Container resources with accelerators: `resources` (custom and bare fields lifted to
    extended resources), or a bare `gpu` field of the node itself."""
    res = node.get("resources")
    out: dict[str, dict[str, Any]] = {"limits": {}, "requests": {}}
    if isinstance(res, dict):
        parts = {s: as_dict(res.get(s)) for s in ("limits", "requests")}
        if not any(parts.values()):
            parts = {"limits": res}  # resources written flat: {gpu: 1, cpu: 4}
        for section, values in parts.items():
            merged = {**values, **as_dict(values.get("custom"))}
            for k, v in merged.items():
                if is_vendor_resource(str(k)):
                    out[section][str(k)] = v
                elif str(k) in _BARE and not isinstance(v, (dict, list)):
                    out[section][bare] = v
    for key in _BARE:
        if key in node and not isinstance(node[key], (dict, list)):
            out["limits"][bare] = node[key]
    return out if any(out.values()) else None


def _search(node: Any, path: Path, hints: Hints, out: list[_Found],
            nested: list[tuple[Path, dict[str, Any]]]) -> None:
    if isinstance(node, list):
        for i, item in enumerate(node):
            _search(item, (*path, i), hints, out, nested)
        return
    if not isinstance(node, dict):
        return
    if path and is_manifest(node) and isinstance(node.get("spec"), dict):
        nested.append((path, node))
        return
    if isinstance(node.get("containers"), list):
        out.append(_Found(path, node, {}))
        return
    spec = node.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("containers"), list):
        out.append(_Found((*path, "spec"), spec, as_dict(node.get("metadata"))))
        return
    res = _resources(node, hints.bare_resource)
    container = (_container_of(node) or (node if hints.flat else None)) if res else None
    if res and container is not None:
        c = {k: container[k] for k in _CONTAINER_FIELDS if k in container}
        c["name"] = str(c.get("name") or (path[-1] if path else "main"))
        if isinstance(c.get("image"), dict):  # {repository, tag}
            image = as_dict(c["image"])
            c["image"] = ":".join(str(image[k]) for k in ("repository", "tag") if image.get(k))
        if isinstance(c.get("command"), str):  # Run:ai writes the command as one string
            c["command"] = c["command"].split()
        c["resources"] = res
        out.append(_Found(path, {"containers": [c]}, {}, flat=True))
        return
    for key, value in node.items():
        if key not in _SKIP:
            _search(value, (*path, key), hints, out, nested)


def _level_count(level: dict[str, Any], keys: tuple[str, ...]) -> tuple[Any, str] | None:
    """The count a mapping sets for what it holds: its count field (or one in its scale map),
    times the pods of one replica when a multi-node map says so."""
    scale_maps = [(k, as_dict(level.get(k))) for k in _SCALE_MAPS if isinstance(level.get(k),
                                                                                 dict)]
    found: tuple[Any, str] | None = None
    for key in keys:
        if key in level and not isinstance(level[key], (dict, list, bool)):
            found = (level[key], key)
            break
    if found is None:  # a count in a sizing mapping: {scale: {replicas}}, {sizing: {size}}
        scale_maps += [(str(k), v) for k, v in level.items() if isinstance(v, dict)
                       and k not in _SCALE_MAPS and _SIZING.search(str(k))]
        for name, sub in scale_maps:
            hit = next((k for k in keys if k in sub and not isinstance(sub[k], (dict, list))),
                       None)
            if hit is not None and name not in ("multinode", "multiNode"):
                found = (sub[hit], f"{name}.{hit}")
                break
    for name, sub in scale_maps:
        if name in ("multinode", "multiNode"):
            per = next((k for k in _PER_REPLICA if k in sub), None)
            if per is not None:
                n = _count(sub[per], 1, f"{name}.{per}")
                base = _count(found[0], 1, found[1]) if found else 1
                text = f"{found[1]} × {name}.{per}" if found else f"{name}.{per}"
                prod = n if isinstance(n, Unknown) else base if isinstance(base, Unknown) \
                    else base * n
                found = (prod, text)
    return found


def _bounds(level: dict[str, Any]) -> tuple[Any, Any]:
    for scope in [level] + [as_dict(level.get(k)) for k in _SCALE_MAPS]:
        lo = next((scope[k] for k in _MIN_KEYS if k in scope and not isinstance(scope[k], dict)),
                  None)
        hi = next((scope[k] for k in _MAX_KEYS if k in scope and not isinstance(scope[k], dict)),
                  None)
        if lo is not None or hi is not None:
            return lo, hi
    return None, None


def _scale(doc: dict[str, Any], found: _Found, hints: Hints) -> dict[str, Any]:
    """desired/minimum/maximum from the count fields on the way up, and the fields used."""
    keys = tuple(hints.replicas) or _COUNT_KEYS
    desired: Any = 1
    sources: list[str] = []
    lo = hi = None
    top = len(found.path) - (0 if found.flat else 1)
    for n in range(top, 0, -1):
        level = _at(doc, found.path[:n])
        if not isinstance(level, dict):
            continue
        hit = _level_count(level, keys)
        if hit is not None:
            count = _count(hit[0], 1, hit[1]) if not isinstance(hit[0], Unknown) else hit[0]
            desired = count if isinstance(count, Unknown) or isinstance(desired, Unknown) \
                else desired * count if not isinstance(desired, Unknown) else desired
            sources.append(dotted((*found.path[:n], hit[1])))
        if lo is None and hi is None:
            lo, hi = _bounds(level)
    kw: dict[str, Any] = {"desired": desired}
    if lo is not None or hi is not None:
        low = _count(lo, desired, "minimum replicas")
        kw = {"desired": low, "minimum": low, "maximum": _count(hi, low, "maximum replicas"),
              "scale_note": "declared replica range"}
    kw["sources"] = sources
    return kw


def _placement(doc: dict[str, Any], found: _Found) -> dict[str, Any]:
    """nodeSelector, tolerations and affinity: the pod's own, else the nearest on the way up
    (in the mapping or a pod-ish mapping under it)."""
    out = {k: found.pod[k] for k in _PLACEMENT if found.pod.get(k)}
    for n in range(len(found.path) - 1, 0, -1):
        level = _at(doc, found.path[:n])
        if not isinstance(level, dict):
            continue
        for scope in (level, *[as_dict(dig(level, *p)) for p in (
                ("template", "spec"), ("podSpec",), ("extraPodSpec",), ("spec",))]):
            for key in _PLACEMENT:
                if key not in out and scope.get(key):
                    out[key] = scope[key]
    return out


def _collection(node: Any) -> bool:
    """A mapping of named entries of one shape: at least two mappings sharing a key."""
    if not isinstance(node, dict) or len(node) < 2 or \
            not all(isinstance(v, dict) for v in node.values()):
        return False
    seen: set[str] = set()
    for value in node.values():
        if seen & set(value):
            return True
        seen |= set(value)
    return False


def _part(doc: dict[str, Any], path: Path, many: bool) -> str | None:
    """A name for the pod shape: the name of the nearest named list item it is in (a role, a
    template, a runner), else (when the object has several) the key it is under."""
    listed = [n for n in range(len(path), 0, -1) if isinstance(path[n - 1], int)]
    for n in listed:
        item = as_dict(_at(doc, path[:n]))
        name = item.get("name") or item.get("groupName") or item.get("componentName")
        if name:
            return str(name)
    if listed:
        return dotted(path[:listed[0]]) if many else None
    for n in range(len(path) - 1, 0, -1):
        if _collection(_at(doc, path[:n])):  # services: {prefill: {...}, decode: {...}}
            return str(path[n])
    if not many:
        return None
    rel = [str(p) for p in path if p not in ("spec", "template", "podSpec", "podTemplate",
                                             "extraPodSpec", "mainContainer", "container")]
    return rel[-1] if rel else None


def _per_node(doc: dict[str, Any], hints: Hints) -> bool:
    if not hints.per_node or "=" not in hints.per_node:
        return False
    path, value = hints.per_node.split("=", 1)
    return str(_at(doc, tuple(path.split(".")))) == value


_PARAMETER = re.compile(r"\{\{\s*(?:workflow|inputs)\.parameters\.([\w.-]+)\s*\}\}")


def _with_parameters(doc: dict[str, Any], hints: Hints) -> Any:
    """The object with parameter references replaced by their defaults, where known."""
    known: dict[str, str] = {}
    for pattern in hints.parameters:
        for path in _expand(doc, pattern):
            for p in _at(doc, path) if isinstance(_at(doc, path), list) else []:
                if isinstance(p, dict) and isinstance(p.get("value", p.get("default")),
                                                      (str, int, float)):
                    known.setdefault(str(p.get("name")), str(p.get("value", p.get("default"))))

    def fill(node: Any) -> Any:
        if isinstance(node, str) and "{{" in node:
            return _PARAMETER.sub(lambda m: known.get(m.group(1), m.group(0)), node)
        if isinstance(node, dict):
            return {k: fill(v) for k, v in node.items()}
        if isinstance(node, list):
            return [fill(v) for v in node]
        return node

    return fill(doc) if known else doc


def read(doc: dict[str, Any], ctx: Context, hints: Hints,
         nested_reader: Callable[[dict[str, Any], Context], list[PodGroup]]) -> list[PodGroup]:
    """Pod groups of an object of a kind without a reader of its own."""
    doc = _with_parameters(unwrapped(doc), hints)
    kind, api = str(doc.get("kind")), str(doc.get("apiVersion", ""))
    found: list[_Found] = []
    nested: list[tuple[Path, dict[str, Any]]] = []
    roots = [p for t in hints.templates for p in _expand(doc, t)] if hints.templates else \
        [("spec",)] if isinstance(doc.get("spec"), dict) else []
    if hints.wrapped:
        nested = [(p, _at(doc, p)) for p in _expand(doc, hints.wrapped) if is_manifest(_at(doc, p))]
        roots = []
    for root in roots:
        _search(_at(doc, root), root, hints, found, nested)
    groups: list[PodGroup] = []
    for path, inner in nested:
        name = str(dig(inner, "metadata", "name") or "")
        for g in nested_reader(inner, ctx):
            g.suffix = f"{inner.get('kind')} {name}".strip() + (f"/{g.suffix}" if g.suffix else "")
            g.read_as = f"{inner.get('kind')} wrapped in {kind} at {dotted(path)}"
            groups.append(g)
    for f in found:
        kw = _scale(doc, f, hints)
        sources = kw.pop("sources")
        pod = {**f.pod, **_placement(doc, f)}
        meta = f.meta
        labels = {**as_dict(meta.get("labels"))}
        g = PodGroup(_part(doc, f.path, len(found) > 1), pod, labels,
                     as_dict(meta.get("annotations")), workload=hints.workload, **kw)
        if _per_node(doc, hints):
            g.desired = Unknown(f"{hints.per_node}: one pod per matching node, and the number "
                                "of matching nodes is unknown")
            g.minimum = g.maximum = None
            sources = [str(hints.per_node)]
        count = f"replicas from {', '.join(sources)}" if sources else "1 pod (no count field)"
        g.read_as = (f"kind {kind} ({api}) read generically: pods at {dotted(f.path)}, {count}")
        groups.append(g)
    if (hints.unit and len(groups) > 1) or (hints.unit and groups and not isinstance(
            groups[0].desired, Unknown) and groups[0].desired > 1):
        _one_unit(groups, kind)
    return groups


def evidence_paths(doc: dict[str, Any]) -> Iterator[Path]:
    yield from (e.path for e in find(unwrapped(doc)))
