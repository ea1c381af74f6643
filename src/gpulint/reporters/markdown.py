"""Render a gpulint report (and optionally a cost diff) as a pull-request comment.

The output is GitHub-flavoured Markdown meant to be read in a PR conversation, including on
a phone: few columns, the money first, the long lists folded into ``<details>``.

Every string that comes from scanned files is treated as hostile and goes through md_escape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from gpulint.model import Severity
from gpulint.reporters.md_escape import clean, code_span, escape_text
from gpulint.units import usd_compact

COMMENT_MARKER = "<!-- gpulint:comment -->"
HEAD_MARKER_PREFIX = "<!-- gpulint:head="
HEAD_MARKER_RE = re.compile(r"<!-- gpulint:head=([0-9a-f]{7,64}) -->")
GITHUB_COMMENT_LIMIT = 65536

_SHA_RE = re.compile(r"^[0-9a-fA-F]{7,64}$")
_REPO_URL_RE = re.compile(r"^https?://[A-Za-z0-9._~:/%+-]+$")
_SEVERITIES = tuple(s.value for s in Severity.by_rank())
_SEVERITY_ICON = {"error": "🔴", "warning": "🟠", "info": "🔵"}
_SEVERITY_LABEL = {"error": "error", "warning": "warning", "info": "info"}


# --------------------------------------------------------------------------- formatting


def _is_safe_repo_path(path: str) -> bool:
    if not path or path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        return False
    parts = path.replace("\\", "/").split("/")
    return ".." not in parts


def _location(item: dict[str, Any], repo_url: str | None, head_sha: str | None) -> str:
    path = clean(item.get("path"))
    line = item.get("line")
    line_no = line if isinstance(line, int) and not isinstance(line, bool) and line >= 1 else None
    label = path + (f":{line_no}" if line_no else "")
    if not path:
        return "—"
    if repo_url and head_sha and _is_safe_repo_path(path):
        url = f"{repo_url}/blob/{head_sha}/{quote(path.replace(chr(92), '/'), safe='/')}"
        if line_no:
            url += f"#L{line_no}"
        return f"[{escape_text(label)}]({url})"
    return code_span(label)


def _finding_key(finding: dict[str, Any]) -> str:
    fp = finding.get("fingerprint")
    if fp:
        return str(fp)
    return "|".join(str(finding.get(k)) for k in ("rule", "path", "address"))


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
            lines.append(f"Compared with {code_span(base_ref)}.")
    else:
        lines.append(f"### GPU cost: **{usd_compact(summary.get('monthly_cost_usd'))}/mo**")
    return lines


def _budget(diff: dict[str, Any], delta: Any) -> list[str]:
    """The cost guardrail (gpulint diff --max-increase): over budget is the headline's
    first news, as a GitHub alert; within budget, one quiet line."""
    limit = diff.get("max_increase_usd")
    if limit is None:
        return []
    if diff.get("max_increase_exceeded"):
        return ["", "> [!CAUTION]",
                f"> **Over budget**: this change adds {usd_compact(delta)}/mo of GPU cost, more "
                f"than the {usd_compact(limit)}/mo allowed. The check fails.", ""]
    return [f"Within budget: at most {usd_compact(limit)}/mo more is allowed."]


def _counts_line(report: dict[str, Any], diff: dict[str, Any] | None) -> str:
    findings = report.get("findings") or []
    summary = report.get("summary") or {}
    counts = {s: 0 for s in _SEVERITIES}
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
        parts = [f"{_SEVERITY_ICON[s]} {counts[s]} {_SEVERITY_LABEL[s]}"
                 for s in _SEVERITIES if counts[s]]
        text = f"**{total} finding{'s' if total != 1 else ''}**: " + " · ".join(parts)
    saving = summary.get("potential_saving_usd")
    if saving is None:
        saving = sum(f.get("monthly_saving_usd") or 0 for f in findings) or None
    if saving:
        text += f" — up to **{usd_compact(saving)}/mo** could be saved"
    if diff:
        new = len(diff.get("new_findings") or [])
        fixed = len(diff.get("fixed_findings") or [])
        if new or fixed:
            text += f" ({new} new, {fixed} fixed in this PR)"
    unpriced = summary.get("unpriced_resources")
    if unpriced:
        text += f". {unpriced} GPU resource{'s' if unpriced != 1 else ''} could not be priced"
    return text + ("" if text.endswith(".") else ".")


def _sorted_findings(findings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    order = {s: i for i, s in enumerate(_SEVERITIES)}
    return sorted(
        findings,
        key=lambda f: (
            order.get(str(f.get("severity")), 9),
            -(f.get("monthly_saving_usd") or 0),
            str(f.get("path")),
            f.get("line") or 0,
        ),
    )


def _findings_table(
    findings: list[dict[str, Any]],
    new_keys: set[str],
    repo_url: str | None,
    head_sha: str | None,
    limit: int,
) -> list[str]:
    if not findings:
        return []
    lines = ["| Where | Rule | Finding | $/mo |", "|---|---|---|---:|"]
    for f in findings[:limit]:
        icon = _SEVERITY_ICON.get(str(f.get("severity")), "⚪")
        new = " 🆕" if _finding_key(f) in new_keys else ""
        saving = f.get("monthly_saving_usd")
        lines.append(
            f"| {_location(f, repo_url, head_sha)} | {icon} {code_span(f.get('rule'))}{new} "
            f"| {escape_text(f.get('message'))} "
            f"| {usd_compact(saving) if saving is not None else '—'} |"
        )
    hidden = len(findings) - limit
    if hidden > 0:
        lines.append("")
        lines.append(f"_…and {hidden} more finding{'s' if hidden != 1 else ''} not shown "
                     "(comment size limit)._")
    return lines


def _details(summary: str, body: list[str]) -> list[str]:
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>"]


def _resources_section(
    report: dict[str, Any], diff: dict[str, Any] | None, limit: int
) -> list[str]:
    if diff and diff.get("resources"):
        rows = ([r for r in diff["resources"] if r.get("change") != "unchanged"]
                or list(diff["resources"]))
        changed = sum(1 for r in diff["resources"] if r.get("change") != "unchanged")
        body = ["| Resource | Change | $/mo |", "|---|---|---:|"]
        for r in rows[:limit]:
            before, after = r.get("before_usd"), r.get("after_usd")
            if r.get("change") == "added":
                money = usd_compact(after)
            elif r.get("change") == "removed":
                money = f"~~{usd_compact(before)}~~"
            else:
                money = f"{usd_compact(before)} → {usd_compact(after)}"
            body.append(f"| {code_span(r.get('address'))} | {escape_text(r.get('change'))} "
                        f"| {money} |")
        title = f"GPU resources changed in this PR ({changed})"
        total = len(rows)
    else:
        rows = list(report.get("resources") or [])
        body = ["| Resource | GPUs | $/mo |", "|---|---|---:|"]
        for r in rows[:limit]:
            gpus = ""
            if r.get("gpu_count") is not None:
                gpus = f"{r.get('gpu_count')}× "
            gpus += clean(r.get("gpu_model") or "?")
            count = r.get("count")
            if isinstance(count, int) and count > 1:
                gpus += f" ×{count}"
            body.append(
                f"| {code_span(r.get('address'))} | {escape_text(gpus)} "
                f"| {usd_compact(r.get('monthly_cost_usd'))} |"
            )
        title = f"GPU resources ({len(rows)})"
        total = len(rows)
    if not rows:
        return []
    if total > limit:
        body.append("")
        body.append(f"_…and {total - limit} more not shown._")
    return _details(title, body)


def _bullets(items: list[dict[str, Any]], text_key: str, limit: int) -> list[str]:
    body = []
    for item in items[:limit]:
        where = clean(item.get("path"))
        if where and item.get("line"):
            where += f":{item.get('line')}"
        spans = (code_span(where) if where else "",
                 code_span(item.get("rule")) if item.get("rule") else "")
        label = " ".join(x for x in spans if x)
        addr = item.get("address")
        if addr:
            label += f" {code_span(addr)}"
        body.append(f"- {label.strip()} — {escape_text(item.get(text_key))}".replace("-  —", "- —"))
    if len(items) > limit:
        body.append(f"- _…and {len(items) - limit} more not shown._")
    return body


def _problems_section(report: dict[str, Any], limit: int) -> list[str]:
    not_eval = list(report.get("not_evaluated") or [])
    diags = list(report.get("diagnostics") or [])
    if not not_eval and not diags:
        return []
    body: list[str] = []
    if not_eval:
        body.append(f"**Could not evaluate ({len(not_eval)})**")
        body.append("")
        body.extend(_bullets(not_eval, "reason", limit))
        body.append("")
    if diags:
        body.append(f"**Diagnostics ({len(diags)})**")
        body.append("")
        body.extend(_bullets(diags, "message", limit))
    while body and body[-1] == "":
        body.pop()
    return _details(f"Could not evaluate ({len(not_eval)}) · diagnostics ({len(diags)})", body)


def _fixed_section(diff: dict[str, Any] | None, limit: int) -> list[str]:
    fixed = list((diff or {}).get("fixed_findings") or [])
    if not fixed:
        return []
    return _details(f"Fixed in this PR ({len(fixed)})", _bullets(fixed, "message", limit))


def _footer(report: dict[str, Any]) -> list[str]:
    catalog = report.get("catalog") or {}
    tool = report.get("tool") or {}
    hours = report.get("hours_per_month")
    bits = []
    if catalog.get("source") or catalog.get("date"):
        src = escape_text(catalog.get("source") or "unknown source")
        from gpulint.reporters.text import dates_text

        date = escape_text(dates_text(report) if catalog.get("date") else "undated")
        bits.append(f"Prices: {src}, list prices of {date}")
        if catalog.get("stale_note"):
            bits.append(escape_text(catalog["stale_note"]))
    if hours:
        bits.append(f"{escape_text(hours)} h/month")
    name, version = tool.get("name") or "gpulint", tool.get("version") or ""
    bits.append(f"{escape_text(name)} {escape_text(version)}".strip())
    return ["<sub>" + " · ".join(bits) + "</sub>"]


# --------------------------------------------------------------------------- render


def _compose(
    report: dict[str, Any],
    diff: dict[str, Any] | None,
    repo_url: str | None,
    head_sha: str | None,
    limits: dict[str, int],
    note: str | None,
) -> str:
    findings = _sorted_findings(report.get("findings") or [])
    new_keys = {_finding_key(f) for f in (diff or {}).get("new_findings") or []}
    lines = [COMMENT_MARKER]
    if head_sha:
        lines.append(f"{HEAD_MARKER_PREFIX}{head_sha.lower()} -->")
    lines.append("")
    lines.extend(_headline(report, diff))
    lines.append("")
    lines.append(_counts_line(report, diff))
    table = _findings_table(findings, new_keys, repo_url, head_sha, limits["findings"])
    if table:
        lines.append("")
        lines.extend(table)
    for section in (
        _fixed_section(diff, limits["fixed"]),
        _resources_section(report, diff, limits["resources"]),
        _problems_section(report, limits["problems"]),
    ):
        if section:
            lines.append("")
            lines.extend(section)
    if note:
        lines.append("")
        lines.append(note)
    lines.append("")
    lines.extend(_footer(report))
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

    n_findings = len(report.get("findings") or [])
    n_resources = max(len(report.get("resources") or []), len((diff or {}).get("resources") or []))
    n_problems = max(len(report.get("not_evaluated") or []), len(report.get("diagnostics") or []))
    n_fixed = len((diff or {}).get("fixed_findings") or [])
    limits = {"findings": n_findings, "resources": n_resources, "problems": n_problems,
              "fixed": n_fixed}
    body = _compose(report, diff, repo_url, head_sha, limits, None)
    if len(body) <= max_chars:
        return body

    note = (
        "> [!NOTE]\n> This comment was shortened to fit GitHub's size limit; "
        "the job summary and the SARIF/JSON reports have everything."
    )
    # Shrink the folded lists first, then the findings table, halving until it fits.
    for key in ("resources", "problems", "fixed", "findings"):
        while len(body) > max_chars and limits[key] > 0:
            limits[key] = limits[key] // 2 if limits[key] > 1 else 0
            body = _compose(report, diff, repo_url, head_sha, limits, note)
        if len(body) <= max_chars:
            return body
    # Still too long (e.g. a tiny max_chars or a huge catalog string): hard cut.
    tail = "\n\n_(truncated)_\n"
    cut = max(0, max_chars - len(tail))
    return (body[:cut] + tail)[:max_chars]
