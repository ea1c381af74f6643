"""Plan JSON resource changes → GPU resources, with the cost before the change."""

from __future__ import annotations

from gpulint.config.cost import CostOptions
from gpulint.fact_types import Resource
from gpulint.facts.terraform import build_all
from gpulint.load.plan import PlanInstance
from gpulint.pricing import price as cost
from gpulint.terraform.values import ValueView


def build_change(inst: PlanInstance, options: CostOptions,
                 set_aside: list[Resource] | None = None) -> list[Resource]:
    """The resources after the change; each records the plan's actions and, for an update or
    replacement, its monthly cost before (same builder, fed the `before` values). With
    `set_aside`, pools of unknown machine type go there, as for the code (build_all)."""
    after = build_all(_with_tags_all(inst, inst.view), set_aside)
    before: dict[str, Resource] = {}
    if inst.before is not None:
        for res in build_all(_with_tags_all(inst, inst.before)):
            cost.price_resource(res, options.hours, options)
            before[res.address] = res
    for res in after:
        res.facts["change.actions"] = list(inst.actions)
        old = before.get(res.address)
        if old is not None:
            res.facts["cost.monthly_before"] = old.facts.get("cost.monthly")
    return after


def _with_tags_all(inst: PlanInstance, view: ValueView) -> PlanInstance:
    """The instance reading its tags from `tags_all` when the plan has it: the AWS provider
    merges its default_tags there, the exact set, even when they came from expressions the
    plan does not record."""
    tags_all = view.values.get("tags_all")
    if not isinstance(tags_all, dict):
        return inst if view is inst.view else inst.with_view(view)
    return inst.with_view(ValueView({**view.values, "tags": tags_all}, view.line, view.unknown,
                                    view.config, view.unknown_reason))
