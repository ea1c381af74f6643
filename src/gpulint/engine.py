"""Evaluate rules over resources: three-valued, unknown never fires, unknown is reported.

No money here: savings are attached after evaluation (savings.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gpulint import conditions
from gpulint.fact_types import Resource
from gpulint.facts.registry import placeholders
from gpulint.model import Finding, NotEvaluated
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
            try:
                result = conditions.test(rule.match, res.facts_by_name, rule.options)
                reasons = conditions.missing_facts(rule.match, res.facts_by_name, rule.options) \
                    if result is None else []
            except conditions.ConditionError as e:
                result, reasons = None, [str(e)]
            except (TypeError, ValueError) as e:  # an option of the wrong type (configuration)
                result, reasons = None, [f"an option of rule {rule.id} has the wrong type ({e})"]
            if result is None:
                why = "could not evaluate: " + "; ".join(dict.fromkeys(reasons))
                skipped.append(NotEvaluated(rule.id, res.path, res.line, res.address, why))
            elif result:
                texts = placeholders(res)
                message = _render(rule.message, texts)
                short = f"{res.address}: {_render(rule.short, texts)}" if rule.short else message
                findings.append(Finding(
                    rule=rule.id, severity=rule.severity, path=res.path, line=res.line,
                    address=res.address, message=message, remediation=rule.remediation,
                    short_message=short))
    findings.sort(key=Finding.sort_key)
    skipped.sort(key=lambda n: (n.path, n.line, n.address, n.rule))
    return findings, skipped


def _render(template: str, texts: dict[str, str]) -> str:
    """The message with its placeholders filled. Rule files are checked when loaded (names,
    widths); a format code that does not suit the text (`{gpu_count:d}`) leaves the message as
    written rather than failing the scan."""
    try:
        return template.format_map(texts)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return template
