"""The data that flows through the pipeline: files, resources, findings, diagnostics."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

# model.py is the ground floor: it imports nothing of gpulint (tests/test_architecture.py).


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """The one severity order: higher is more severe (info 0, warning 1, error 2)."""
        return _SEVERITY_RANK[self]

    @classmethod
    def by_rank(cls) -> list[Severity]:
        """Most severe first."""
        return sorted(cls, key=lambda s: -s.rank)


_SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}
# --fail-on: a severity, or "never"; findings at or above it fail the run.
NEVER = "never"
DEFAULT_FAIL_ON = Severity.WARNING.value
FAIL_ON_CHOICES: tuple[str, ...] = (*(s.value for s in Severity.by_rank()), NEVER)

# Workload classes a resource may be given (tags, labels, configuration, names).
WORKLOADS = frozenset({"training", "inference", "notebook", "batch", "dev"})


class Unknown:
    """A value that could not be resolved. It carries the reason so the report can say why."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"Unknown({self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unknown) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash(("unknown", self.reason))


@dataclass(frozen=True)
class SourceFile:
    path: str  # as shown to the user
    kind: str  # terraform | terraform-json | kubernetes | plan-json


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int | None
    message: str
    severity: str = "error"
    # What wrote it, for a later stage that replaces that work (a chart's default render when a
    # Terraform release renders it with its own values): filtered by origin, never by text.
    # Not part of any report.
    origin: str = ""


# Diagnostic origins
CHART_RENDER = "chart-render"  # a chart rendered (or not) with its default values
VALUES_READ = "values-read"  # workloads read from a values file that was not rendered


@dataclass(frozen=True)
class Alternative:
    """A cheaper way to run a resource, priced on the same basis as the resource."""

    offer: str  # instance type, or what changes ("1 GPU per pod")
    monthly: float | None  # what the alternative costs a month (None: not priceable)
    current_monthly: float | None  # what the resource costs on the same basis
    saving_fraction: float  # share of current_monthly saved
    detail: str  # the phrase messages show

    def __str__(self) -> str:
        return self.detail



def _no_facts() -> Any:
    return {}


# The type of Resource.facts: gpulint.fact_types.Facts, the TypedDict the fact registry
# generates, so mypy checks literal fact names and value types. Code names
# `gpulint.fact_types.Resource` (this class over that TypedDict); this module cannot import it.
F = TypeVar("F", bound=Mapping[str, object])


@dataclass(eq=False)  # one resource is one thing: compared and hashed by identity
class Resource(Generic[F]):
    """One GPU-capable resource (Terraform resource instance or Kubernetes object).

    Only what every stage and the report share. What one stage hands to a later one (the
    declared model, the price, a pod's node selection…) lives in a table that stage owns,
    keyed by the resource (weakly, so it goes with it)."""

    address: str
    type: str
    path: str
    line: int
    source: str  # terraform | kubernetes
    # The registered facts; a name known only at run time goes through `facts_by_name`.
    facts: F = field(default_factory=_no_facts)
    unknowns: list[tuple[str, str]] = field(default_factory=list)  # (fact, reason)
    suppressions: frozenset[str] = frozenset()

    @property
    def facts_by_name(self) -> dict[str, Any]:
        """The same facts, for names known only at run time (a rule's, a loop's): mypy cannot
        check these; the registry tests check every name and value a scan writes."""
        return cast("dict[str, Any]", self.facts)

    def set_fact(self, name: str, value: Any) -> None:
        self.facts_by_name[name] = value
        if isinstance(value, Unknown):
            self.unknowns.append((name, value.reason))


@dataclass(frozen=True)
class Finding:
    rule: str
    severity: Severity
    path: str
    line: int
    address: str
    message: str
    remediation: str
    monthly_saving_usd: float | None = None
    saving_basis: str | None = None
    short_message: str = ""  # address and the rule's short text; the message when it has none

    def sort_key(self) -> tuple[str, int, str, str]:
        return (self.path, self.line, self.address, self.rule)


@dataclass(frozen=True)
class NotEvaluated:
    rule: str
    path: str
    line: int
    address: str
    reason: str
