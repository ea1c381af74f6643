"""Plan JSON resource changes → GPU resources, with the cost before the change."""

from __future__ import annotations

from gpulint.pricing import price as cost
from gpulint.facts.terraform import build_all
from gpulint.model import Resource
from gpulint.load.plan import PlanInstance


def build_change(inst: PlanInstance, options: cost.CostOptions) -> list[Resource]:
    """The resources after the change; each records the plan's actions and, for an update or
    replacement, its monthly cost before (same builder, fed the `before` values)."""
    after = build_all(inst)
    before: dict[str, Resource] = {}
    if inst.before is not None:
        for res in build_all(inst.with_view(inst.before)):
            cost.price_resource(res, options.hours, options)
            before[res.address] = res
    for res in after:
        res.facts["change.actions"] = list(inst.actions)
        old = before.get(res.address)
        if old is not None:
            res.facts["cost.monthly_before"] = old.facts.get("cost.monthly")
    return after
