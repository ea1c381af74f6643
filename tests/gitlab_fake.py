"""A fake GitLab REST API (v4) on 127.0.0.1 for tests, in the manner of github_fake.py.

It serves what `gpulint comment gitlab` calls, with GitLab's shapes: ``GET /api/v4/user``,
merge-request notes (list with ``per_page``/``page``, ``Link`` and ``X-Next-Page`` headers;
create; update; delete), projects addressed by numeric id or URL-encoded path, tokens in
``PRIVATE-TOKEN``. Faults are queued with :meth:`FakeGitLab.inject`: a status (401, 403, 404,
429 with ``Retry-After``, 5xx), or a redirect to another host.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from loopback_api import LoopbackAPI

PREFIX = "/api/v4"


@dataclass
class Fault:
    kind: str  # status | redirect
    status: int
    method: str | None
    path_re: str | None
    remaining: int
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class User:
    id: int
    username: str
    write: bool = True


class FakeGitLab(LoopbackAPI):
    METHODS = ("GET", "POST", "PUT", "DELETE")

    def __init__(self, *, per_page_cap: int = 100, link_header: bool = True) -> None:
        self.users: dict[str, User] = {}
        self.projects: dict[str, str] = {}  # numeric id -> path
        self.notes: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.faults: list[Fault] = []
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.per_page_cap = per_page_cap
        self.link_header = link_header  # False: only X-Next-Page, as some proxies leave it
        self.next_id = 500
        self.lock = threading.RLock()
        super().__init__()

    @property
    def api_url(self) -> str:
        return self.origin + PREFIX

    # -- setup --------------------------------------------------------------------------

    def add_token(self, token: str, user_id: int, username: str, *, write: bool = True) -> None:
        self.users[token] = User(user_id, username, write)

    def add_project(self, project_id: int, path: str) -> None:
        self.projects[str(project_id)] = path

    def add_note(self, project_id: int, mr: int, body: str, user_id: int, username: str,
                 *, system: bool = False) -> dict[str, Any]:
        with self.lock:
            return self._create(str(project_id), mr, body, User(user_id, username), system)

    def mr_notes(self, project_id: int, mr: int) -> list[dict[str, Any]]:
        with self.lock:
            return [dict(n) for n in self.notes.get((str(project_id), mr), [])]

    def inject(self, status: int, *, times: int = 1, method: str | None = None,
               path: str | None = None, headers: dict[str, str] | None = None,
               kind: str = "status") -> None:
        with self.lock:
            self.faults.append(Fault(kind, status, method, path, times, headers or {}))

    def count(self, method: str) -> int:
        return sum(1 for m, _, _ in self.requests if m == method)

    # -- internals ----------------------------------------------------------------------

    def _create(self, project: str, mr: int, body: str, user: User,
                system: bool = False) -> dict[str, Any]:
        self.next_id += 1
        now = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
        note = {"id": self.next_id, "type": None, "body": body, "system": system,
                "author": {"id": user.id, "username": user.username, "name": user.username},
                "created_at": now, "updated_at": now, "noteable_type": "MergeRequest",
                "noteable_iid": mr, "resolvable": False}
        self.notes.setdefault((project, mr), []).append(note)
        return note

    def _fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for f in self.faults:
                if f.remaining > 0 and f.method in (None, method) and \
                        (f.path_re is None or re.search(f.path_re, path)):
                    f.remaining -= 1
                    return f
        return None

    def _project(self, raw: str) -> str | None:
        ident = unquote(raw)
        if ident in self.projects:
            return ident
        return next((k for k, v in self.projects.items() if v == ident), None)

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        split = urlsplit(h.path)
        # The raw path: a project path arrives URL-encoded (group%2Fproject).
        path, method = split.path, h.command
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        with self.lock:
            self.requests.append((method, h.path, {k.lower(): v for k, v in h.headers.items()}))
        fault = self._fault(method, path)
        if fault is not None:
            if fault.kind == "redirect":
                return self._send(h, fault.status, {"message": "moved"},
                                  {"Location": "http://evil.invalid" + h.path})
            messages = {401: "401 Unauthorized", 403: "403 Forbidden",
                        404: "404 Project Not Found", 429: "Retry later"}
            return self._send(h, fault.status,
                              {"message": messages.get(fault.status, "Internal Server Error")},
                              fault.headers)
        user = self.users.get(h.headers.get("PRIVATE-TOKEN", ""))
        if user is None:
            return self._send(h, 401, {"message": "401 Unauthorized"})
        if not path.startswith(PREFIX + "/"):
            return self._send(h, 404, {"error": "404 Not Found"})
        path = path[len(PREFIX):]
        if path == "/user" and method == "GET":
            return self._send(h, 200, {"id": user.id, "username": user.username,
                                       "name": user.username, "bot": True})
        m = re.fullmatch(r"/projects/([^/]+)/merge_requests/(\d+)/notes(?:/(\d+))?", path)
        if not m:
            return self._send(h, 404, {"error": "404 Not Found"})
        project = self._project(m.group(1))
        if project is None:
            return self._send(h, 404, {"message": "404 Project Not Found"})
        key, note_id = (project, int(m.group(2))), m.group(3)
        body = json.loads(raw) if raw else {}
        if method != "GET" and not user.write:
            return self._send(h, 403, {"message": "403 Forbidden"})
        with self.lock:
            notes = self.notes.setdefault(key, [])
            if note_id is None and method == "GET":
                return self._page(h, path, query, [dict(n) for n in notes])
            if note_id is None and method == "POST":
                return self._send(h, 201, dict(self._create(project, key[1], body["body"],
                                                            user)))
            note = next((n for n in notes if n["id"] == int(note_id or 0)), None)
            if note is None:
                return self._send(h, 404, {"message": "404 Not found"})
            if note["author"]["id"] != user.id:
                return self._send(h, 403, {"message": "403 Forbidden"})
            if method == "PUT":
                note["body"] = body["body"]
                note["updated_at"] = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
                return self._send(h, 200, dict(note))
            if method == "DELETE":
                notes.remove(note)
                return self._send(h, 204, None)
        return self._send(h, 405, {"error": "405 Method Not Allowed"})

    def _page(self, h: BaseHTTPRequestHandler, path: str, query: dict[str, str],
              items: list[Any]) -> None:
        per_page = max(1, min(self.per_page_cap, int(query.get("per_page", "20"))))
        page = max(1, int(query.get("page", "1")))
        last = max(1, -(-len(items) // per_page))
        headers = {"X-Page": str(page), "X-Per-Page": str(per_page), "X-Total": str(len(items)),
                   "X-Total-Pages": str(last), "X-Next-Page": str(page + 1) if page < last else ""}
        if self.link_header and page < last:
            rest = "&".join(f"{k}={v}" for k, v in query.items() if k not in ("page",))
            url = f"{self.origin}{PREFIX}{path}?{rest}&page={page + 1}"
            headers["Link"] = f'<{url}>; rel="next"'
        return self._send(h, 200, items[(page - 1) * per_page: page * per_page], headers)

    def _send(self, h: BaseHTTPRequestHandler, status: int, payload: Any,
              headers: dict[str, str] | None = None) -> None:
        data = b"" if payload is None else json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        if data:
            h.wfile.write(data)
