"""An hourly price with its basis, and pricing overrides applied to it (shared by the resource
pricer and the node-shape search)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gpulint.config.overrides import PricingOverrides
from gpulint.units import usd_rate


@dataclass(frozen=True)
class HourlyPrice:
    ondemand: float | None
    spot: float | None
    basis: str  # which catalog rows, e.g. "aws p4d.24xlarge us-east-1"
    ondemand_override: str | None = None  # description of the override applied, if any
    spot_override: str | None = None

    def for_capacity(self, capacity: str) -> float | None:
        return self.spot if capacity == "spot" else self.ondemand

    def override_for(self, capacity: str) -> str | None:
        return self.spot_override if capacity == "spot" else self.ondemand_override

    def scaled(self, factor: float, basis: str) -> HourlyPrice:
        def part(v: float | None) -> float | None:
            return None if v is None else v * factor

        return replace(self, ondemand=part(self.ondemand), spot=part(self.spot), basis=basis)


def apply_overrides(price: HourlyPrice, provider: str, instance_type: str,
                    overrides: PricingOverrides | None) -> HourlyPrice:
    """List prices replaced by the most specific matching override, per capacity type."""
    if overrides is None:
        return price
    changes: dict[str, Any] = {}
    for capacity, attr in (("on-demand", "ondemand"), ("spot", "spot")):
        rule = overrides.find(provider, instance_type, capacity)
        listed = getattr(price, attr)
        if rule is None or listed is None:
            continue
        changes[attr] = rule.apply(listed)
        changes[f"{attr}_override"] = (f"{rule.describe(overrides.origin)}: list "
                                       f"{usd_rate(listed)}/h")
    return replace(price, **changes) if changes else price


def estimate_note(provider: str, name: str, region: str) -> str:
    """' (estimate: the X price; …)' when the catalog's consistency check replaced this row by
    the nearest region's price, ' (derived: host + N× GPU, …)' when by the sum of its parts,
    else ''."""
    from gpulint.pricing import adjustments

    donor = adjustments.replaced_row(provider, name, region)
    if not donor:
        return ""
    failed = f"the source's {region} row failed the catalog's consistency check"
    basis = adjustments.replaced_basis(provider, name, region) or ""
    if basis.startswith("derived"):
        gpus = "its own" if donor == region else f"the {donor}"
        return f" ({basis}, the GPUs at {gpus} price; {failed})"
    return f" (estimate: the {donor} price; {failed})"
