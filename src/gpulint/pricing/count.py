"""How many nodes or replicas a resource is priced for, over which range, and for how many hours
a month: the expected (declared desired/initial) count, else the minimum; the bounds of an
autoscaling range; the hours by address, workload class or the run's default. docs/cost.md.
"""

from __future__ import annotations

from typing import Any

from gpulint import globs
from gpulint.config.cost import DEFAULT_HOURS, CostOptions
from gpulint.fact_types import Resource
from gpulint.model import Unknown


def expected_count(res: Resource) -> Any:
    """Nodes or replicas expected to run before zones: the declared desired/initial/current
    count, within the pool's bounds, else its minimum."""
    f = res.facts
    lo, hi, desired = f.get("replicas.min"), f.get("replicas.max"), f.get("replicas.desired")
    if isinstance(lo, int) and isinstance(hi, int) and lo != hi:
        # An autoscaler keeps the size inside its bounds whatever the declared count says.
        return min(max(desired, lo), hi) if isinstance(desired, int) else lo
    return desired if desired is not None else 1


def priced_count(res: Resource) -> tuple[Any, str]:
    """How many nodes/replicas the expected monthly figure is for, and why that many."""
    f = res.facts
    if isinstance(f.get("count"), Unknown):  # count/for_each could not be expanded
        return f["count"], ""
    lo, hi = f.get("replicas.min"), f.get("replicas.max")
    zones = f.get("zones", 1)
    count = expected_count(res)
    note = ""
    if isinstance(lo, int) and isinstance(hi, int) and lo != hi:
        unit = "replicas" if res.source == "kubernetes" else "nodes"
        which = "the minimum" if count == lo else "the desired count"
        note = f"autoscaling {lo}–{hi} {unit}, priced at {which}"
    if isinstance(count, Unknown):
        return count, ""
    if zones != 1:
        note = (note + "; " if note else "") + f"× {zones} zones"
        count = count * zones
    return count, note


def resource_hours(res: Resource, opts: CostOptions) -> tuple[float, str]:
    """Hours a month for this resource and where the figure comes from: address, then
    workload class, then the run-wide default."""
    if res.address in opts.hours_by_address:
        return float(opts.hours_by_address[res.address]), f"hours for {res.address}"
    for pattern, hours in opts.hours_by_address.items():
        if globs.match(pattern, res.address):
            return float(hours), f"hours for {pattern}"
    workload = res.facts.get("workload")
    if isinstance(workload, str) and workload in opts.hours_by_workload:
        hours, how = float(opts.hours_by_workload[workload]), f"hours for workload {workload}"
    else:
        hours, how = opts.hours, "default hours" if opts.hours == DEFAULT_HOURS else "hours option"
    run = res.facts.get("cost.run_hours")
    if isinstance(run, (int, float)) and not isinstance(run, bool) and 0 <= run < hours:
        # A job that stops by itself: one run a month, at most as long as its bound allows.
        return float(run), f"one run a month, at most {run:g} h: " + str(
            res.facts.get("cost.run_hours_source", "its run-time limit"))
    return hours, how


def count_bounds(res: Resource) -> tuple[int, int] | None:
    """Nodes at an autoscaling pool's minimum and maximum, zones included; None when fixed."""
    lo, hi = res.facts.get("replicas.min"), res.facts.get("replicas.max")
    if not isinstance(lo, int) or not isinstance(hi, int) or lo == hi \
            or isinstance(res.facts.get("count"), Unknown):
        return None
    zones = res.facts.get("zones", 1)
    return lo * zones, hi * zones
