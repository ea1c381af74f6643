"""Pricing settings a scan carries: hours per month (by workload and address too), negotiated
prices, and the region priced per cloud when the code names none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gpulint.config.overrides import PricingOverrides

DEFAULT_HOURS = 730.0


@dataclass(frozen=True)
class CostOptions:
    hours: float = DEFAULT_HOURS
    hours_by_workload: Mapping[str, float] = field(default_factory=dict)
    hours_by_address: Mapping[str, float] = field(default_factory=dict)  # glob patterns allowed
    overrides: PricingOverrides | None = None
    default_regions: Mapping[str, str] = field(default_factory=dict)  # provider -> region
