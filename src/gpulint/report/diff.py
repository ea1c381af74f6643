"""Compare two scans: per-resource cost changes, the monthly delta, new and fixed findings.

Both sides are JSON reports (report.build), so a base scanned now from git and a base scanned
earlier by CI (`--compare-to base.json`) go through the same code. docs/cost.md describes the
output.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from typing import Any

from gpulint.config.settings import Settings
from gpulint.files import containment
from gpulint.pipeline import ScanResult, run
from gpulint.report import git_base
from gpulint.ruleset import Rule

# What a resource is, for telling "changed" from "unchanged" and spotting renames.
SIGNATURE = ("type", "provider", "cloud", "region", "instance_type", "gpu_model", "gpu_count",
             "capacity", "count", "replicas", "hourly_cost_usd", "monthly_cost_usd",
             "hours_per_month", "spot_fraction")


def _norm(path: str) -> str:
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


def _relocate(result: ScanResult, paths: git_base.PathMap) -> ScanResult:
    """Show base-tree paths as the work-tree paths of the same files."""
    def move(item: Any) -> Any:
        return dataclasses.replace(item, path=paths.to_head(item.path))

    for res in result.resources:
        res.path = paths.to_head(res.path)
    return dataclasses.replace(
        result, findings=[move(f) for f in result.findings],
        not_evaluated=[move(n) for n in result.not_evaluated],
        diagnostics=[move(d) for d in result.diagnostics],
        module_notes=[move(n) if dataclasses.is_dataclass(n) and hasattr(n, "path") else n
                      for n in result.module_notes])


def scan_git_base(ref: str, paths: list[str], rules: list[Rule],
                  settings: Settings) -> tuple[ScanResult, list[str]]:
    """Scan ``paths`` as they were at ``ref``. Returns the result (paths shown as work-tree
    paths) and the paths that did not exist at ``ref`` (everything in them is added)."""
    root = git_base.repo_root(".")
    commit = git_base.resolve(ref, root)
    with tempfile.TemporaryDirectory(prefix="gpulint-base-") as tmp:
        git_base.extract(commit, root, tmp, settings.scan.max_file_bytes)
        mapping = git_base.PathMap(root, os.path.realpath(tmp))
        base_paths, missing = [], []
        for p in paths:
            mapped = mapping.to_base(p)
            if mapped is None:
                raise git_base.GitError(f"{p} is outside the git repository {root}")
            if os.path.exists(mapped):
                base_paths.append(mapped)
            else:
                missing.append(p)
        inputs = settings.scan.inputs
        var_files = []
        for vf in inputs.var_files:  # a var file in the repository is read as it was at ref
            mapped = mapping.to_base(vf)
            var_files.append(mapped if mapped and os.path.exists(mapped) else vf)
        base = dataclasses.replace(settings, scan=dataclasses.replace(
            settings.scan, inputs=dataclasses.replace(inputs, var_files=var_files)))
        result = run(base_paths, rules, base) if base_paths else \
            ScanResult(0, [], [], [], [], [], base)
        # Shown as the work tree's files are: relative to the head scan's repository root.
        return dataclasses.replace(_relocate(result, mapping),
                                   root=containment.report_root(paths)), missing


def _signature(r: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(repr(r.get(k)) for k in SIGNATURE)


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    return {k: {"before": before.get(k), "after": after.get(k)} for k in SIGNATURE
            if before.get(k) != after.get(k)}


def _delta(before: Any, after: Any) -> float | None:
    if before is None or after is None:
        return None
    return round(float(after) - float(before), 2)


def _entry(change: str, head: dict[str, Any] | None, base: dict[str, Any] | None) -> dict[str, Any]:
    shown = head or base
    assert shown is not None
    before = base["monthly_cost_usd"] if base else 0.0
    after = head["monthly_cost_usd"] if head else 0.0
    # Worst case: autoscaling pools at their maximum (a v1 report has no max: its figure).
    before_max = base.get("monthly_cost_max_usd", before) if base and before is not None \
        else before
    after_max = head.get("monthly_cost_max_usd", after) if head and after is not None else after
    entry: dict[str, Any] = {"address": shown["address"], "path": shown["path"],
                             "line": shown["line"], "type": shown["type"],
                             "cloud": shown.get("cloud"), "change": change,
                             "before_usd": before, "after_usd": after,
                             "delta_usd": _delta(before, after),
                             "before_max_usd": before_max, "after_max_usd": after_max,
                             "delta_max_usd": _delta(before_max, after_max)}
    if change == "renamed" and base:
        entry["renamed_from"] = base["address"]
    if change == "changed" and base and head:
        entry["changes"] = _changes(base, head)
    if head and head.get("price_basis"):
        entry["after_basis"] = head["price_basis"]
    if base and base.get("price_basis"):
        entry["before_basis"] = base["price_basis"]
    return entry


def _match(base: list[dict[str, Any]], head: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pair resources: same file and address first, then renames (same file, type and facts)."""
    base_by_key = {(_norm(r["path"]), r["address"]): r for r in base}
    head_keys = {(_norm(r["path"]), r["address"]) for r in head}
    unmatched_base = [r for k, r in base_by_key.items() if k not in head_keys]
    entries = []
    for r in head:
        old = base_by_key.get((_norm(r["path"]), r["address"]))
        if old is not None:
            entries.append(_entry("unchanged" if _signature(old) == _signature(r) else "changed",
                                  r, old))
            continue
        twin = next((b for b in unmatched_base if _norm(b["path"]) == _norm(r["path"])
                     and _signature(b) == _signature(r)), None)
        if twin is not None:
            unmatched_base.remove(twin)
            entries.append(_entry("renamed", r, twin))
        else:
            entries.append(_entry("added", r, None))
    entries += [_entry("removed", None, b) for b in unmatched_base]
    return entries


def compare(base: dict[str, Any], head: dict[str, Any], base_ref: str) -> dict[str, Any]:
    """The diff (docs/cost.md) between two JSON reports."""
    resources = _match(base["resources"], head["resources"])
    renamed = {(_norm(e["path"]), e["renamed_from"]): e["address"] for e in resources
               if e["change"] == "renamed"}

    def key(f: dict[str, Any], renames: dict[tuple[str, str], str]) -> tuple[str, str, str]:
        path = _norm(f["path"])
        return f["rule"], path, renames.get((path, f["address"]), f["address"])

    base_keys = {key(f, renamed) for f in base["findings"]}
    head_keys = {key(f, {}) for f in head["findings"]}
    fixed = [f for f in base["findings"] if key(f, renamed) not in head_keys]
    # A finding the PR suppresses is a decision to accept it, not a fix: listed apart with
    # its reason, and not counted as fixed. A base report without its suppressed findings
    # (an old --compare-to report) can only tell those that were findings there.
    suppressed = head.get("suppressed") or []
    if "suppressed" in base:
        known = {key(f, renamed) for f in base["suppressed"]}
        newly = [f for f in suppressed if key(f, {}) not in known]
    else:
        was = {key(f, renamed) for f in fixed}
        newly = [f for f in suppressed if key(f, {}) in was]
    newly_keys = {key(f, {}) for f in newly}
    before_total = base["summary"]["monthly_cost_usd"]
    after_total = head["summary"]["monthly_cost_usd"]
    before_max = base["summary"].get("monthly_cost_max_usd", before_total)
    after_max = head["summary"].get("monthly_cost_max_usd", after_total)
    return {
        "base_ref": base_ref,
        "base_monthly_usd": before_total,
        "head_monthly_usd": after_total,
        "delta_usd": round(after_total - before_total, 2),
        # The same with every autoscaling pool at its maximum: the worst case.
        "base_monthly_max_usd": before_max,
        "head_monthly_max_usd": after_max,
        "delta_max_usd": round(after_max - before_max, 2),
        "resources": resources,
        "new_findings": [f for f in head["findings"] if key(f, {}) not in base_keys],
        "fixed_findings": [f for f in fixed if key(f, renamed) not in newly_keys],
        "suppressed_findings": newly,
        "unpriced_changes": sum(1 for e in resources
                                if e["change"] != "unchanged" and e["delta_usd"] is None),
        "catalog": head["catalog"],
        "base_catalog": base.get("catalog"),
        "hours_per_month": head["hours_per_month"],
        "diagnostics": head["diagnostics"],
        "base_diagnostics": base.get("diagnostics", []),
    }
