"""The budget verdict of a diff (`gpulint diff --max-increase`, `thresholds`), and `--strict`.

A budget is a promise about money, so a GPU resource the change adds or alters without a price
cannot pass it: its cost is not known, and $0 would be a guess. docs/cost.md#budgets.
"""

from __future__ import annotations

from typing import Any

BASES = ("expected", "max")


def _unpriced(d: dict[str, Any], head: dict[str, Any]) -> list[dict[str, Any]]:
    """Added, changed or renamed GPU resources whose head figure is not priced, with why."""
    reasons = {(r["path"], r["address"]): "; ".join(
        u["reason"] for u in r.get("unknowns", []) if u["fact"].startswith("cost.")) or
        "not priced" for r in head.get("resources", [])}
    return [{"address": e["address"], "path": e["path"], "line": e["line"],
             "reason": reasons.get((e["path"], e["address"]), "not priced")}
            for e in d["resources"]
            if e["change"] in ("added", "changed", "renamed") and e["after_usd"] is None]


def verdict(d: dict[str, Any], head: dict[str, Any], limit: float | None, basis: str = "expected",
            allow_unpriced: bool = False, strict: bool = False) -> dict[str, Any]:
    """Set the budget fields on the diff `d` and return the `budget` mapping:
    `status` is `over`, `unpriced` (a change without a price fails it), `within`, or None
    without a budget; `failed` also covers `--strict` (any unpriced GPU resource in the head)."""
    delta = d["delta_max_usd"] if basis == "max" else d["delta_usd"]
    unpriced = _unpriced(d, head)
    head_unpriced = int(head.get("summary", {}).get("unpriced_resources", 0))
    status: str | None = None
    reasons: list[str] = []
    if limit is not None:
        if delta > limit:
            status = "over"
            reasons.append(f"the change adds {_usd(delta)}/month, more than the "
                           f"{_usd(limit)} allowed")
        if unpriced and not allow_unpriced:
            status = status or "unpriced"
            reasons += [f"{u['address']} ({u['path']}:{u['line']}) is not priced: {u['reason']}"
                        for u in unpriced]
        status = status or "within"
    strict_reason = (f"--strict: {head_unpriced} GPU resource(s) after the change are not "
                     "priced") if strict and head_unpriced else None
    budget = {"limit_usd": limit, "basis": basis, "delta_usd": delta, "status": status,
              "unpriced": unpriced, "allow_unpriced": allow_unpriced,
              "failed": status in ("over", "unpriced") or bool(strict and head_unpriced),
              "reasons": reasons, "strict": strict_reason}
    d["budget"] = budget
    d["max_increase_usd"] = limit
    d["max_increase_exceeded"] = status in ("over", "unpriced")
    return budget


def _usd(v: float) -> str:
    return f"${v:,.2f}"


def headline(budget: dict[str, Any] | None) -> str | None:
    """One line for every format: the verdict and why; None without a budget or --strict."""
    if not budget:
        return None
    status, limit = budget.get("status"), budget.get("limit_usd")
    what = "worst case" if budget.get("basis") == "max" else "expected"
    if status == "over":
        text = f"Over budget ({what}): " + "; ".join(budget["reasons"]) + ". The check fails."
    elif status == "unpriced":
        text = ("Budget check fails, not priced: " + "; ".join(budget["reasons"])
                + " (--allow-unpriced accepts it).")
    elif status == "within":
        text = f"Within budget ({what}): at most {_usd(limit or 0)}/month more is allowed."
        if budget.get("unpriced"):
            text += (f" {len(budget['unpriced'])} changed GPU resource(s) not priced, "
                     "allowed by --allow-unpriced.")
    else:
        text = ""
    if budget.get("strict"):
        text += (" " if text else "") + f"Fails: {budget['strict']}."
    return text or None
