"""The monthly saving of each finding, computed after evaluation from what its rule compares
with (`cost.compare_with`): the resource as it is against the resource with one thing changed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpulint.config.cost import DEFAULT_HOURS
from gpulint.fact_types import Resource
from gpulint.model import Alternative, Finding
from gpulint.pricing.price import priced, spot_fraction
from gpulint.ruleset import Rule
from gpulint.units import usd_rate


def attach_savings(findings: Sequence[Finding], resources: Iterable[Resource],
                   rules: Iterable[Rule]) -> list[Finding]:
    """The findings with monthly_saving_usd and saving_basis filled in."""
    by_place = {(r.path, r.line, r.address): r for r in resources}
    compare = {r.id: r.cost.get("compare_with", {}) for r in rules}
    out = []
    for finding in findings:
        res = by_place.get((finding.path, finding.line, finding.address))
        if res is None:
            out.append(finding)
            continue
        saving, basis = finding_saving(res, compare.get(finding.rule, {}))
        out.append(dataclasses.replace(finding, monthly_saving_usd=saving, saving_basis=basis))
    return out


def finding_saving(res: Resource, compare_with: Mapping[str, Any],
                   hours: float = DEFAULT_HOURS) -> tuple[float | None, str | None]:
    """Monthly saving of fixing a finding: current cost minus the cost with one thing changed."""
    monthly = res.facts.get("cost.monthly")
    if not isinstance(monthly, (int, float)):
        # A finding on a resource without a price: the saving is not known, and says why.
        why = getattr(monthly, "reason", None)
        return None, (f"not known: the resource is not priced ({why})" if why and compare_with
                      else None)
    hours = res.facts.get("cost.hours", hours)
    if "capacity" in compare_with:
        return _spot_saving(res, hours)
    if "hours_per_month" in compare_with:
        used = float(compare_with["hours_per_month"])
        if used >= hours:
            return 0.0, None
        return round(monthly * (1 - used / hours), 2), f"used {used:g} h of {hours:g} h a month"
    if "alternative" in compare_with:
        return _alternative_saving(res.facts.get(f"alternative.{compare_with['alternative']}"),
                                   monthly)
    if "cost" in compare_with:
        return float(monthly), "the whole monthly cost"
    return None, None


def _spot_saving(res: Resource, hours: float) -> tuple[float | None, str | None]:
    price = priced(res)
    count = res.facts.get("cost.count")
    if price is None or price.spot is None or price.ondemand is None:
        if isinstance(res.facts.get("sagemaker.use"), str):  # priced at a SageMaker rate
            return None, "SageMaker publishes no per-type managed spot price"
        return None, "no spot price in the catalog"
    if not isinstance(count, (int, float)):  # never: pricing sets a price with its count
        return None, None
    frac = spot_fraction(res)
    on_demand_share = 1 - frac if isinstance(frac, float) else 1.0
    saving = (price.ondemand - price.spot) * count * hours * on_demand_share
    share = f" on the {on_demand_share:.0%} on-demand share" if on_demand_share < 1 else ""
    notes = "; ".join(n for n in (price.spot_override, price.ondemand_override) if n)
    return round(saving, 2), (f"spot {usd_rate(price.spot)}/h vs on-demand "
                              f"{usd_rate(price.ondemand)}/h{share} × {count:g} × {hours:g} h"
                              + (f" [{notes}]" if notes else ""))


def _alternative_saving(alt: Any, monthly: float) -> tuple[float | None, str | None]:
    """An Alternative's current_monthly is the resource's cost on the alternative's price basis
    (a bare pod's GPU-hours, say), which may differ from cost.monthly."""
    if not isinstance(alt, Alternative) or alt.monthly is None:
        return None, None
    current = alt.current_monthly if alt.current_monthly is not None else monthly
    basis = f"{alt.offer} at ${alt.monthly:,.2f}/month"
    if current != monthly:
        basis += f" vs ${current:,.2f}/month on the same price basis"
    return round(current - alt.monthly, 2), basis
