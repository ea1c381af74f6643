"""The lists of the pull-request comment (see markdown.py for the layout as a whole).

Everything is a list, never a table: a list item wraps to a phone's width, a table row does
not. Each list shows at most ``limit`` items (the caller lowers limits to fit GitHub's size
limit) and says how many it left out.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from gpulint.reporters.finding_order import alternatives, line_of, saving
from gpulint.reporters.md_escape import clean, code_span, escape_text, html_text, shorten
from gpulint.units import plural, usd_compact

# Longest text shown for a name (path, rule, address) and for prose (message, reason, fix):
# one 70 KB resource name must not push the other findings out of the comment.
NAME_CHARS = 200
TEXT_CHARS = 1000
# Items shown before the rest of a list is folded away, so the comment stays short on a phone.
VISIBLE = 10

SEVERITY_ICON = {"error": "🔴", "warning": "🟠", "info": "🔵"}


def _is_safe_repo_path(path: str) -> bool:
    if not path or path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
        return False
    return ".." not in path.replace("\\", "/").split("/")


def location(item: dict[str, Any], repo_url: str | None, head_sha: str | None) -> str:
    """``path:line`` as a link to the file at the head commit (when both are known), else code."""
    path, line = clean(item.get("path")), line_of(item)
    if not path:
        return "—"
    label = path + (f":{line}" if line else "")
    if repo_url and head_sha and _is_safe_repo_path(path) and len(path) <= NAME_CHARS:
        url = f"{repo_url}/blob/{head_sha}/{quote(path.replace(chr(92), '/'), safe='/')}"
        if line:
            url += f"#L{line}"
        return f"[{code_span(label)}]({url})"
    return code_span(label, NAME_CHARS)


def details(summary: str, body: list[str]) -> list[str]:
    """A folded block; ``summary`` is trusted text or already `html_text`."""
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>"]


def finding_key(finding: dict[str, Any]) -> str:
    fp = finding.get("fingerprint")
    if fp:
        return str(fp)
    return "|".join(str(finding.get(k)) for k in ("rule", "path", "address"))


def _finding(f: dict[str, Any], new: bool, alternative: bool,
             repo_url: str | None, head_sha: str | None) -> list[str]:
    icon = SEVERITY_ICON.get(str(f.get("severity")), "⚪")
    head = f"- {icon} {location(f, repo_url, head_sha)} {code_span(f.get('rule'), NAME_CHARS)}"
    if new:
        head += " 🆕"
    if saving(f):
        head += f" · {'alternative: ' if alternative else ''}saves **{usd_compact(saving(f))}/mo**"
    body = [escape_text(f.get("message"), TEXT_CHARS)]
    if f.get("remediation"):
        body += ["", f"**Fix:** {escape_text(f.get('remediation'), TEXT_CHARS)}"]
    summary = html_text(f.get("address"), NAME_CHARS) or "details"
    return [head, *("  " + line if line else "" for line in details(summary, body))]


def findings_list(findings: list[dict[str, Any]], new_keys: set[str], repo_url: str | None,
                  head_sha: str | None, limit: int) -> list[str]:
    """One item per finding: severity, location, rule and saving on one line; the message and
    the fix folded under the resource's address."""
    overlapping = alternatives(findings)
    items = [_finding(f, finding_key(f) in new_keys, id(f) in overlapping, repo_url, head_sha)
             for f in findings[:limit]]
    return _fold_tail(items, len(findings), "more finding")


def _fold_tail(items: list[list[str]], total: int, what: str) -> list[str]:
    """The first VISIBLE items, the rest folded; a note for what the size limit left out."""
    lines = [line for item in items[:VISIBLE] for line in item]
    rest = [line for item in items[VISIBLE:] for line in item]
    if rest:
        lines += ["", *details(f"{len(items) - VISIBLE} {what}s", rest)]
    hidden = total - len(items)
    if hidden > 0:
        noun = what.split()[-1] + ("s" if hidden != 1 else "")
        lines += ["", f"_…and {hidden:,} more {noun} not shown (comment size limit)._"]
    return lines


def _delta_key(r: dict[str, Any]) -> float:
    delta = r.get("delta_usd")
    return -abs(float(delta)) if isinstance(delta, (int, float)) else 0.0


def _changed_resource(r: dict[str, Any]) -> list[str]:
    change = str(r.get("change") or "changed")
    before, after, delta = r.get("before_usd"), r.get("after_usd"), r.get("delta_usd")
    item = f"- {code_span(r.get('address'), NAME_CHARS)} {escape_text(change, NAME_CHARS)}"
    if isinstance(delta, (int, float)) and not isinstance(delta, bool):
        item += f" · **{usd_compact(delta, signed=True)}/mo**"
        if change not in ("added", "removed"):
            item += f" ({usd_compact(before)} → {usd_compact(after)})"
    else:
        item += " · not priced"
    return [item]


def changed_resources(diff: dict[str, Any], limit: int) -> list[str]:
    """The resources whose cost the pull request changes, largest change first, not folded:
    they are why the total moved."""
    rows = [r for r in diff.get("resources") or [] if r.get("change") != "unchanged"]
    if not rows:
        return ["No GPU resource changed."]
    rows.sort(key=_delta_key)
    items = [_changed_resource(r) for r in rows[:limit]]
    title = f"**{plural(len(rows), 'GPU resource')} changed**"
    return [title, "", *_fold_tail(items, len(rows), "more resource")]


def _resource(r: dict[str, Any]) -> list[str]:
    gpus = f"{r.get('gpu_count')}× " if r.get("gpu_count") is not None else ""
    gpus += clean(r.get("gpu_model") or "unknown GPU")
    count = r.get("count")
    if isinstance(count, int) and count > 1:
        gpus += f" ×{count}"
    cost = r.get("monthly_cost_usd")
    money = "not priced" if cost is None else f"{usd_compact(cost)}/mo"
    low, top = r.get("monthly_cost_min_usd"), r.get("monthly_cost_max_usd")
    if cost is not None and low is not None and top is not None and low != top:
        money += f" (range {usd_compact(low)}–{usd_compact(top)})"
    return [f"- {code_span(r.get('address'), NAME_CHARS)} · {escape_text(gpus, NAME_CHARS)} · "
            f"{money}"]


def all_resources(report: dict[str, Any], limit: int) -> list[str]:
    rows = list(report.get("resources") or [])
    if not rows:
        return []
    body = [line for r in rows[:limit] for line in _resource(r)]
    if len(rows) > limit:
        body += [f"- _…and {len(rows) - limit:,} more not shown._"]
    return details(f"GPU resources ({len(rows)})", body)


def options(report: dict[str, Any], limit: int) -> list[str]:
    """Choices users may make (JupyterHub GPU profiles): per hour, in no total."""
    rows = list(report.get("options") or [])
    if not rows:
        return []
    body = []
    for r in rows[:limit]:
        gpus = f"{r.get('gpu_count')}× " if r.get("gpu_count") is not None else ""
        gpus += clean(r.get("gpu_model") or "unknown GPU")
        hourly = r.get("hourly_cost_usd")
        money = "not priced" if hourly is None else f"${hourly:,.2f}/h"
        body.append(f"- {code_span(r.get('address'), NAME_CHARS)} · "
                    f"{escape_text(r.get('option'), NAME_CHARS)} · "
                    f"{escape_text(gpus, NAME_CHARS)} · {money}")
    if len(rows) > limit:
        body += [f"- _…and {len(rows) - limit:,} more not shown._"]
    return details(f"Options users can pick ({len(rows)}; per hour, not in the totals)", body)


def bullets(items: list[dict[str, Any]], text_key: str, limit: int) -> list[str]:
    body = []
    for item in items[:limit]:
        where = shorten(item.get("path"), NAME_CHARS) if item.get("path") else ""
        if where and line_of(item):
            where += f":{line_of(item)}"
        label = " ".join(code_span(x, NAME_CHARS) for x in (where, item.get("rule"),
                                                            item.get("address")) if x)
        text = escape_text(item.get(text_key), TEXT_CHARS)
        body.append(f"- {label} — {text}" if label else f"- {text}")
    if len(items) > limit:
        body.append(f"- _…and {len(items) - limit:,} more not shown._")
    return body

