"""`gpulint cost --format csv` and `--sort`: one row per GPU resource for spreadsheets and
FinOps tools.

Columns: where the resource is, what it runs, the expected monthly cost, the low and high
monthly cost when the report carries them (`monthly_cost_min_usd`, `monthly_cost_max_usd`:
autoscaling ranges), the largest saving a finding offers on it, and the price basis. Text that
comes from the scanned files is defused for spreadsheets: a cell starting with `=`, `+`, `-`,
`@`, a tab or a carriage return gets a leading `'` so it is not read as a formula.
"""

from __future__ import annotations

import csv
import io
from typing import Any

SORTS = ("cost", "saving", "path")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def savings(report: dict[str, Any]) -> dict[tuple[str, str], float]:
    """The largest monthly saving per resource (fixes to one resource overlap)."""
    best: dict[tuple[str, str], float] = {}
    for f in report.get("findings") or []:
        if f.get("monthly_saving_usd"):
            key = (f["path"], f["address"])
            best[key] = max(best.get(key, 0.0), float(f["monthly_saving_usd"]))
    return best


def enrich(data: dict[str, Any], report: dict[str, Any]) -> None:
    """Add each row's saving and, when the report has them, its min and max monthly cost."""
    best = savings(report)
    by_key = {(r["path"], r["address"]): r for r in report["resources"]}
    for row in data["resources"]:
        key = (row["path"], row["address"])
        row["saving_usd"] = best.get(key)
        source = by_key.get(key, {})
        for name in ("monthly_cost_min_usd", "monthly_cost_max_usd"):
            if name in source:
                row[name.replace("_cost", "")] = source[name]


def sort_rows(rows: list[dict[str, Any]], how: str | None) -> list[dict[str, Any]]:
    """cost and saving: largest first, unpriced last; path: file, line, address."""
    if how == "cost":
        return sorted(rows, key=lambda r: (r["monthly_usd"] is None, -(r["monthly_usd"] or 0),
                                           r["path"], r["line"]))
    if how == "saving":
        return sorted(rows, key=lambda r: (-(r.get("saving_usd") or 0), r["path"], r["line"]))
    if how == "path":
        return sorted(rows, key=lambda r: (r["path"], r["line"], r["address"]))
    return rows


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):  # as computed (hourly prices have more than two decimals)
        return f"{round(value, 6):.12g}"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA) else text


def render(data: dict[str, Any]) -> str:
    rows = data["resources"]
    columns = ["address", "path", "line", "provider", "cloud", "region", "instance_type",
               "gpu_model", "gpu_count", "capacity", "count", "hourly_usd", "hours",
               "monthly_usd"]
    columns += [c for c in ("monthly_min_usd", "monthly_max_usd") if any(c in r for r in rows)]
    columns += ["saving_usd", "group", "basis", "unpriced_reason"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([c if c != "group" else f"tag_{data['totals']['group_by']}"
                     for c in columns])
    for r in rows:
        writer.writerow([_cell(r.get(c)) for c in columns])
    return out.getvalue()
