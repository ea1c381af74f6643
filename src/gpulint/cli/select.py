"""--select and --ignore: which rules a run reports, by rule id or id prefix as ruff's rule
selectors (a prefix selects every rule whose id starts with it; `ALL` every rule). Every rule still
runs, so suppressions of an ignored rule are not reported as unknown or unused."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gpulint.cli.common import fail_usage

if TYPE_CHECKING:
    from gpulint.pipeline import ScanResult
    from gpulint.ruleset import Rule

F = TypeVar("F", bound=Callable[..., Any])


def selection_flags(func: F) -> F:
    """--select and --ignore (repeatable, comma-separated)."""
    for option in reversed([
        click.option("--select", "select", multiple=True, metavar="RULES",
                     help="Report only these rules: ids or id prefixes, comma-separated "
                          "(repeatable; ALL for every rule)."),
        click.option("--ignore", "ignore", multiple=True, metavar="RULES",
                     help="Do not report these rules: ids or id prefixes, comma-separated "
                          "(repeatable)."),
    ]):
        func = option(func)
    return func


def _selectors(values: Iterable[str]) -> list[str]:
    return [s.strip() for v in values for s in v.split(",") if s.strip()]


def _matches(selector: str, rule_id: str) -> bool:
    return selector == "ALL" or rule_id.startswith(selector)


def chosen(rule_ids: list[str], select: Iterable[str], ignore: Iterable[str]) -> set[str]:
    """The rule ids a run reports; a selector that matches no rule is a usage error with a
    did-you-mean (a typo must not silently report nothing, or everything)."""
    wanted, unwanted = _selectors(select), _selectors(ignore)
    problems = []
    for flag, selectors in (("--select", wanted), ("--ignore", unwanted)):
        for s in selectors:
            if not any(_matches(s, r) for r in rule_ids):
                near = difflib.get_close_matches(s, rule_ids, n=1)
                problems.append(f"{flag} {s}: no rule id is or starts with {s!r}"
                                + (f" (did you mean {near[0]!r}?)" if near else ""))
    if problems:
        fail_usage("\n".join(problems))
    ids = {r for r in rule_ids if not wanted or any(_matches(s, r) for s in wanted)}
    return {r for r in ids if not any(_matches(s, r) for s in unwanted)}


def apply(result: ScanResult, rules: list[Rule], select: Iterable[str],
          ignore: Iterable[str]) -> list[Rule]:
    """Keep the findings and unevaluated items of the chosen rules; the chosen rules."""
    keep = chosen([r.id for r in rules], select, ignore)
    result.findings = [f for f in result.findings if f.rule in keep]
    result.not_evaluated = [n for n in result.not_evaluated if n.rule in keep]
    result.suppressed = [(f, s) for f, s in result.suppressed if f.rule in keep]
    return [r for r in rules if r.id in keep]
