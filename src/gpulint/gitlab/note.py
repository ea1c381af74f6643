"""One sticky gpulint note on a GitLab merge request, updated in place.

A note is gpulint's when its body starts with the hidden marker ``<!-- gpulint:comment -->``
and its author is the user the token acts as (``GET /user``); a note by anybody else that
quotes the marker, a system note, or a note someone emptied is never touched. The oldest of
gpulint's notes is edited; extra ones left by a race are deleted, so the merge request keeps
exactly one. An identical body is not written again.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Any

from gpulint.gitlab.api import GitLabClient, GitLabError
from gpulint.reporters.markdown import COMMENT_MARKER


@dataclass
class Outcome:
    action: str  # created | updated | unchanged
    note_id: int
    deleted: int = 0


def notes_path(project: str, mr: int) -> str:
    """A numeric id or a ``group/project`` path (URL-encoded, as the API wants it)."""
    return f"projects/{urllib.parse.quote(project, safe='')}/merge_requests/{mr}/notes"


def _ours(note: Any, user_id: Any) -> bool:
    if not isinstance(note, dict) or note.get("system"):
        return False
    author = note.get("author")
    if not isinstance(author, dict):
        return False
    body = note.get("body")
    return author.get("id") == user_id and isinstance(body, str) \
        and body.lstrip().startswith(COMMENT_MARKER)


def upsert_note(client: GitLabClient, project: str, mr: int, body: str) -> Outcome:
    user = client.get("user")
    if not isinstance(user, dict) or "id" not in user:
        raise GitLabError("GET user: unexpected response (no user id)")
    path = notes_path(project, mr)
    ours = sorted((n for n in client.paginate(path, sort="asc", order_by="created_at")
                   if _ours(n, user["id"])), key=lambda n: int(n["id"]))
    if not ours:
        created = client.post(path, {"body": body})
        if not isinstance(created, dict) or "id" not in created:
            raise GitLabError(f"POST {path}: unexpected response (no note id)")
        return Outcome("created", int(created["id"]))
    keep, extra = ours[0], ours[1:]
    deleted = 0
    for note in extra:
        try:
            client.delete(f"{path}/{int(note['id'])}")
            deleted += 1
        except GitLabError as exc:
            if exc.status != 404:  # another run deleted it first
                raise
    if keep.get("body") == body:
        return Outcome("unchanged", int(keep["id"]), deleted)
    client.put(f"{path}/{int(keep['id'])}", {"body": body})
    return Outcome("updated", int(keep["id"]), deleted)
