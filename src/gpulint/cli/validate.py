"""Checks of what the user typed against what a scan found: a region no catalog row has leaves
its resources unpriced ($0 in the totals), so it must not pass quietly."""

from __future__ import annotations

from collections.abc import Mapping

from gpulint import providers
from gpulint.cli.common import fail_usage
from gpulint.fact_types import Resource
from gpulint.model import Diagnostic, Unknown


def check_resource_regions(resources: list[Resource],
                           variables: Mapping[str, str]) -> list[Diagnostic]:
    """Unpriced GPU resources whose region the catalog does not know. A region that is the
    value of a --var is a usage error (exit 2); one written in the code is a warning on the
    resource's line, one per region and file."""
    from gpulint.pricing import regions

    by_value = {v: k for k, v in variables.items()}
    typed: list[str] = []
    out: dict[tuple[str, str], Diagnostic] = {}
    for res in resources:
        provider, region = res.facts.get("provider"), res.facts.get("region")
        if (not isinstance(provider, str) or providers.get(provider) is None
                or not isinstance(region, str) or isinstance(region, Unknown)
                or not isinstance(res.facts.get("cost.monthly"), (type(None), Unknown))):
            continue
        problem = regions.problem(provider, region)
        if problem is None:
            continue
        if region in by_value:
            typed.append(f"--var {by_value[region]}={region}: {problem}")
        elif (res.path, region) not in out:
            out[(res.path, region)] = Diagnostic(
                res.path, res.line, f"{res.address}: {problem}; not priced", "warning")
    if typed:
        fail_usage("\n".join(sorted(set(typed))))
    return list(out.values())
