"""A fake GitHub API on 127.0.0.1 for tests.

It implements the few endpoints gpulint uses, with GitHub's shapes: issue comments (list
with ``per_page``/``page`` and a real ``Link`` header, get, create, update, delete), PR
commits (paginated), ``GET /user`` and a GraphQL endpoint that understands
``minimizeComment``.  It can also serve under ``/api/v3`` like GitHub Enterprise Server.

Faults are queued with :meth:`FakeGitHub.inject` and consumed by the next matching requests:
5xx responses, dropped connections, 403 (read-only token), primary and secondary rate limits.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loopback_api import LoopbackAPI


@dataclass
class Fault:
    # status | drop | drop-after | primary | secondary | secondary-no-header | echo | foreign-link
    kind: str
    status: int = 502
    method: str | None = None
    path_re: str | None = None
    remaining: int = 1
    seconds: float = 1.0


@dataclass
class Token:
    login: str
    write: bool = True
    user_endpoint: bool = True  # False: /user is forbidden, like the Actions GITHUB_TOKEN


@dataclass
class State:
    # "owner/repo#n" -> comments
    comments: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # "owner/repo#n" -> shas oldest first
    commits: dict[str, list[str]] = field(default_factory=dict)
    minimized: set[str] = field(default_factory=set)
    next_id: int = 1000
    requests: list[tuple[str, str]] = field(default_factory=list)


class FakeGitHub(LoopbackAPI):
    METHODS = ("GET", "POST", "PATCH", "DELETE")

    def __init__(self, *, prefix: str = "", create_delay: float = 0.0) -> None:
        self.prefix = prefix.rstrip("/")
        self.state = State()
        self.tokens: dict[str, Token] = {}
        self.faults: list[Fault] = []
        self.lock = threading.RLock()
        self.create_delay = create_delay
        self.clock = time.time
        super().__init__()

    @property
    def api_url(self) -> str:
        return self.origin + self.prefix

    # -- setup helpers ------------------------------------------------------------------

    def add_token(self, token: str, login: str, *, write: bool = True,
                  user_endpoint: bool = True) -> None:
        self.tokens[token] = Token(login, write, user_endpoint)

    def set_commits(self, repo: str, pr: int, shas: list[str]) -> None:
        with self.lock:
            self.state.commits[f"{repo}#{pr}"] = list(shas)

    def add_comment(self, repo: str, pr: int, body: str, login: str) -> dict[str, Any]:
        with self.lock:
            return self._create(repo, pr, body, login)

    def comments(self, repo: str, pr: int) -> list[dict[str, Any]]:
        with self.lock:
            return [dict(c) for c in self.state.comments.get(f"{repo}#{pr}", [])]

    def inject(self, kind: str, *, times: int = 1, status: int = 502, method: str | None = None,
               path: str | None = None, seconds: float = 1.0) -> None:
        with self.lock:
            self.faults.append(Fault(kind, status, method, path, times, seconds))

    def count(self, method: str, path_re: str = "") -> int:
        with self.lock:
            return sum(1 for m, p in self.state.requests if m == method and re.search(path_re, p))

    # -- internals ----------------------------------------------------------------------

    def _create(self, repo: str, pr: int, body: str, login: str) -> dict[str, Any]:
        self.state.next_id += 1
        cid = self.state.next_id
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        comment = {
            "id": cid,
            "node_id": f"IC_fake{cid}",
            "body": body,
            "user": {"login": login, "type": "Bot" if login.endswith("[bot]") else "User"},
            "created_at": now,
            "updated_at": now,
            "html_url": f"https://github.example/{repo}/pull/{pr}#issuecomment-{cid}",
            "issue_url": f"{self.api_url}/repos/{repo}/issues/{pr}",
        }
        self.state.comments.setdefault(f"{repo}#{pr}", []).append(comment)
        return comment

    def _find(self, repo: str, cid: int) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
        for key, items in self.state.comments.items():
            if key.startswith(repo + "#"):
                for c in items:
                    if c["id"] == cid:
                        return items, c
        return None

    def _take_fault(self, method: str, path: str) -> Fault | None:
        with self.lock:
            for f in self.faults:
                if f.remaining > 0 and (f.method is None or f.method == method) and (
                    f.path_re is None or re.search(f.path_re, path)
                ):
                    f.remaining -= 1
                    return f
        return None

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        method = h.command
        split = urlsplit(h.path)
        path = split.path
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        with self.lock:
            self.state.requests.append((method, h.path))

        fault = self._take_fault(method, path)
        if fault is not None:
            if fault.kind == "drop":
                h.close_connection = True
                return  # close without a response: the client sees RemoteDisconnected
            if fault.kind == "status":
                return self._send(h, fault.status, {"message": "Server Error"})
            if fault.kind == "primary":
                reset = int(self.clock() + fault.seconds)
                return self._send(h, 403, {"message": "API rate limit exceeded"},
                                  {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)})
            if fault.kind == "secondary":
                return self._send(h, 403, {"message": "You have exceeded a secondary rate limit."},
                                  {"retry-after": str(int(fault.seconds))})
            if fault.kind == "secondary-no-header":
                return self._send(h, 429, {"message": "You have exceeded a secondary rate limit."})
            if fault.kind == "echo":  # a misbehaving proxy that reflects the request headers
                return self._send(h, fault.status,
                                  {"message": f"bad request, headers were {dict(h.headers)}"})
            if fault.kind == "foreign-link":
                return self._send(h, 200, [],
                                  {"Link": '<http://evil.invalid/steal?page=2>; rel="next"'})
            if fault.kind == "drop-after":  # do the work, then lose the response
                h._drop_response = True  # type: ignore[attr-defined]

        auth = h.headers.get("Authorization", "")
        m = re.fullmatch(r"(?:Bearer|token) (.+)", auth)
        token = self.tokens.get(m.group(1)) if m else None
        if token is None:
            return self._send(h, 401, {"message": "Bad credentials"})

        graphql = self.prefix.rsplit("/v3", 1)[0] + "/graphql" if self.prefix else "/graphql"
        if path == graphql:
            return self._graphql(h, token, raw)
        if not path.startswith(self.prefix + "/"):
            return self._send(h, 404, {"message": "Not Found"})
        path = path[len(self.prefix):]

        if path == "/user" and method == "GET":
            if not token.user_endpoint:
                return self._send(h, 403, {"message": "Resource not accessible by integration"})
            return self._send(h, 200, {"login": token.login})

        if method != "GET" and not token.write:
            return self._send(h, 403, {"message": "Resource not accessible by integration"})

        body = json.loads(raw) if raw else None
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/(\d+)/comments", path)
        if m:
            repo, pr = m.group(1), int(m.group(2))
            if method == "GET":
                with self.lock:
                    items = [dict(c) for c in self.state.comments.get(f"{repo}#{pr}", [])]
                return self._page(h, path, query, items)
            if method == "POST":
                if self.create_delay:
                    time.sleep(self.create_delay)
                with self.lock:
                    created = dict(self._create(repo, pr, body["body"], token.login))
                return self._send(h, 201, created)
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/issues/comments/(\d+)", path)
        if m:
            repo, cid = m.group(1), int(m.group(2))
            with self.lock:
                found = self._find(repo, cid)
                if found is None:
                    return self._send(h, 404, {"message": "Not Found"})
                items, comment = found
                if method == "GET":
                    return self._send(h, 200, dict(comment))
                if comment["user"]["login"] != token.login:
                    return self._send(h, 403, {"message": "Must have admin rights to Repository."})
                if method == "PATCH":
                    comment["body"] = body["body"]
                    comment["updated_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
                    return self._send(h, 200, dict(comment))
                if method == "DELETE":
                    items.remove(comment)
                    return self._send(h, 204, None)
        m = re.fullmatch(r"/repos/([^/]+/[^/]+)/pulls/(\d+)/commits", path)
        if m and method == "GET":
            with self.lock:
                shas = list(self.state.commits.get(f"{m.group(1)}#{int(m.group(2))}", []))
            commits = [{"sha": s, "commit": {"message": "x"}} for s in shas]
            return self._page(h, path, query, commits)
        return self._send(h, 404, {"message": "Not Found"})

    def _page(self, h: BaseHTTPRequestHandler, path: str, query: dict[str, str],
              items: list[Any]) -> None:
        per_page = max(1, min(100, int(query.get("per_page", "30"))))
        page = max(1, int(query.get("page", "1")))
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page: page * per_page]
        links = []
        url = f"{self.origin}{self.prefix}{path}"
        if page < last:
            links.append(f'<{url}?per_page={per_page}&page={page + 1}>; rel="next"')
            links.append(f'<{url}?per_page={per_page}&page={last}>; rel="last"')
        if page > 1:
            links.append(f'<{url}?per_page={per_page}&page=1>; rel="first"')
            links.append(f'<{url}?per_page={per_page}&page={page - 1}>; rel="prev"')
        return self._send(h, 200, chunk, {"Link": ", ".join(links)} if links else None)

    def _graphql(self, h: BaseHTTPRequestHandler, token: Token, raw: bytes) -> None:
        req = json.loads(raw or b"{}")
        if "minimizeComment" not in req.get("query", ""):
            return self._send(h, 200, {"errors": [{"message": "unsupported query"}]})
        if not token.write:
            return self._send(h, 200, {"data": {"minimizeComment": None},
                                       "errors": [{"type": "FORBIDDEN", "message":
                                                   "Resource not accessible by integration"}]})
        variables = req.get("variables") or {}
        node = variables.get("id")
        with self.lock:
            exists = any(c["node_id"] == node
                         for items in self.state.comments.values() for c in items)
            if exists:
                self.state.minimized.add(node)
        if not exists:
            return self._send(h, 200, {"data": {"minimizeComment": None},
                                       "errors": [{"type": "NOT_FOUND", "message":
                                                   "Could not resolve to a node with the global "
                                                   f"id of '{node}'"}]})
        minimized = {"minimizeComment": {"minimizedComment": {"isMinimized": True}}}
        return self._send(h, 200, {"data": minimized})

    def _send(self, h: BaseHTTPRequestHandler, status: int, payload: Any,
              headers: dict[str, str] | None = None) -> None:
        if getattr(h, "_drop_response", False):
            h.close_connection = True
            return
        data = b"" if payload is None else json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json; charset=utf-8")
        h.send_header("Content-Length", str(len(data)))
        if "x-ratelimit-remaining" not in (headers or {}):
            h.send_header("x-ratelimit-remaining", "4999")
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        if data:
            h.wfile.write(data)
