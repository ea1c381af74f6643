"""``gpulint comment github``: post the report as a pull-request comment.

The main CLI registers this group with ``cli.add_command(comment)``.

Exit codes: 0 when the comment was written, was unchanged, or the run fell back to the job
summary and annotations (fork PRs, no token, no PR); 1 when that fallback or an API failure
happens under ``--strict``, or when ``--fail-on`` finds findings at or above the threshold;
2 for usage errors (bad flags, unreadable report).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from typing import Any

import click

from gpulint.cli.comment_common import check_report, gate, preview, preview_options, read_json
from gpulint.cli.comment_gitlab import gitlab
from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text
from gpulint.github.api import GitHubClient, GitHubError
from gpulint.github.comment import BEHAVIOURS, upsert_comment, with_head
from gpulint.github.summary import write_job_summary
from gpulint.model import FAIL_ON_CHOICES
from gpulint.reporters import github_annotations, markdown


class GitHubContext:
    """Where to comment, from flags first and the GitHub Actions environment second."""

    def __init__(self, repo: str | None, pr: int | None, head_sha: str | None,
                 server_url: str) -> None:
        self.repo = repo
        self.pr = pr
        self.head_sha = head_sha
        self.server_url = server_url.rstrip("/")

    @property
    def repo_url(self) -> str | None:
        return f"{self.server_url}/{self.repo}" if self.repo else None


def load_event(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    try:
        data = json.loads(read_file_text(path, TOOL_FILE_LIMIT))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def resolve_context(
    repo: str | None, pr: int | None, head_sha: str | None, env: dict[str, str] | None = None
) -> GitHubContext:
    env = dict(os.environ if env is None else env)
    event = load_event(env.get("GITHUB_EVENT_PATH"))
    pull: dict[str, Any] = event["pull_request"] \
        if isinstance(event.get("pull_request"), dict) else {}
    if repo is None:
        repo = env.get("GITHUB_REPOSITORY") or None
    if pr is None:
        number = pull.get("number")
        issue = event.get("issue")
        if number is None and isinstance(issue, dict) and issue.get("pull_request"):
            number = issue.get("number")  # issue_comment events on a pull request
        valid = isinstance(number, int) and not isinstance(number, bool) and number > 0
        pr = number if valid else None
    if head_sha is None:
        head_sha = ((pull.get("head") or {}).get("sha")) or None
    return GitHubContext(repo, pr, head_sha, env.get("GITHUB_SERVER_URL") or "https://github.com")


@click.group("comment")
def comment() -> None:
    """Publish a gpulint report where reviewers will see it."""


comment.add_command(gitlab)


@comment.command("github")
@click.option("--report", "report_path", required=True, type=click.Path(dir_okay=False),
              help="JSON report written by `gpulint scan --format json`.")
@click.option("--diff", "diff_path", type=click.Path(dir_okay=False), default=None,
              help="Cost diff written by `gpulint diff --format json` (optional).")
@click.option("--repo", default=None, help="owner/name; default $GITHUB_REPOSITORY.")
@click.option("--pr", type=click.IntRange(min=1), default=None,
              help="Pull request number; default from $GITHUB_EVENT_PATH.")
@click.option("--head-sha", default=None,
              help="PR head commit; default pull_request.head.sha from the event.")
@click.option("--token", envvar="GITHUB_TOKEN", default=None, show_envvar=True,
              help="Token with pull-requests: write.")
@click.option("--api-url", envvar="GITHUB_API_URL", default=None, show_envvar=True,
              help="API base URL (GitHub Enterprise Server: https://HOST/api/v3).")
@click.option("--behaviour", "--behavior", "behaviour", type=click.Choice(BEHAVIOURS),
              default="update", show_default=True, help="How to treat an earlier gpulint comment.")
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="never",
              show_default=True, help="Exit 1 (after commenting) if findings reach this severity.")
@click.option("--comment-author", default=None,
              help="Login that owns the gpulint comment; default: the token's user, or "
                   "github-actions[bot].")
@click.option("--strict", is_flag=True,
              help="Exit 1 instead of 0 when the comment could not be written.")
@click.option("--max-chars", type=click.IntRange(min=1000, max=markdown.GITHUB_COMMENT_LIMIT),
              default=65000, show_default=True, help="Comment size budget.")
@preview_options
def github(
    report_path: str,
    diff_path: str | None,
    repo: str | None,
    pr: int | None,
    head_sha: str | None,
    token: str | None,
    api_url: str | None,
    behaviour: str,
    fail_on: str,
    comment_author: str | None,
    strict: bool,
    max_chars: int,
    dry_run: bool,
    output: str | None,
) -> None:
    """Post or update the gpulint comment on a GitHub pull request.

    Falls back to the job summary and workflow annotations when there is no pull request,
    no token, or the token may not write (pull requests from forks). --dry-run writes the
    body that would be posted and posts nothing.
    """
    report = read_json(report_path, "report")
    check_report(report, report_path)
    diff = read_json(diff_path, "diff") if diff_path else None
    if repo is not None and not re.fullmatch(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
        raise click.UsageError("--repo must look like owner/name")
    if head_sha is not None and not re.fullmatch(r"[0-9a-fA-F]{7,64}", head_sha):
        raise click.UsageError("--head-sha must be a hexadecimal commit id")

    ctx = resolve_context(repo, pr, head_sha)
    body = markdown.render(report, diff, repo_url=ctx.repo_url, head_sha=ctx.head_sha,
                           max_chars=max_chars)
    if preview(with_head(body, ctx.head_sha), dry_run, output):
        gate(report, fail_on)
        return
    write_job_summary(body)

    problem = _post(ctx, body, token, api_url, behaviour, comment_author)
    if problem:
        click.echo(f"gpulint: {problem}; using the job summary and annotations instead", err=True)
        sys.stdout.write(github_annotations.render(report))
        sys.stdout.flush()
        if strict:
            sys.exit(1)
    gate(report, fail_on)


def _post(ctx: GitHubContext, body: str, token: str | None, api_url: str | None,
          behaviour: str, author: str | None) -> str | None:
    """Post or update the comment; None when done, else why the run falls back."""
    if not ctx.repo or not ctx.pr:
        return "no pull request in this context (pass --repo and --pr)"
    if not token:
        return "no token (set GITHUB_TOKEN or --token)"
    logging.basicConfig(level=logging.WARNING, format="gpulint: %(message)s")
    try:
        client = GitHubClient(token, api_url)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        outcome = upsert_comment(client, ctx.repo, ctx.pr, body, behaviour, ctx.head_sha,
                                 author=author)
    except GitHubError as exc:
        return f"GitHub API error: {client.scrub(str(exc))}"
    if outcome.fell_back:
        return (f"cannot write to the pull request ({outcome.reason}); likely a fork PR with a "
                "read-only token")
    where = f" {outcome.url}" if outcome.url else ""
    click.echo(f"gpulint: comment {outcome.action}{where}")
    if outcome.reason:
        click.echo(f"gpulint: {outcome.reason}")
    return None

