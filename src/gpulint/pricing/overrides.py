"""Negotiated, reserved and savings-plan prices, applied on top of the catalog's list prices.

The file is YAML (docs/cost.md). Each rule targets a provider, optionally narrowed to a family
(``p4d`` matches ``p4d.24xlarge`` but not ``p4de.24xlarge``) or an instance type (exact, or a
glob such as ``Standard_NC*A100*``), for one capacity type, and sets either a percentage
discount or a fixed hourly rate. The most specific rule wins; at equal specificity the first
listed wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from gpulint import globs

PROVIDERS = ("aws", "gcp", "azure")
CAPACITIES = ("on-demand", "spot", "any")
_KEYS = {"provider", "family", "instance_type", "capacity", "discount_percent", "hourly_usd",
         "note"}
_SEPARATORS = ".-_"


class OverridesError(ValueError):
    """A problem in an overrides file, with the file and line in the message."""


@dataclass(frozen=True)
class Override:
    provider: str
    family: str | None
    instance_type: str | None
    capacity: str
    discount_percent: float | None
    hourly_usd: float | None
    note: str | None
    line: int

    def matches(self, provider: str, instance_type: str, capacity: str) -> bool:
        if provider != self.provider or self.capacity not in (capacity, "any"):
            return False
        name = instance_type.lower() if provider == "azure" else instance_type
        if self.instance_type is not None:
            pattern = self.instance_type.lower() if provider == "azure" else self.instance_type
            return globs.match(pattern, name)
        if self.family is not None:
            fam = self.family.lower() if provider == "azure" else self.family
            return name == fam or (name.startswith(fam) and (
                fam[-1] in _SEPARATORS or name[len(fam)] in _SEPARATORS))
        return True

    def specificity(self) -> tuple[int, int]:
        """(target, capacity): exact type 4, type glob 3, family 2 (+ length), provider 1."""
        if self.instance_type is not None:
            target = 3 if globs.is_pattern(self.instance_type) else 4
        elif self.family is not None:
            target = 2
        else:
            target = 1
        return (target * 1000 + len(self.family or ""), 0 if self.capacity == "any" else 1)

    def apply(self, list_price: float) -> float:
        if self.hourly_usd is not None:
            return self.hourly_usd
        assert self.discount_percent is not None
        return round(list_price * (1 - self.discount_percent / 100), 6)

    def describe(self, origin: str) -> str:
        target = self.instance_type or (f"family {self.family}" if self.family else "all types")
        how = f"${self.hourly_usd:g}/h" if self.hourly_usd is not None else \
            f"-{self.discount_percent:g}%"
        note = f", {self.note}" if self.note else ""
        return f"override {origin}:{self.line} ({self.provider} {target} {self.capacity} {how}{note})"


@dataclass(frozen=True)
class PricingOverrides:
    origin: str  # the file, as given
    rules: tuple[Override, ...]

    def find(self, provider: str, instance_type: str, capacity: str) -> Override | None:
        best: Override | None = None
        for rule in self.rules:
            if rule.matches(provider, instance_type, capacity) and (
                    best is None or rule.specificity() > best.specificity()):
                best = rule
        return best


def load(path: str) -> PricingOverrides:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as e:
        raise OverridesError(f"{path}: cannot read pricing overrides: {e.strerror or e}") from None
    return parse(text, path)


def parse(text: str, origin: str) -> PricingOverrides:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{origin}:{mark.line + 1}" if mark is not None else origin
        raise OverridesError(f"{where}: invalid YAML: {getattr(e, 'problem', e)}") from None
    if data is None:
        return PricingOverrides(origin, ())
    if not isinstance(data, dict) or not isinstance(data.get("overrides"), list):
        raise OverridesError(f"{origin}:1: expected a mapping with an 'overrides' list")
    unknown_top = set(data) - {"overrides", "version"}
    if unknown_top:
        raise OverridesError(f"{origin}:1: unknown key(s): {', '.join(sorted(map(str, unknown_top)))}")
    items_node = next(v for k, v in root.value if k.value == "overrides")
    rules = tuple(_rule(item, node.start_mark.line + 1, origin)
                  for item, node in zip(data["overrides"], items_node.value))
    return PricingOverrides(origin, rules)


def _rule(item: Any, line: int, origin: str) -> Override:
    def fail(msg: str) -> OverridesError:
        return OverridesError(f"{origin}:{line}: {msg}")

    if not isinstance(item, dict):
        raise fail("each override must be a mapping")
    unknown = set(item) - _KEYS
    if unknown:
        raise fail(f"unknown key(s): {', '.join(sorted(map(str, unknown)))}; "
                   f"expected: {', '.join(sorted(_KEYS))}")
    provider = str(item.get("provider", "")).lower()
    if provider not in PROVIDERS:
        raise fail(f"provider must be one of {', '.join(PROVIDERS)}, got {item.get('provider')!r}")
    if "family" in item and "instance_type" in item:
        raise fail("give either family or instance_type, not both")
    capacity = str(item.get("capacity", "on-demand")).lower()
    if capacity not in CAPACITIES:
        raise fail(f"capacity must be one of {', '.join(CAPACITIES)}, got {item['capacity']!r}")
    has_discount, has_rate = "discount_percent" in item, "hourly_usd" in item
    if has_discount == has_rate:
        raise fail("set exactly one of discount_percent or hourly_usd")
    key = "discount_percent" if has_discount else "hourly_usd"
    value = item[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(f"{key} must be a number, got {value!r}")
    if has_discount and not 0 <= value < 100:
        raise fail(f"discount_percent must be at least 0 and below 100, got {value:g}")
    if has_rate and value < 0:
        raise fail(f"hourly_usd must not be negative, got {value:g}")
    for name in ("family", "instance_type"):
        if name in item and (not isinstance(item[name], str) or not item[name]):
            raise fail(f"{name} must be a non-empty string")
    return Override(provider=provider, family=item.get("family"),
                    instance_type=item.get("instance_type"), capacity=capacity,
                    discount_percent=float(value) if has_discount else None,
                    hourly_usd=float(value) if has_rate else None,
                    note=str(item["note"]) if item.get("note") is not None else None, line=line)
