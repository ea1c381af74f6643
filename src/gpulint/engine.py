"""Evaluate rules over resources: three-valued, unknown never fires, unknown is reported.

No money here: savings are attached after evaluation (pricing/saving.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gpulint import conditions
from gpulint.facts.registry import placeholders
from gpulint.model import Finding, NotEvaluated, Resource
from gpulint.ruleset import Rule


def evaluate(resources: Iterable[Resource],
             rules: Sequence[Rule]) -> tuple[list[Finding], list[NotEvaluated]]:
    """Findings where a rule's match is true; a note where it is unknown."""
    findings: list[Finding] = []
    skipped: list[NotEvaluated] = []
    for res in resources:
        for rule in rules:
            if res.source not in rule.applies_to or rule.id in res.suppressions:
                continue
            result = conditions.test(rule.match, res.facts_by_name, rule.options)
            if result is None:
                reasons = conditions.missing_facts(rule.match, res.facts_by_name, rule.options)
                why = "could not evaluate: " + "; ".join(dict.fromkeys(reasons))
                skipped.append(NotEvaluated(rule.id, res.path, res.line, res.address, why))
            elif result:
                texts = placeholders(res)
                message = rule.message.format_map(texts)
                short = f"{res.address}: {rule.short.format_map(texts)}" if rule.short else message
                findings.append(Finding(
                    rule=rule.id, severity=rule.severity, path=res.path, line=res.line,
                    address=res.address, message=message, remediation=rule.remediation,
                    short_message=short))
    findings.sort(key=Finding.sort_key)
    skipped.sort(key=lambda n: (n.path, n.line, n.address, n.rule))
    return findings, skipped
