"""Negotiated, reserved and savings-plan prices, applied on top of the catalog's list prices.

The file is YAML (docs/cost.md). Each rule targets a provider, optionally narrowed to a family
(``p4d`` matches ``p4d.24xlarge`` but not ``p4de.24xlarge``) or an instance type (exact, or a
glob such as ``Standard_NC*A100*``), for one capacity type, and sets either a percentage
discount or a fixed hourly rate. The most specific rule wins; at equal specificity the first
listed wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from gpulint import globs, providers

PROVIDERS = providers.NAMES
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
    line: int | None  # where it is written, when known

    def matches(self, provider: str, instance_type: str, capacity: str) -> bool:
        if provider != self.provider or self.capacity not in (capacity, "any"):
            return False
        cloud = providers.get(provider)
        if cloud is None:
            return False
        name = cloud.instance_name(instance_type)
        if self.instance_type is not None:
            return globs.match(cloud.instance_name(self.instance_type), name)
        if self.family is not None:
            fam = cloud.instance_name(self.family)
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
        what = f"{self.provider} {target} {self.capacity} {how}{note}"
        return f"override {_at(origin, self.line)} ({what})"


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
    from gpulint.files.reader import read_file_text

    try:
        text = read_file_text(path)
    except OSError as e:
        raise OverridesError(f"{path}: cannot read pricing overrides: {e.strerror or e}") from None
    return parse(text, path)


def parse(text: str, origin: str) -> PricingOverrides:
    """An overrides file's text; each override cites its line in the file."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{origin}:{mark.line + 1}" if mark is not None else origin
        raise OverridesError(f"{where}: invalid YAML: {getattr(e, 'problem', e)}") from None
    if data is None:
        return PricingOverrides(origin, ())
    lines: list[int | None] = []
    if isinstance(data, dict) and isinstance(data.get("overrides"), list) and root is not None:
        items_node = next(v for k, v in root.value if k.value == "overrides")
        lines = [node.start_mark.line + 1 for node in items_node.value]
    return from_mapping(data, origin, 1, lines)


def from_mapping(data: Any, origin: str, line: int | None = None,
                 item_lines: Sequence[int | None] = ()) -> PricingOverrides:
    """Overrides from an already read mapping (`{overrides: [...]}`): the file form and the
    configuration's inline form. ``line`` is where the mapping starts and ``item_lines`` where
    each override does, when known (YAML); messages and price bases cite them."""
    if not isinstance(data, dict) or not isinstance(data.get("overrides"), list):
        raise OverridesError(f"{_at(origin, line)}: expected a mapping with an 'overrides' list")
    unknown_top = set(data) - {"overrides", "version"}
    if unknown_top:
        raise OverridesError(f"{_at(origin, line)}: unknown key(s): "
                             f"{', '.join(sorted(map(str, unknown_top)))}")
    items = data["overrides"]
    lines = [*item_lines, *[None] * (len(items) - len(item_lines))]
    rules, problems = [], []
    for i, (item, at) in enumerate(zip(items, lines, strict=True)):
        try:  # every override's problems at once, not the first file-wide
            rules.append(_rule(item, at, origin, i))
        except OverridesError as e:
            problems.append(str(e))
    if problems:
        raise OverridesError("\n".join(problems))
    return PricingOverrides(origin, tuple(rules))


def _at(origin: str, line: int | None) -> str:
    return f"{origin}:{line}" if line is not None else origin


def _rule(item: Any, line: int | None, origin: str, index: int = 0) -> Override:
    """One override; OverridesError lists all its problems, one line each with the file, the
    override's line and the key path (`overrides[2].capacity`)."""
    problems: list[str] = []

    def fail(msg: str, key: str = "") -> None:
        path = f"overrides[{index}]" + (f".{key}" if key else "")
        problems.append(f"{_at(origin, line)}: {path}: {msg}")

    if not isinstance(item, dict):
        fail("each override must be a mapping")
        raise OverridesError("\n".join(problems))
    unknown = set(item) - _KEYS
    if unknown:
        fail(f"unknown key(s): {', '.join(sorted(map(str, unknown)))}; "
             f"expected: {', '.join(sorted(_KEYS))}")
    provider = str(item.get("provider", "")).lower()
    if provider not in PROVIDERS:
        fail(f"must be one of {providers.listing()}, got {item.get('provider')!r}", "provider")
    if "family" in item and "instance_type" in item:
        fail("give either family or instance_type, not both")
    capacity = str(item.get("capacity", "on-demand")).lower()
    if capacity not in CAPACITIES:
        fail(f"must be one of {', '.join(CAPACITIES)}, got {item['capacity']!r}", "capacity")
    has_discount, has_rate = "discount_percent" in item, "hourly_usd" in item
    key = "discount_percent" if has_discount else "hourly_usd"
    value = item.get(key)
    if has_discount == has_rate:
        fail("set exactly one of discount_percent or hourly_usd")
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        fail(f"must be a number, got {value!r}", key)
    elif has_discount and not 0 <= value < 100:
        fail(f"must be at least 0 and below 100, got {value:g}", key)
    elif has_rate and value < 0:
        fail(f"must not be negative, got {value:g}", key)
    for name in ("family", "instance_type"):
        if name in item and (not isinstance(item[name], str) or not item[name]):
            fail("must be a non-empty string", name)
    if problems:
        raise OverridesError("\n".join(problems))
    assert isinstance(value, (int, float))
    return Override(provider=provider, family=item.get("family"),
                    instance_type=item.get("instance_type"), capacity=capacity,
                    discount_percent=float(value) if has_discount else None,
                    hourly_usd=float(value) if has_rate else None,
                    note=str(item["note"]) if item.get("note") is not None else None, line=line)
