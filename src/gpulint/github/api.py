"""A small GitHub REST/GraphQL client on top of ``urllib`` (no extra dependencies).

* Base URL from ``GITHUB_API_URL`` (GitHub Enterprise Server) or ``https://api.github.com``.
* Retries with exponential backoff on 5xx responses and connection errors.
* Honours the primary rate limit (``x-ratelimit-remaining: 0`` + ``x-ratelimit-reset``) and
  secondary rate limits (``retry-after``) as long as the wait is below ``max_wait`` seconds;
  longer waits raise :class:`RateLimitError` instead of stalling CI for an hour.
* Follows ``Link: <…>; rel="next"`` pagination, only to the API's own origin so the token is
  never sent to another host.
* The token is kept out of ``repr``, exception messages and log records: any text that could
  echo it is scrubbed.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gpulint.github.credentials import Secret, clean_token, exchange

log = logging.getLogger("gpulint.github")

DEFAULT_API_URL = "https://api.github.com"
USER_AGENT = "gpulint-github-client"
_RETRY_STATUSES = {500, 502, 503, 504}
_LINK_RE = re.compile(r'<([^>]+)>\s*;\s*rel="?([^";]+)"?')


class GitHubError(Exception):
    """An API call failed.  ``status`` is the HTTP status (``None`` for network errors)."""

    def __init__(
        self, message: str, status: int | None = None, *, method: str = "", path: str = ""
    ) -> None:
        super().__init__(message)
        self.status = status
        self.method = method
        self.path = path

    @property
    def forbidden(self) -> bool:
        return self.status == 403


class RateLimitError(GitHubError):
    """A rate limit would need a longer wait than the client is allowed to sleep."""


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    data: Any = None
    links: dict[str, str] = field(default_factory=dict)


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _now() -> float:
    return time.time()


def parse_link_header(value: str | None) -> dict[str, str]:
    """``{"next": url, "last": url, …}`` from an RFC 8288 ``Link`` header."""
    links: dict[str, str] = {}
    for part in (value or "").split(","):
        m = _LINK_RE.search(part)
        if m:
            links[m.group(2).strip()] = m.group(1).strip()
    return links


def graphql_url_for(api_url: str) -> str:
    """``https://api.github.com/graphql`` or ``https://ghe/api/graphql`` for ``…/api/v3``."""
    base = api_url.rstrip("/")
    if base.endswith("/api/v3"):
        return base[: -len("/v3")] + "/graphql"
    return base + "/graphql"


class GitHubClient:
    """Minimal GitHub API client.

    ``sleep`` and ``clock`` are injectable so tests run without real waiting.
    """

    def __init__(
        self,
        token: str | None,
        api_url: str | None = None,
        *,
        graphql_url: str | None = None,
        sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None,
        max_retries: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_wait: float = 90.0,
        timeout: float = 30.0,
    ) -> None:
        self.api_url = (api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API_URL).rstrip("/")
        self.graphql_url = (
            graphql_url or os.environ.get("GITHUB_GRAPHQL_URL") or graphql_url_for(self.api_url)
        )
        token = clean_token(token)
        self.__token = Secret(token) if token else None
        # Looked up at call time so tests can patch time.sleep / time.time.
        self._sleep = sleep if sleep is not None else _sleep
        self._clock = clock if clock is not None else _now
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_wait = max_wait
        self.timeout = timeout
        parsed = urllib.parse.urlsplit(self.api_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("api_url must be an http(s) URL")
        self._origin = f"{parsed.scheme}://{parsed.netloc}".lower()

    # -- safety -----------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"GitHubClient(api_url={self.api_url!r}, token={'set' if self.__token else 'unset'})"

    __str__ = __repr__

    def __getstate__(self) -> dict[str, Any]:  # never pickle the token
        state = dict(self.__dict__)
        state.pop("_GitHubClient__token", None)
        return state

    @property
    def has_token(self) -> bool:
        return self.__token is not None

    def scrub(self, text: str) -> str:
        """Remove the token from ``text``."""
        if self.__token and self.__token.reveal() in text:
            text = text.replace(self.__token.reveal(), "***")
        return text

    # -- core -------------------------------------------------------------------------

    def _url(self, path_or_url: str, params: dict[str, Any] | None) -> str:
        if path_or_url.startswith(("http://", "https://")):
            url = path_or_url
        else:
            url = self.api_url + "/" + path_or_url.lstrip("/")
        if params:
            sep = "&" if "?" in url else "?"
            url += sep + urllib.parse.urlencode(params)
        return url

    def _same_origin(self, url: str) -> bool:
        parsed = urllib.parse.urlsplit(url)
        return f"{parsed.scheme}://{parsed.netloc}".lower() == self._origin

    def _headers(self, has_body: bool) -> dict[str, str]:
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": USER_AGENT,
        }
        if self.__token:
            headers["Authorization"] = f"Bearer {self.__token.reveal()}"
        if has_body:
            headers["Content-Type"] = "application/json; charset=utf-8"
        return headers

    def _error(
        self,
        message: str,
        status: int | None,
        method: str,
        path: str,
        cls: type[GitHubError] = GitHubError,
    ) -> GitHubError:
        return cls(self.scrub(message), status, method=method, path=self.scrub(path))

    def _rate_limit_wait(
        self, status: int, headers: dict[str, str], body_text: str
    ) -> float | None:
        """Seconds to wait for a rate limit, or ``None`` if the response is not one."""
        if status not in (403, 429):
            return None
        retry_after = headers.get("retry-after")
        if retry_after is not None:
            try:
                return max(0.0, float(retry_after))
            except ValueError:
                return 60.0
        if headers.get("x-ratelimit-remaining") == "0":
            try:
                reset = float(headers.get("x-ratelimit-reset", "0"))
            except ValueError:
                reset = 0.0
            return max(0.0, reset - self._clock()) + 1.0
        if "secondary rate limit" in body_text.lower():
            return 60.0
        if status == 429:
            return 60.0
        return None

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json_body: Any = None,
        url: str | None = None,
    ) -> Response:
        """Send one API request (with retries) and return the decoded response."""
        target = url or self._url(path, params)
        if not self._same_origin(target) and target != self.graphql_url:
            raise self._error(
                "refusing to send credentials to a different host", None, method, path
            )
        body = None if json_body is None else json.dumps(json_body).encode("utf-8")
        attempt = 0
        rate_waits = 0
        while True:
            sent = self._headers(body is not None)
            req = urllib.request.Request(target, data=body, method=method, headers=sent)
            try:
                status, headers, raw = exchange(req, self.timeout)
            except (
                urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError
            ) as exc:
                reason = getattr(exc, "reason", None) or exc.__class__.__name__
                if attempt < self.max_retries:
                    delay = min(self.max_backoff, self.backoff * (2**attempt))
                    log.warning(
                        "%s %s: connection error (%s); retrying in %.1fs",
                        method, self.scrub(path), self.scrub(str(reason)), delay,
                    )
                    attempt += 1
                    self._sleep(delay)
                    continue
                raise self._error(
                    f"{method} {path}: connection failed: {reason}", None, method, path
                ) from None

            text = raw.decode("utf-8", "replace") if raw else ""
            if 300 <= status < 400:
                # Redirects are not followed: urllib would resend the token to wherever the
                # Location points. The API does not redirect the calls this client makes.
                where = urllib.parse.urlsplit(headers.get("location", "")).netloc or "?"
                raise self._error(f"{method} {path}: unexpected redirect (HTTP {status}) to "
                                  f"{where}, not followed", status, method, path) from None
            if status < 400:
                data: Any = None
                if text.strip():
                    try:
                        data = json.loads(text)
                    except ValueError:
                        data = text
                return Response(status, headers, data, parse_link_header(headers.get("link")))

            wait = self._rate_limit_wait(status, headers, text)
            if wait is not None:
                if wait > self.max_wait or rate_waits >= self.max_retries:
                    raise self._error(
                        f"{method} {path}: rate limited by GitHub (would need to wait {wait:.0f}s)",
                        status, method, path, RateLimitError,
                    ) from None
                log.warning("%s %s: rate limited; waiting %.1fs", method, self.scrub(path), wait)
                rate_waits += 1
                self._sleep(wait)
                continue
            if status in _RETRY_STATUSES and attempt < self.max_retries:
                delay = min(self.max_backoff, self.backoff * (2**attempt))
                log.warning(
                    "%s %s: HTTP %s; retrying in %.1fs", method, self.scrub(path), status, delay
                )
                attempt += 1
                self._sleep(delay)
                continue
            message = ""
            try:
                message = str(json.loads(text).get("message", ""))
            except (ValueError, AttributeError):
                message = text[:200]
            raise self._error(
                f"{method} {path}: HTTP {status}: {message}".rstrip(": "), status, method, path
            ) from None

    def get(self, path: str, **params: Any) -> Any:
        return self.request("GET", path, params=params or None).data

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, json_body=body).data

    def patch(self, path: str, body: Any) -> Any:
        return self.request("PATCH", path, json_body=body).data

    def delete(self, path: str) -> None:
        self.request("DELETE", path)

    def paginate(
        self, path: str, *, per_page: int = 100, max_pages: int = 100, **params: Any
    ) -> Iterator[Any]:
        """Yield the items of every page of a list endpoint, following ``rel="next"``."""
        resp = self.request("GET", path, params={**params, "per_page": per_page})
        pages = 1
        while True:
            items = resp.data or []
            if not isinstance(items, list):
                raise self._error(f"GET {path}: expected a list", resp.status, "GET", path)
            yield from items
            nxt = resp.links.get("next")
            if not nxt or pages >= max_pages:
                return
            if not self._same_origin(nxt):
                raise self._error(
                    f"GET {path}: pagination link points to another host", resp.status, "GET", path
                )
            resp = self.request("GET", path, url=nxt)
            pages += 1

    def graphql(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        """POST a GraphQL query; raise :class:`GitHubError` when the response has errors."""
        body = {"query": query, "variables": variables or {}}
        resp = self.request("POST", "graphql", json_body=body, url=self.graphql_url)
        data = resp.data if isinstance(resp.data, dict) else {}
        if data.get("errors"):
            errors = [e for e in data["errors"] if isinstance(e, dict)]
            messages = "; ".join(str(e.get("message", e)) for e in errors)
            forbidden = any(e.get("type") in ("FORBIDDEN", "INSUFFICIENT_SCOPES") for e in errors)
            status = 403 if forbidden else resp.status
            raise self._error(f"GraphQL: {messages or 'error'}", status, "POST", "graphql")
        return data.get("data")

    def minimize_comment(self, node_id: str, classifier: str = "OUTDATED") -> bool:
        query = (
            "mutation($id: ID!, $classifier: ReportedContentClassifiers!) {"
            " minimizeComment(input: {subjectId: $id, classifier: $classifier}) {"
            " minimizedComment { isMinimized } } }"
        )
        data = self.graphql(query, {"id": node_id, "classifier": classifier}) or {}
        minimized = (data.get("minimizeComment") or {}).get("minimizedComment") or {}
        return bool(minimized.get("isMinimized"))
