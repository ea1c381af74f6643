"""Accelerator evidence in Helm values that the values reader did not turn into an object.

Each piece ends as an object read from the values, a documented non-workload (a mapping the
chart switches off with `enabled: false`, a catalog of profiles or flavors the chart offers), or
a "could not evaluate" note at the line that set it: values are never passed over silently.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.load.evidence import Evidence, EvidenceNote, find
from gpulint.load.kubernetes import K8sObject
from gpulint.render.values import VALUES_TYPE, _Reader
from gpulint.render.values_tree import Path, Values

# Keys under which charts list what may be chosen, not what runs (KubeAI resourceProfiles,
# Kueue-like flavors, presets).
_CATALOG = re.compile(r"(?i)^(resource)?(profiles|flavors|presets|catalog)$|profiles$")


def _under(path: Path, roots: list[Path]) -> bool:
    return any(path[:len(r)] == r for r in roots)


def outcome(e: Evidence, reader: _Reader) -> str:
    """resource, non-workload or named."""
    if _under(e.path, reader.covered) or (e.sort == "selector" and reader.covered):
        return "resource"  # selectors are inherited by the objects read (values.py)
    if _under(e.path, reader.disabled) or any(isinstance(p, str) and _CATALOG.search(p)
                                               for p in e.path):
        return "non-workload"
    return "named"


_PROFILE_KEYS = ("limits", "requests", "nodeSelector", "tolerations", "affinity")


def profiles(tree: Any) -> dict[str, dict[str, Any]]:
    """Resource profiles a chart offers by name (KubeAI's `resourceProfiles`: per-unit limits,
    node selector and tolerations), for objects that name one (`nvidia-gpu-l4:2`)."""
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(tree, dict):
        return out
    for key, value in tree.items():
        if isinstance(value, dict) and _CATALOG.search(str(key)) and all(
                isinstance(v, dict) for v in value.values()):
            out.update({str(k): v for k, v in value.items() if any(f in v for f in _PROFILE_KEYS)})
        elif isinstance(value, dict):
            out.update(profiles(value))
    return out


# What a note asks for: a chart's values are read fully when the chart renders; a YAML file
# beside no chart may be values of a remote chart or another tool's own configuration.
CHART_FIX = ("accelerators in Helm values outside any mapping gpulint reads as a pod (resources "
             "with image, replicas, nodeSelector); render the chart (helm on PATH, its directory "
             "in the scan) to read them")
STANDALONE_FIX = ("accelerators in a YAML file that is no Kubernetes object and no values of a "
                  "chart in the scan (values of a remote chart, or a tool's own configuration); "
                  "add the chart or the manifests it deploys to the scan to read them")


def read(values: Values, release: str, namespace: str | None = None, under: Path = (),
         fix: str = CHART_FIX
         ) -> tuple[list[K8sObject], list[EvidenceNote], list[tuple[Evidence, str]]]:
    """Objects read from the values, notes for the evidence none of them accounts for, and
    each piece of evidence with its outcome."""
    reader = _Reader(values, release, namespace)
    node: Any = values.tree
    for key in under:
        node = node.get(key) if isinstance(node, dict) else None
    reader.walk(node, under)
    found = [(e, outcome(e, reader)) for e in find(node, under)]
    named = [e for e, o in found if o == "named"]
    notes = []
    if named:
        file, line = values.locate(named[0].path)
        more = f" and {len(named) - 1} more" if len(named) > 1 else ""
        notes.append(EvidenceNote(
            f"{VALUES_TYPE}/{release}", file, line,
            f"{named[0].describe()}{more}: {fix}"))
    return reader.objects, notes, found
