"""``gpulint comment gitlab``: the gpulint comment as one sticky note on a GitLab merge request.

Where to post comes from GitLab CI's predefined variables (flags win): ``CI_API_V4_URL``,
``CI_PROJECT_ID``, ``CI_MERGE_REQUEST_IID`` (set in merge-request pipelines), ``CI_COMMIT_SHA``
and ``CI_PROJECT_URL`` for the links; the token from ``GITLAB_TOKEN``. The body is the one
`comment github` posts, its links in GitLab's form. Exit codes as for GitHub: 0 when posted,
unchanged, or there was nothing to post to (no merge request, no token, API failure: said on
standard error), 1 for those failures under ``--strict`` or when ``--fail-on`` matches, 2 for
usage errors.
"""

from __future__ import annotations

import os
import re
import sys

import click

from gpulint.cli.comment_common import check_report, gate, preview, preview_options, read_json
from gpulint.model import FAIL_ON_CHOICES
from gpulint.reporters import markdown


@click.command("gitlab")
@click.option("--report", "report_path", required=True, type=click.Path(dir_okay=False),
              help="JSON report written by `gpulint scan --format json`.")
@click.option("--diff", "diff_path", type=click.Path(dir_okay=False), default=None,
              help="Cost diff written by `gpulint diff --format json` (optional).")
@click.option("--project", envvar="CI_PROJECT_ID", default=None, show_envvar=True,
              help="Project id or group/project path.")
@click.option("--mr", envvar="CI_MERGE_REQUEST_IID", type=click.IntRange(min=1), default=None,
              show_envvar=True, help="Merge request IID (the number in its URL).")
@click.option("--head-sha", envvar="CI_COMMIT_SHA", default=None, show_envvar=True,
              help="The commit the links point to.")
@click.option("--project-url", envvar="CI_PROJECT_URL", default=None, show_envvar=True,
              help="Web URL of the project, for links to the findings' lines.")
@click.option("--token", envvar="GITLAB_TOKEN", default=None, show_envvar=True,
              help="Project or personal access token with the api scope (the CI job token "
                   "cannot write notes).")
@click.option("--api-url", envvar="CI_API_V4_URL", default=None, show_envvar=True,
              help="API base URL [default: https://gitlab.com/api/v4].")
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default="never",
              show_default=True, help="Exit 1 (after commenting) if findings reach this severity.")
@click.option("--strict", is_flag=True,
              help="Exit 1 instead of 0 when the note could not be written.")
@click.option("--max-chars", type=click.IntRange(min=1000, max=1_000_000), default=65000,
              show_default=True, help="Note size budget.")
@preview_options
def gitlab(report_path: str, diff_path: str | None, project: str | None, mr: int | None,
           head_sha: str | None, project_url: str | None, token: str | None,
           api_url: str | None, fail_on: str, strict: bool, max_chars: int, dry_run: bool,
           output: str | None) -> None:
    """Post or update the gpulint note on a GitLab merge request (one note, edited in place).

    --dry-run writes the body that would be posted and posts nothing."""
    from gpulint.github.comment import with_head

    report = read_json(report_path, "report")
    check_report(report, report_path)
    diff = read_json(diff_path, "diff") if diff_path else None
    if head_sha is not None and not re.fullmatch(r"[0-9a-fA-F]{7,64}", head_sha):
        raise click.UsageError("--head-sha must be a hexadecimal commit id")
    # GitLab's file links are <project>/-/blob/<sha>/<path>; the renderer adds /blob/….
    links = f"{project_url.rstrip('/')}/-" if project_url else None
    body = with_head(markdown.render(report, diff, repo_url=links, head_sha=head_sha,
                                     max_chars=max_chars), head_sha)
    if preview(body, dry_run, output):
        gate(report, fail_on)
        return
    problem = _post(body, project, mr, token, api_url)
    if problem:
        click.echo(f"gpulint: {problem}; no merge-request note written", err=True)
        if strict:
            sys.exit(1)
    gate(report, fail_on)


def _post(body: str, project: str | None, mr: int | None, token: str | None,
          api_url: str | None) -> str | None:
    """Post or update the note; None when done, else why not."""
    from gpulint.gitlab.api import GitLabClient, GitLabError
    from gpulint.gitlab.note import upsert_note

    if not project or not mr:
        return ("no merge request in this context (run in a merge-request pipeline, or pass "
                "--project and --mr)")
    if not token:
        return "no token (set GITLAB_TOKEN or --token)"
    try:
        client = GitLabClient(token, api_url or os.environ.get("CI_API_V4_URL"))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        outcome = upsert_note(client, project, mr, body)
    except GitLabError as exc:
        return f"GitLab API error: {client.scrub(str(exc))}"
    extra = f" (removed {outcome.deleted} duplicate)" if outcome.deleted else ""
    click.echo(f"gpulint: note {outcome.action} on merge request !{mr}{extra}")
    return None
