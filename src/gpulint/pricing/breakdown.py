"""The cost breakdown behind `gpulint cost`: per resource, per cloud (``by_provider``, where a
Kubernetes workload counts under the cloud it is priced on) and per tag value."""

from __future__ import annotations

from typing import Any

UNTAGGED = "(untagged)"
UNKNOWN_TAG = "(tag not evaluated)"


def _unpriced_reason(r: dict[str, Any]) -> str | None:
    if r["monthly_cost_usd"] is not None:
        return None
    reasons = [u["reason"] for u in r["unknowns"] if u["fact"] == "cost.monthly"]
    return reasons[0] if reasons else "not priceable"


def group_value(r: dict[str, Any], tag: str) -> str:
    tags = r.get("tags")
    if tags is None:  # the tags expression could not be evaluated
        return UNKNOWN_TAG
    value = tags.get(tag)
    if value is None:
        return UNKNOWN_TAG if tag in tags else UNTAGGED
    return str(value)


def breakdown(report: dict[str, Any], group_by: str = "team") -> dict[str, Any]:
    """A JSON-ready breakdown from a scan report (report.build)."""
    rows = []
    by_provider: dict[str, float] = {}
    by_group: dict[str, float] = {}
    for r in report["resources"]:
        group = group_value(r, group_by)
        monthly = r["monthly_cost_usd"]
        rows.append({
            "address": r["address"], "path": r["path"], "line": r["line"],
            "provider": r["provider"], "cloud": r["cloud"], "region": r["region"],
            "instance_type": r["instance_type"], "gpu_model": r["gpu_model"],
            "gpu_count": r["gpu_count"], "capacity": r["capacity"], "count": r["count"],
            "hourly_usd": r["hourly_cost_usd"], "hours": r.get("hours_per_month"),
            "monthly_usd": monthly, "basis": r["price_basis"], "group": group,
            "unpriced_reason": _unpriced_reason(r),
        })
        if monthly is not None:
            # A Kubernetes workload is billed by the cloud its nodes run in, not by Kubernetes.
            cloud = r["cloud"] or r["provider"]
            by_provider[cloud] = round(by_provider.get(cloud, 0.0) + monthly, 2)
            by_group[group] = round(by_group.get(group, 0.0) + monthly, 2)
    return {
        "catalog": report["catalog"],
        "hours_per_month": report["hours_per_month"],
        "resources": rows,
        "totals": {
            "monthly_usd": report["summary"]["monthly_cost_usd"],
            "by_provider": dict(sorted(by_provider.items())),
            "group_by": group_by,
            "by_group": dict(sorted(by_group.items(), key=lambda kv: (-kv[1], kv[0]))),
            "unpriced_resources": report["summary"]["unpriced_resources"],
        },
        "diagnostics": report["diagnostics"],
        # Choices users may make (JupyterHub GPU profiles): per hour, outside every total.
        "options": [{"address": o["address"], "path": o["path"], "line": o["line"],
                     "option": o["option"], "gpu_model": o["gpu_model"],
                     "gpu_count": o["gpu_count"], "hourly_usd": o["hourly_cost_usd"]}
                    for o in report.get("options") or []],
    }
