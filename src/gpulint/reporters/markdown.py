"""Render a gpulint report (and optionally a cost diff) as a pull-request comment.

The comment is GitHub-flavoured Markdown read in a PR conversation, often on a phone, so it is
lists rather than tables and the news comes first:

1. the headline: total monthly GPU cost (before → after and the delta for a diff), and the cost
   guardrail's verdict when one is set;
2. the GPU resources the pull request changes, each with its own delta (not folded: they are
   why the total moved);
3. the findings as a compact list (severity, location, rule, saving), the message and the fix
   of each folded under its resource's address;
4. folded: fixed findings, every GPU resource, what could not be evaluated, diagnostics.

Every string that comes from scanned files is treated as hostile and goes through md_escape.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.report.budget import headline
from gpulint.reporters import md_sections as sections
from gpulint.reporters.finding_order import SEVERITIES, sorted_findings
from gpulint.reporters.md_escape import code_span, escape_text
from gpulint.reporters.md_sections import SEVERITY_ICON
from gpulint.units import plural, usd_compact

COMMENT_MARKER = "<!-- gpulint:comment -->"
HEAD_MARKER_PREFIX = "<!-- gpulint:head="
HEAD_MARKER_RE = re.compile(r"<!-- gpulint:head=([0-9a-f]{7,64}) -->")
GITHUB_COMMENT_LIMIT = 65536

_SHA_RE = re.compile(r"^[0-9a-fA-F]{7,64}$")
_REPO_URL_RE = re.compile(r"^https?://[A-Za-z0-9._~:/%+-]+$")


# --------------------------------------------------------------------------- sections


def _headline(report: dict[str, Any], diff: dict[str, Any] | None) -> list[str]:
    summary = report.get("summary") or {}
    lines: list[str] = []
    if diff:
        before = diff.get("base_monthly_usd")
        after = diff.get("head_monthly_usd", summary.get("monthly_cost_usd"))
        delta = diff.get("delta_usd")
        if delta is None and before is not None and after is not None:
            delta = float(after) - float(before)
        lines.append(
            f"### GPU cost: {usd_compact(before)}/mo → **{usd_compact(after)}/mo** "
            f"({usd_compact(delta, signed=True)}/mo)"
        )
        lines += _budget(diff, delta)
        base_ref = diff.get("base_ref")
        if base_ref:
            lines.append(f"Compared with {code_span(base_ref, sections.NAME_CHARS)}.")
    else:
        lines.append(f"### GPU cost: **{usd_compact(summary.get('monthly_cost_usd'))}/mo**")
    return lines


def _budget(diff: dict[str, Any], delta: Any) -> list[str]:
    """The cost guardrail (gpulint diff --max-increase): over budget is the headline's
    first news, as a GitHub alert; within budget, one quiet line."""
    limit = diff.get("max_increase_usd")
    budget = diff.get("budget") or {}
    if budget.get("status") == "unpriced" or (budget.get("failed") and not
                                              diff.get("max_increase_exceeded")):
        return ["", "> [!CAUTION]", f"> **{escape_text(headline(budget) or '', 2000)}**", ""]
    if limit is None:
        return []
    if diff.get("max_increase_exceeded"):
        return ["", "> [!CAUTION]",
                f"> **Over budget**: this change adds {usd_compact(delta)}/mo of GPU cost, more "
                f"than the {usd_compact(limit)}/mo allowed. The check fails.", ""]
    line = f"Within budget: at most {usd_compact(limit)}/mo more is allowed."
    if budget.get("unpriced"):
        line += (f" {len(budget['unpriced'])} changed GPU resource(s) not priced, allowed by "
                 "--allow-unpriced.")
    return [line]


def _counts_line(report: dict[str, Any], diff: dict[str, Any] | None) -> str:
    findings = report.get("findings") or []
    summary = report.get("summary") or {}
    counts = {s: 0 for s in SEVERITIES}
    for f in findings:
        sev = f.get("severity")
        if sev in counts:
            counts[sev] += 1
    if not findings and isinstance(summary.get("findings"), dict):
        counts.update({k: int(v) for k, v in summary["findings"].items() if k in counts})
    total = sum(counts.values())
    if total == 0:
        text = "✅ No GPU cost findings."
    else:
        parts = [f"{SEVERITY_ICON[s]} {plural(counts[s], s, 'info' if s == 'info' else None)}"
                 for s in SEVERITIES if counts[s]]
        text = f"**{plural(total, 'finding')}**: " + " · ".join(parts)
    saving = summary.get("potential_saving_usd")
    if saving is None:
        saving = sum(f.get("monthly_saving_usd") or 0 for f in findings) or None
    if saving:
        text += f" — up to **{usd_compact(saving)}/mo** could be saved"
    if diff:
        new = len(diff.get("new_findings") or [])
        fixed = len(diff.get("fixed_findings") or [])
        accepted = len(diff.get("suppressed_findings") or [])
        if new or fixed or accepted:
            text += f" ({new} new, {fixed} fixed" + \
                (f", {accepted} suppressed" if accepted else "") + " in this PR)"
    unpriced = summary.get("unpriced_resources")
    if unpriced:
        text += f". {plural(int(unpriced), 'GPU resource')} could not be priced"
    return text + ("" if text.endswith(".") else ".")


def _problems(report: dict[str, Any], limit: int) -> list[str]:
    not_eval = list(report.get("not_evaluated") or [])
    diags = list(report.get("diagnostics") or [])
    if not not_eval and not diags:
        return []
    body: list[str] = []
    if not_eval:
        body += [f"**Could not evaluate ({len(not_eval)})**", "",
                 *sections.bullets(not_eval, "reason", limit)]
    if diags:
        body += ["", f"**Diagnostics ({len(diags)})**", "",
                 *sections.bullets(diags, "message", limit)]
    while body and body[0] == "":
        body.pop(0)
    title = f"Could not evaluate ({len(not_eval)}) · diagnostics ({len(diags)})"
    return sections.details(title, body)


def _fixed(diff: dict[str, Any] | None, limit: int) -> list[str]:
    fixed = list((diff or {}).get("fixed_findings") or [])
    if not fixed:
        return []
    return sections.details(f"Fixed in this PR ({len(fixed)})",
                            sections.bullets(fixed, "message", limit))


def _accepted(diff: dict[str, Any] | None, limit: int) -> list[str]:
    """Findings the PR suppresses: decisions to review, with their reasons (not savings)."""
    items = [{**f, "why": "suppressed" + (f" until {f['suppression'].get('until')}"
                                          if (f.get("suppression") or {}).get("until") else "")
              + ": " + str((f.get("suppression") or {}).get("reason") or "")}
             for f in (diff or {}).get("suppressed_findings") or []]
    if not items:
        return []
    return sections.details(f"Suppressed in this PR, not fixed ({len(items)})",
                            sections.bullets(items, "why", limit))


def _footer(report: dict[str, Any]) -> list[str]:
    catalog = report.get("catalog") or {}
    tool = report.get("tool") or {}
    hours = report.get("hours_per_month")
    bits = []
    if catalog.get("source") or catalog.get("date"):
        src = escape_text(catalog.get("source") or "unknown source", sections.TEXT_CHARS)
        from gpulint.reporters.text import dates_text, managed_note

        date = escape_text(dates_text(report) if catalog.get("date") else "undated",
                           sections.TEXT_CHARS)
        bits.append(f"Prices: {src}, list prices of {date}")
        if catalog.get("stale_note"):
            bits.append(escape_text(catalog["stale_note"], sections.TEXT_CHARS))
        if managed := managed_note(report).strip():
            bits.append(escape_text(managed, sections.TEXT_CHARS))
    if hours:
        bits.append(f"{escape_text(hours, sections.NAME_CHARS)} h/month")
    name, version = tool.get("name") or "gpulint", tool.get("version") or ""
    bits.append(f"{escape_text(name, sections.NAME_CHARS)} "
                f"{escape_text(version, sections.NAME_CHARS)}".strip())
    return ["<sub>" + " · ".join(bits) + "</sub>"]


def _gate_changes(diff: dict[str, Any] | None) -> list[str]:
    """Gating settings the pull request edits: shown, never applied to its own run."""
    changes = (diff or {}).get("gate_changes") or []
    if not changes:
        return []
    return ["**This pull request changes gating settings** (not applied to its own run; the "
            "base branch's configuration gates it):", "",
            *[f"- {code_span(str(c))}" for c in changes]]


# --------------------------------------------------------------------------- render


def _compose(
    report: dict[str, Any],
    diff: dict[str, Any] | None,
    repo_url: str | None,
    head_sha: str | None,
    limits: dict[str, int],
    note: str | None,
) -> str:
    findings = sorted_findings(list(report.get("findings") or []))
    new_keys = {sections.finding_key(f) for f in (diff or {}).get("new_findings") or []}
    lines = [COMMENT_MARKER]
    if head_sha:
        lines.append(f"{HEAD_MARKER_PREFIX}{head_sha.lower()} -->")
    blocks = [_headline(report, diff), _gate_changes(diff)]
    if diff:
        blocks.append(sections.changed_resources(diff, limits["changed"]))
    blocks.append([_counts_line(report, diff)])
    blocks += [
        sections.findings_list(findings, new_keys, repo_url, head_sha, limits["findings"]),
        _fixed(diff, limits["fixed"]),
        _accepted(diff, limits["accepted"]),
        sections.all_resources(report, limits["resources"]),
        sections.options(report, limits["resources"]),
        _problems(report, limits["problems"]),
        [note] if note else [],
        _footer(report),
    ]
    for block in blocks:
        if block:
            lines += ["", *block]
    return "\n".join(lines) + "\n"


def render(
    report: dict[str, Any],
    diff: dict[str, Any] | None = None,
    *,
    repo_url: str | None = None,
    head_sha: str | None = None,
    max_chars: int = 65000,
) -> str:
    """Render the PR comment body for ``report`` (and ``diff`` when given).

    Links to findings are only emitted when both ``repo_url`` (``https://host/owner/repo``)
    and ``head_sha`` (hex) look valid.  The result never exceeds ``max_chars`` characters;
    when it would, the long lists are shortened and a note says so.
    """
    if head_sha is not None and not _SHA_RE.match(str(head_sha)):
        head_sha = None
    if repo_url is not None:
        repo_url = str(repo_url).rstrip("/")
        if not _REPO_URL_RE.match(repo_url):
            repo_url = None

    limits = {
        "findings": len(report.get("findings") or []),
        "changed": len((diff or {}).get("resources") or []),
        "resources": len(report.get("resources") or []),
        "problems": max(len(report.get("not_evaluated") or []),
                        len(report.get("diagnostics") or [])),
        "fixed": len((diff or {}).get("fixed_findings") or []),
        "accepted": len((diff or {}).get("suppressed_findings") or []),
    }
    body = _compose(report, diff, repo_url, head_sha, limits, None)
    if len(body) <= max_chars:
        return body

    note = (
        "> [!NOTE]\n> This comment was shortened to fit GitHub's size limit; "
        "the job summary and the SARIF/JSON reports have everything."
    )
    # Shrink the folded lists first, then the changed resources and the findings, halving
    # until it fits; every name and message is already capped, so the top findings stay.
    for key in ("resources", "problems", "fixed", "accepted", "changed", "findings"):
        while len(body) > max_chars and limits[key] > 0:
            limits[key] = limits[key] // 2 if limits[key] > 1 else 0
            body = _compose(report, diff, repo_url, head_sha, limits, note)
        if len(body) <= max_chars:
            return body
    # Still too long (e.g. a tiny max_chars or a huge catalog string): hard cut.
    tail = "\n\n_(truncated)_\n"
    cut = max(0, max_chars - len(tail))
    return (body[:cut] + tail)[:max_chars]
