"""Inline suppressions: `# gpulint:ignore <rule-id>[,<rule-id>] [until=YYYY-MM-DD] -- <reason>`.

A comment on the line before a resource (other comments may sit between), anywhere inside its
block, or at the end of a line of code inside it applies to that resource; so does the Kubernetes
annotation `gpulint.dev/ignore` on the object. A suppression without a reason (when reasons are
required), with a bad date, or naming an unknown rule is not honoured and is reported; one past
its date no longer hides the finding; one that hides nothing is reported as unused. All of these
are diagnostics (docs/suppressions.md).
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gpulint.comments import directives
from gpulint.files.words import did_you_mean
from gpulint.model import Diagnostic, Finding, NotEvaluated

COMMENT_KEY = "gpulint:ignore"
ANNOTATION = "gpulint.dev/ignore"
_UNTIL = re.compile(r"^until=(?P<date>\S+)$")


@dataclass(frozen=True)
class Suppression:
    path: str
    line: int  # the comment's line, or the object's line for an annotation
    target_line: int  # the line of code it sits before (the object's line for an annotation)
    rules: tuple[str, ...]
    reason: str
    until: dt.date | None
    problem: str | None = None  # why it cannot be honoured, if it cannot

    def describe(self) -> str:
        until = f", until {self.until.isoformat()}" if self.until else ""
        return f"{self.path}:{self.line} ({self.reason or 'no reason'}{until})"


def parse(path: str, line: int, target_line: int, value: str) -> Suppression:
    """One suppression from the text after `gpulint:ignore` (or the annotation value)."""
    head, sep, reason = value.partition("--")
    reason = reason.strip() if sep else ""
    rules: list[str] = []
    until: dt.date | None = None
    problem = None
    for token in re.split(r"[\s,]+", head.strip()):
        if not token:
            continue
        m = _UNTIL.match(token)
        if m:
            try:
                until = dt.date.fromisoformat(m.group("date"))
            except ValueError:
                problem = f"expiry {m.group('date')!r} is not a date (use until=YYYY-MM-DD)"
        else:
            rules.append(token)
    if not rules:
        problem = "gpulint:ignore needs at least one rule id"
    return Suppression(path, line, target_line, tuple(rules), reason, until, problem)


def from_text(path: str, text: str) -> list[Suppression]:
    if COMMENT_KEY not in text:  # most files have none; skip the line scan
        return []
    return [parse(path, d.comment_line, d.target_line, d.value)
            for d in directives(text, {COMMENT_KEY}, trailing=True)]


def from_annotations(path: str, line: int, metadata: Any) -> list[Suppression]:
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    value = annotations.get(ANNOTATION) if isinstance(annotations, dict) else None
    if value is None:
        return []
    return [parse(path, line, line, str(value))]


@dataclass(frozen=True)
class Span:
    """Where a resource's definition sits, to match comments inside its block."""

    path: str
    start: int
    end: int

    def covers(self, s: Suppression) -> bool:
        # Inside: the comment and the code it precedes are both within the block, so a comment
        # just before the next resource or document is not taken for this one's.
        inside = self.start < s.line <= self.end and s.target_line <= self.end
        return s.path == self.path and (s.target_line == self.start or inside)


class _Index:
    """Usable suppressions by file and rule, in line order: a finding looks only at those
    before or inside its resource's block (looking at every one for every finding took
    minutes with 100,000 directives)."""

    def __init__(self, usable: list[Suppression]) -> None:
        self._by: dict[tuple[str, str], list[Suppression]] = {}
        for s in usable:
            for rule in dict.fromkeys(s.rules):
                self._by.setdefault((s.path, rule), []).append(s)
        for group in self._by.values():
            group.sort(key=lambda s: s.line)
        self._lines = {k: [s.line for s in v] for k, v in self._by.items()}
        self._targets: dict[tuple[str, str, int], list[Suppression]] = {}
        for (path, rule), group in self._by.items():
            for s in group:
                self._targets.setdefault((path, rule, s.target_line), []).append(s)

    def covered(self, rule: str, span: Span) -> list[Suppression]:
        """The suppressions of `rule` that `span` covers, in line order."""
        key = (span.path, rule)
        before = [s for s in self._targets.get((span.path, rule, span.start), [])
                  if s.line <= span.start]
        group, lines = self._by.get(key, []), self._lines.get(key, [])
        lo, hi = bisect.bisect_right(lines, span.start), bisect.bisect_right(lines, span.end)
        inside = [s for s in group[lo:hi] if span.covers(s)]
        return before + inside


@dataclass
class Outcome:
    findings: list[Finding]
    not_evaluated: list[NotEvaluated]
    suppressed: list[tuple[Finding, Suppression]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def apply(findings: list[Finding], not_evaluated: list[NotEvaluated],
          spans: dict[tuple[str, str], Span], suppressions: Iterable[Suppression],
          rule_ids: Iterable[str], *, require_reason: bool = True,
          today: dt.date | None = None) -> Outcome:
    """Split findings into kept and suppressed; report suppressions that cannot or did not apply."""
    today = today or dt.date.today()
    known = set(rule_ids)
    out = Outcome([], [])
    usable: list[Suppression] = []
    for s in suppressions:
        problem = s.problem
        unknown = [r for r in s.rules if r not in known]
        if not problem and unknown:
            problem = "; ".join(f"unknown rule {r!r}{did_you_mean(r, known)}" for r in unknown)
        if not problem and require_reason and not s.reason:
            problem = (f"suppression of {', '.join(s.rules)} is not honoured: give a reason "
                       "after ' -- ' (or set suppressions.require_reason: false)")
        if problem:
            # A notice: the finding it meant to hide still shows and gates on its own.
            out.diagnostics.append(Diagnostic(s.path, s.line, problem, "warning"))
        else:
            usable.append(s)
    used: set[tuple[Suppression, str]] = set()
    index = _Index(usable)

    def matching(rule: str, path: str, address: str) -> Suppression | None:
        span = spans.get((path, address))
        if span is None:
            return None
        hits = index.covered(rule, span)
        for s in hits:
            used.add((s, rule))
        # A live suppression wins over an expired one for the same finding.
        return next((s for s in hits if not s.until or s.until >= today), hits[0] if hits else None)

    for f in findings:
        hit = matching(f.rule, f.path, f.address)
        if hit is None:
            out.findings.append(f)
        elif hit.until and hit.until < today:
            note = f" (suppression expired on {hit.until.isoformat()}: {hit.reason})"
            # On the short message too: the default text output names the lapsed decision.
            out.findings.append(dataclasses.replace(
                f, message=f.message + note,
                short_message=f.short_message + note if f.short_message else ""))
        else:
            out.suppressed.append((f, hit))
    for n in not_evaluated:
        hit = matching(n.rule, n.path, n.address)
        if hit is None or (hit.until and hit.until < today):
            out.not_evaluated.append(n)
    for s in usable:
        for rule in s.rules:
            if (s, rule) not in used:
                out.diagnostics.append(Diagnostic(
                    s.path, s.line, f"unused suppression: no {rule} finding on the resource it "
                                    "applies to", "warning"))
    return out
