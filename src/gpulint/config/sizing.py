"""The right-sizing thresholds, read from the rules' options so configuration can change them.

Each knob belongs to the rule whose findings it shapes; docs/sizing.md ("Rule options") gives
every default with its reasoning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from gpulint.pricing import price as cost
from gpulint.pricing.overrides import PricingOverrides
from gpulint.sizing import estimate as sizing

DEFAULT_MIN_RELATIVE_THROUGHPUT = 0.9


@dataclass(frozen=True)
class SizingOptions:
    headroom: float = sizing.DEFAULT_HEADROOM  # share of GPU memory an alternative may fill
    fit_headroom: float = sizing.DEFAULT_HEADROOM  # share the model must start within
    concurrency: int | None = None  # typical-load sequences (None: sizing's default)
    context: int | None = None  # tokens when the manifest declares none (None: sizing's)
    min_relative_throughput: float = DEFAULT_MIN_RELATIVE_THROUGHPUT
    hours: float = cost.DEFAULT_HOURS
    # Alternatives are priced like the resource: the same negotiated prices, and for Kubernetes
    # nodes the same configured default region (cost.CostOptions).
    overrides: PricingOverrides | None = None
    default_regions: Mapping[str, str] = field(default_factory=dict)


# rule id -> rule option -> (SizingOptions field, type, lowest, highest)
RULE_KNOBS: dict[str, dict[str, tuple[str, type, float, float]]] = {
    "gpu-model-does-not-fit": {"headroom": ("fit_headroom", float, 0.05, 1.0)},
    "gpu-oversized-for-model": {"headroom": ("headroom", float, 0.05, 1.0),
                                "concurrency": ("concurrency", int, 1, 100_000),
                                "context": ("context", int, 1, 100_000_000)},
    "gpu-previous-generation": {"min_relative_throughput": ("min_relative_throughput", float,
                                                            0.0, 100.0)},
}


def _usable(value: Any, kind: type, lo: float, hi: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and lo <= value <= hi and (kind is float or float(value).is_integer())


def options_from_rules(rules: Iterable[Any], rule_options: dict[str, dict[str, Any]],
                       hours: float = cost.DEFAULT_HOURS,
                       overrides: PricingOverrides | None = None,
                       default_regions: Mapping[str, str] | None = None
                       ) -> tuple[SizingOptions, list[str]]:
    """Sizing knobs from configured rule options, else the rule files' defaults. Returns the
    options and one problem per unusable value (that knob falls back to the next source)."""
    defaults = {r.id: dict(r.options or {}) for r in rules}
    values: dict[str, Any] = {"hours": hours, "overrides": overrides,
                              "default_regions": dict(default_regions or {})}
    problems: list[str] = []
    for rule_id, knobs in RULE_KNOBS.items():
        configured = (rule_options or {}).get(rule_id, {})
        for option, (name, kind, lo, hi) in knobs.items():
            # None (or absent) everywhere keeps sizing's own default.
            for value in (configured.get(option), defaults.get(rule_id, {}).get(option)):
                if value is None:
                    continue
                if _usable(value, kind, lo, hi):
                    values[name] = kind(value)
                    break
                problems.append(f"rule option {rule_id}.{option} = {value!r} must be "
                                f"{'a whole number' if kind is int else 'a number'} from {lo:g} "
                                f"to {hi:g}; using the default")
    known = {f.name for f in fields(SizingOptions)}
    return SizingOptions(**{k: v for k, v in values.items() if k in known}), problems
