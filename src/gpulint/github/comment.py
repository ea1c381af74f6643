"""Create, update or replace the gpulint comment on a pull request.

How the comment is found
    A gpulint comment is an issue comment whose body *starts with* ``<!-- gpulint:comment -->``
    and whose author is the account the token acts as (``GET /user``; for the Actions
    ``GITHUB_TOKEN``, where that endpoint is forbidden, ``github-actions[bot]``).  Comments by
    anybody else are never edited or deleted, even if they quote the marker.  All pages of the
    comment list are read.

How "newer" is decided
    Each body carries ``<!-- gpulint:head=<sha> -->``.  When an existing comment names a head
    other than ours, the PR's commits are fetched (paginated, oldest first).  The comment is
    newer when its sha appears later in that list than ours, or when ours is not in the list
    at all but its sha is (we are a stale run after a force-push).  A sha that is no longer in
    the PR is older.  When neither is found the run proceeds.  A newer comment is never
    overwritten or replaced.

Concurrent runs
    GitHub has no conditional writes for comments, so two runs can both create a comment.
    After creating one, the run lists the comments again, keeps the oldest gpulint comment
    (lowest id) and deletes the others (a 404 from a comment another run already deleted is
    fine), then writes its body into the survivor unless that now holds a newer head.  The
    newest run re-reads the survivor afterwards and re-applies its body if an older run
    slipped in between.  This also cleans up a duplicate created when a POST was retried
    after a dropped connection.

Forks
    Pull requests from forks get a read-only token: writes fail with 403.  That yields an
    :class:`Outcome` with ``fell_back=True`` so the caller can use the job summary and
    annotations instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gpulint.github.api import GitHubClient, GitHubError
from gpulint.reporters.markdown import COMMENT_MARKER, HEAD_MARKER_RE

BEHAVIOURS = ("update", "new", "delete-and-new", "hide-and-new")
ACTIONS_BOT = "github-actions[bot]"



def _object(data: Any, path: str) -> dict[str, Any]:
    """A comment as the API returns it: a JSON object (anything else is a failed call)."""
    if not isinstance(data, dict):
        raise GitHubError(f"unexpected response from {path}: not a JSON object", path=path)
    return data

@dataclass
class Outcome:
    """What :func:`upsert_comment` did.

    ``action`` is one of ``created``, ``updated``, ``unchanged``, ``skipped-newer``
    (a comment for a newer head exists) or ``fallback`` (no write permission).
    """

    action: str
    comment_id: int | None = None
    url: str | None = None
    fell_back: bool = False
    reason: str = ""
    deleted: list[int] = field(default_factory=list)
    hidden: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.fell_back


# Only the marker of the comment's header counts: text further down is the report's, which
# renders escaped but is not ours to trust.
_HEADER_RE = re.compile(r"\s*" + re.escape(COMMENT_MARKER) + r"\s*" + HEAD_MARKER_RE.pattern)


def head_of(body: str | None) -> str | None:
    m = _HEADER_RE.match(body or "")
    return m.group(1) if m else None


def with_head(body: str, head_sha: str | None) -> str:
    """Make sure ``body`` starts with the comment marker and carries the head marker."""
    if not body.startswith(COMMENT_MARKER):
        body = COMMENT_MARKER + "\n" + body
    if head_sha and head_of(body) != head_sha.lower():
        body = HEAD_MARKER_RE.sub("", body)
        marker = f"{COMMENT_MARKER}\n<!-- gpulint:head={head_sha.lower()} -->"
        body = body.replace(COMMENT_MARKER, marker, 1)
    return body


def resolve_author(client: GitHubClient) -> str:
    """The login the token acts as; ``github-actions[bot]`` when ``/user`` is not allowed."""
    try:
        user = client.get("user")
    except GitHubError as exc:
        if exc.status in (401, 403, 404):
            return ACTIONS_BOT
        raise
    login = (user or {}).get("login") if isinstance(user, dict) else None
    return str(login) if login else ACTIONS_BOT


class _Ctx:
    def __init__(
        self, client: GitHubClient, repo: str, pr: int, author: str, head: str | None
    ) -> None:
        self.client = client
        self.repo = repo
        self.pr = pr
        self.author = author.lower()
        self.head = head.lower() if head else None
        self._commits: list[str] | None = None

    def list_ours(self) -> list[dict[str, Any]]:
        comments = self.client.paginate(f"repos/{self.repo}/issues/{self.pr}/comments")
        ours = [
            c
            for c in comments
            if str((c.get("user") or {}).get("login", "")).lower() == self.author
            and str(c.get("body") or "").lstrip().startswith(COMMENT_MARKER)
        ]
        return sorted(ours, key=lambda c: int(c["id"]))

    def commits(self) -> list[str]:
        if self._commits is None:
            pages = self.client.paginate(f"repos/{self.repo}/pulls/{self.pr}/commits")
            self._commits = [str(c.get("sha", "")).lower() for c in pages]
        return self._commits

    def is_newer(self, other_head: str | None) -> bool:
        """Is a comment written for ``other_head`` newer than this run?"""
        if not self.head or not other_head or other_head == self.head:
            return False
        commits = self.commits()
        pos = {sha: i for i, sha in enumerate(commits)}
        ours, theirs = pos.get(self.head), pos.get(other_head)
        if theirs is None:
            return False
        if ours is None:
            return True
        return theirs > ours

    def create(self, body: str) -> dict[str, Any]:
        path = f"repos/{self.repo}/issues/{self.pr}/comments"
        return _object(self.client.post(path, {"body": body}), path)

    def update(self, comment_id: int, body: str) -> dict[str, Any]:
        path = f"repos/{self.repo}/issues/comments/{comment_id}"
        return _object(self.client.patch(path, {"body": body}), path)

    def get(self, comment_id: int) -> dict[str, Any] | None:
        path = f"repos/{self.repo}/issues/comments/{comment_id}"
        try:
            return _object(self.client.get(path), path)
        except GitHubError as exc:
            if exc.status == 404:
                return None
            raise

    def delete(self, comment_id: int) -> bool:
        try:
            self.client.delete(f"repos/{self.repo}/issues/comments/{comment_id}")
            return True
        except GitHubError as exc:
            if exc.status == 404:  # another run got there first
                return False
            raise


def _converge(
    ctx: _Ctx, body: str, outcome: Outcome, ignore: set[int] | frozenset[int] = frozenset()
) -> Outcome:
    """Resolve duplicates left by concurrent runs; see the module docstring.

    Among our marker comments not in ``ignore`` the oldest survives, the rest are deleted,
    and the survivor ends up with ``body`` unless it holds a newer head.
    """
    ours = [c for c in ctx.list_ours() if int(c["id"]) not in ignore]
    if not ours:
        return outcome
    survivor = ours[0]
    for c in ours[1:]:
        if ctx.delete(int(c["id"])):
            outcome.deleted.append(int(c["id"]))
    for _ in range(3):
        current = ctx.get(int(survivor["id"]))
        if current is None:
            break
        if current.get("body") == body or ctx.is_newer(head_of(current.get("body"))):
            break
        ctx.update(int(survivor["id"]), body)
    outcome.comment_id = int(survivor["id"])
    outcome.url = survivor.get("html_url") or outcome.url
    return outcome


def upsert_comment(
    client: GitHubClient,
    repo: str,
    pr_number: int,
    body: str,
    behaviour: str = "update",
    head_sha: str | None = None,
    *,
    author: str | None = None,
) -> Outcome:
    """Make the PR's gpulint comment say ``body``.

    ``behaviour``:

    * ``update`` edit the existing comment in place (create one if there is none);
    * ``new`` post a new comment, leaving earlier ones alone;
    * ``delete-and-new`` delete earlier gpulint comments and post a new one;
    * ``hide-and-new`` minimise earlier gpulint comments as outdated and post a new one.

    In every mode an identical body is not posted again and a comment for a newer head is
    left untouched (``skipped-newer``).  A 403 returns ``Outcome(action="fallback")``.
    """
    if behaviour not in BEHAVIOURS:
        raise ValueError(
            f"unknown comment behaviour {behaviour!r}; expected one of {', '.join(BEHAVIOURS)}"
        )
    body = with_head(body, head_sha)
    try:
        ctx = _Ctx(client, repo, int(pr_number), author or resolve_author(client), head_sha)
        return _upsert(ctx, body, behaviour)
    except GitHubError as exc:
        if exc.status == 403:
            return Outcome("fallback", fell_back=True, reason=client.scrub(str(exc)))
        raise


def _upsert(ctx: _Ctx, body: str, behaviour: str) -> Outcome:
    ours = ctx.list_ours()
    latest = ours[-1] if ours else None
    if latest is not None:
        if latest.get("body") == body:
            return Outcome("unchanged", int(latest["id"]), latest.get("html_url"))
        if any(ctx.is_newer(head_of(c.get("body"))) for c in reversed(ours)):
            newest = max(ours, key=lambda c: int(c["id"]))
            return Outcome(
                "skipped-newer", int(newest["id"]), newest.get("html_url"),
                reason="a gpulint comment for a newer commit of this pull request already exists",
            )

    if behaviour == "update":
        if latest is None:
            created = ctx.create(body)
            outcome = Outcome("created", int(created["id"]), created.get("html_url"))
            return _converge(ctx, body, outcome)
        # Edit the oldest; leftovers from other modes or races are removed by _converge.
        target = ours[0]
        outcome = Outcome("updated", int(target["id"]), target.get("html_url"))
        ctx.update(int(target["id"]), body)
        return _converge(ctx, body, outcome)

    created = ctx.create(body)
    outcome = Outcome("created", int(created["id"]), created.get("html_url"))
    previous = [c for c in ours if int(c["id"]) != int(created["id"])]
    if behaviour == "delete-and-new":
        for c in previous:
            if ctx.delete(int(c["id"])):
                outcome.deleted.append(int(c["id"]))
    elif behaviour == "hide-and-new":
        for c in previous:
            node_id = c.get("node_id")
            if not node_id:
                continue
            try:
                ctx.client.minimize_comment(str(node_id), "OUTDATED")
            except GitHubError as exc:
                # The new comment is already posted; an old one staying visible is cosmetic.
                outcome.reason = f"could not hide an earlier comment: {ctx.client.scrub(str(exc))}"
                continue
            outcome.hidden.append(int(c["id"]))
    # Concurrent runs in the "new" modes: among comments created since our snapshot keep
    # the oldest one and make sure it carries the newest body.
    return _converge(ctx, body, outcome, ignore={int(c["id"]) for c in previous})
