"""Turn a scan result into the versioned JSON report (docs/json-format.md)."""

from __future__ import annotations

import hashlib
from typing import Any

from gpulint import __version__
from gpulint.config.load import display
from gpulint.fact_types import Resource
from gpulint.facts.model_decl import declared_model
from gpulint.files import containment
from gpulint.model import Finding, Unknown
from gpulint.pipeline import ScanResult
from gpulint.pricing import catalog_report
from gpulint.report.exit import gate

# 2: monthly_cost_usd is the expected cost (desired/initial count), not the minimum.
SCHEMA_VERSION = 2


def fingerprint(finding: Finding, path: str | None = None) -> str:
    """Stable across line moves and reformatting: rule, file (as the report shows it, relative
    to the repository root) and resource address only."""
    key = f"{finding.rule}\0{finding.path if path is None else path}\0{finding.address}"
    return hashlib.sha256(key.encode()).hexdigest()[:32]


class _Shown:
    """Paths as the report shows them (containment.shown_path): relative to the scan's
    repository root; one realpath per distinct path."""

    def __init__(self, root: str) -> None:
        self.root = root or containment.report_root(())
        self._seen: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if path not in self._seen:
            self._seen[path] = containment.shown_path(path, self.root)
        return self._seen[path]

    def rewrite(self, report: dict[str, Any], findings: list[Finding]) -> None:
        """Every path of the report, and the findings' fingerprints made from them."""
        for key in ("resources", "not_evaluated", "options", "diagnostics"):
            for item in report[key]:
                if isinstance(item.get("path"), str):
                    item["path"] = self(item["path"])
        for item, fd in zip(report["findings"], findings, strict=True):
            item["path"] = self(fd.path)
            item["fingerprint"] = fingerprint(fd, item["path"])
        for item in report.get("suppressed", []):
            item["path"] = self(item["path"])
            item["suppression"]["path"] = self(item["suppression"]["path"])
            item["fingerprint"] = hashlib.sha256(
                f"{item['rule']}\0{item['path']}\0{item['address']}".encode()).hexdigest()[:32]


def _known(v: Any) -> Any:
    return None if isinstance(v, Unknown) else v


def _num(v: Any) -> Any:
    v = _known(v)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _count(v: Any) -> Any:
    """A GPU count: 8, not 8.0 (catalog counts are floats because some are fractions)."""
    v = _num(v)
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _clouds(found: list[Resource]) -> set[str]:
    """The clouds a report's resources are priced in."""
    return {c for r in found for c in (r.facts.get("provider"), r.facts.get("cost.cloud"))
            if isinstance(c, str)}


def _resource(res: Resource) -> dict[str, Any]:
    f = res.facts
    provider = f.get("provider")
    decl = declared_model(res)
    model = None
    if decl is not None:
        model = {"id": _known(f.get("model.id")) or decl.id,
                 "params_b": _num(f.get("model.params_b")),
                 "precision": _known(f.get("model.precision")),
                 "required_gib": _num(f.get("model.required_gib")),
                 "estimate": _known(f.get("model.estimate")),
                 "fits": _known(f.get("model.fits")),
                 "max_concurrency": _num(f.get("model.max_concurrency")),
                 "estimated": bool(f.get("model.estimated")) if "model.estimated" in f else None,
                 "source": decl.source}
    count = _known(f.get("cost.count"))
    tags = f.get("tags")
    return {
        "address": res.address, "type": res.type, "path": res.path, "line": res.line,
        "provider": provider if provider != "kubernetes" else "kubernetes",
        "cloud": (f.get("provider.cloud") or f.get("cost.cloud")) if provider == "kubernetes"
        else provider,
        "region": _known(f.get("region")) if provider != "kubernetes" else f.get("cost.region"),
        "region_source": f.get("region.source"),
        "instance_type": _known(f.get("instance.type")),
        "gpu_model": _known(f.get("gpu.model")),
        "gpu_count": _count(f.get("gpu.count")),
        "gpu_memory_gib": _num(f.get("gpu.memory_gib")),
        "capacity": _known(f.get("capacity")) or "unknown",
        "workload": f.get("workload") or "unknown",
        "count": _num(count),
        "replicas": {"min": _num(f.get("replicas.min")), "max": _num(f.get("replicas.max")),
                     "desired": _num(f.get("replicas.desired"))},
        "hourly_cost_usd": _num(f.get("cost.hourly")),
        "monthly_cost_usd": _num(f.get("cost.monthly")),
        "monthly_cost_min_usd": _num(f.get("cost.monthly_min", f.get("cost.monthly"))),
        "monthly_cost_max_usd": _num(f.get("cost.monthly_max", f.get("cost.monthly"))),
        "price_basis": f.get("cost.basis"),
        "hours_per_month": _num(f.get("cost.hours")),
        "spot_fraction": _num(f.get("capacity.spot_fraction")),
        "cluster": _known(f.get("cluster")),
        "node_pool": _known(f.get("node_pool")),
        "tags": {k: (v if not isinstance(v, Unknown) else None)
                 for k, v in tags.items()} if isinstance(tags, dict) else None,
        "model": model,
        "change": ({"actions": f["change.actions"],
                    "monthly_cost_before_usd": _num(f.get("cost.monthly_before"))}
                   if "change.actions" in f else None),
        "unknowns": [{"fact": fact, "reason": reason} for fact, reason in
                     dict.fromkeys(res.unknowns)],
    }


# The fields of a resource that describe an option: what a user gets and what an hour of it
# costs. Monthly costs, replicas and counts are about what runs, so they are left out.
_OPTION_FIELDS = ("address", "type", "path", "line", "provider", "cloud", "region",
                  "instance_type", "gpu_model", "gpu_count", "gpu_memory_gib", "capacity",
                  "workload", "hourly_cost_usd", "model", "unknowns")


def _option(res: Resource) -> dict[str, Any]:
    """A choice users may make (a JupyterHub GPU profile): its hardware and hourly price."""
    row = _resource(res)
    return {"option": res.facts.get("option"), **{k: row[k] for k in _OPTION_FIELDS}}


def _finding(fd: Finding) -> dict[str, Any]:
    return {"rule": fd.rule, "severity": fd.severity.value, "path": fd.path, "line": fd.line,
            "address": fd.address, "message": fd.message,
            "short_message": fd.short_message or fd.message, "remediation": fd.remediation,
            "monthly_saving_usd": fd.monthly_saving_usd, "saving_basis": fd.saving_basis,
            "fingerprint": fingerprint(fd)}


def potential_saving(findings: list[Finding]) -> float:
    """Largest saving per resource: fixes to one resource overlap, so they are not added up."""
    best: dict[tuple[str, str], float] = {}
    for fd in findings:
        if fd.monthly_saving_usd:
            key = (fd.path, fd.address)
            best[key] = max(best.get(key, 0.0), fd.monthly_saving_usd)
    return round(sum(best.values()), 2)


def _total(resources: list[dict[str, Any]], key: str) -> float:
    return round(sum(float(r[key]) for r in resources
                     if r["monthly_cost_usd"] is not None and r[key] is not None), 2)


def _suppressed(result: ScanResult) -> list[dict[str, Any]]:
    return [{**_finding(f), "suppression": {"path": s.path, "line": s.line, "reason": s.reason,
                                            "until": s.until.isoformat() if s.until else None}}
            for f, s in result.suppressed]


def build(result: ScanResult, hours: float, *, show_suppressed: bool = False) -> dict[str, Any]:
    overrides = result.settings.pricing.overrides
    resources = [_resource(r) for r in result.resources]
    counts = {"error": 0, "warning": 0, "info": 0}
    for fd in result.findings:
        counts[fd.severity.value] += 1
    priced = [r["monthly_cost_usd"] for r in resources if r["monthly_cost_usd"] is not None]
    not_evaluated = [{"rule": n.rule, "address": n.address, "path": n.path, "line": n.line,
                      "reason": n.reason} for n in result.not_evaluated]
    not_evaluated += [{"rule": None, "address": n.address, "path": n.path, "line": n.line,
                       "reason": f"could not evaluate: {n.reason}"} for n in result.module_notes]
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "gpulint", "version": __version__},
        # The configuration file in effect (discovered or --config), None for the defaults.
        "configuration": display(source.path) if (source := result.settings.source) else None,
        "catalog": {**catalog_report.report_info(_clouds(result.resources)),
                    "pricing_overrides": overrides.origin if overrides else None},
        "hours_per_month": hours,
        "resources": resources,
        "findings": [_finding(f) for f in result.findings],
        "not_evaluated": not_evaluated,
        # Choices users may make, priced per hour: in no total below.
        "options": [_option(r) for r in result.options],
        "summary": {
            "files_scanned": result.files_scanned,
            "gpu_resources": len(resources),
            "findings": counts,
            # Every autoscaling pool at its expected (desired) size, fixed ones as they are …
            "monthly_cost_usd": round(sum(priced), 2),
            # … and at either end of its range.
            "monthly_cost_min_usd": _total(resources, "monthly_cost_min_usd"),
            "monthly_cost_max_usd": _total(resources, "monthly_cost_max_usd"),
            "unpriced_resources": len(resources) - len(priced),
            "potential_saving_usd": potential_saving(result.findings),
            "not_evaluated": len(not_evaluated),
            "options": len(result.options),
            "suppressed": len(result.suppressed),
            "baselined": result.baselined,
        },
        **({"suppressed": _suppressed(result)} if show_suppressed else {}),
        "diagnostics": [{"path": d.path, "line": d.line, "severity": d.severity,
                         "message": d.message} for d in result.diagnostics],
    }
    _Shown(result.root).rewrite(report, result.findings)
    report["summary"]["gate"] = gate(report, result.settings.fail_on,
                                     result.settings.strict).as_dict()
    return report
