"""A small GitLab REST (v4) client on ``urllib``, for merge-request notes.

* Base URL from ``CI_API_V4_URL`` (GitLab CI sets it; self-managed instances included), else
  ``https://gitlab.com/api/v4``.
* The token goes in ``PRIVATE-TOKEN`` (project, group or personal access tokens; the CI job
  token cannot write notes). It is never printed: kept in a holder whose repr hides it, and
  scrubbed from every error message.
* Redirects are never followed (urllib would resend the token to the host a ``Location``
  names), and pagination follows only links to the API's own origin.
* 5xx and dropped connections are retried with exponential backoff; 429 waits for
  ``Retry-After`` (or ``RateLimit-Reset``) when that is at most ``max_wait`` seconds.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

from gpulint.github.api import parse_link_header
from gpulint.github.credentials import Secret, clean_token, exchange

log = logging.getLogger("gpulint.gitlab")

DEFAULT_API_URL = "https://gitlab.com/api/v4"
_RETRY = {500, 502, 503, 504}


class GitLabError(Exception):
    """An API call failed; ``status`` is the HTTP status (None for network errors)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class GitLabClient:
    def __init__(self, token: str | None, api_url: str | None = None, *,
                 sleep: Callable[[float], None] | None = None, max_retries: int = 4,
                 backoff: float = 1.0, max_backoff: float = 30.0, max_wait: float = 90.0,
                 timeout: float = 30.0) -> None:
        self.api_url = (api_url or os.environ.get("CI_API_V4_URL") or DEFAULT_API_URL).rstrip("/")
        parsed = urllib.parse.urlsplit(self.api_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError("the GitLab API URL must be an http(s) URL")
        self._origin = f"{parsed.scheme}://{parsed.netloc}".lower()
        token = clean_token(token)
        self.__token = Secret(token) if token else None
        self._sleep = sleep or time.sleep
        self.max_retries, self.backoff, self.max_backoff = max_retries, backoff, max_backoff
        self.max_wait, self.timeout = max_wait, timeout

    def __repr__(self) -> str:
        return f"GitLabClient(api_url={self.api_url!r}, token={'set' if self.__token else 'unset'})"

    __str__ = __repr__

    def scrub(self, text: str) -> str:
        if self.__token and self.__token.reveal() in text:
            text = text.replace(self.__token.reveal(), "***")
        return text

    def _same_origin(self, url: str) -> bool:
        parsed = urllib.parse.urlsplit(url)
        return f"{parsed.scheme}://{parsed.netloc}".lower() == self._origin

    def _error(self, message: str, status: int | None) -> GitLabError:
        return GitLabError(self.scrub(message), status)

    def _wait(self, headers: dict[str, str]) -> float:
        """Seconds a 429 asks for: Retry-After, else until RateLimit-Reset, else 60."""
        try:
            return max(0.0, float(headers["retry-after"]))
        except (KeyError, ValueError):
            pass
        try:
            return max(0.0, float(headers["ratelimit-reset"]) - time.time()) + 1.0
        except (KeyError, ValueError):
            return 60.0

    def request(self, method: str, path: str, *, params: dict[str, Any] | None = None,
                body: Any = None, url: str | None = None) -> tuple[Any, dict[str, str]]:
        """(decoded JSON, lower-cased headers) of one call, with retries."""
        target = url or f"{self.api_url}/{path.lstrip('/')}"
        if params:
            target += ("&" if "?" in target else "?") + urllib.parse.urlencode(params)
        if not self._same_origin(target):
            raise self._error(f"{method} {path}: refusing to send the token to another host",
                              None)
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json", "User-Agent": "gpulint-gitlab-client"}
        if self.__token:
            headers["PRIVATE-TOKEN"] = self.__token.reveal()
        if data is not None:
            headers["Content-Type"] = "application/json; charset=utf-8"
        attempt = waits = 0
        while True:
            req = urllib.request.Request(target, data=data, method=method, headers=headers)
            try:
                status, got, raw = exchange(req, self.timeout)
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError,
                    TimeoutError) as exc:
                if attempt < self.max_retries:
                    self._sleep(min(self.max_backoff, self.backoff * 2 ** attempt))
                    attempt += 1
                    continue
                reason = getattr(exc, "reason", None) or type(exc).__name__
                raise self._error(f"{method} {path}: connection failed: {reason}", None) from None
            text = raw.decode("utf-8", "replace") if raw else ""
            if 300 <= status < 400:
                where = urllib.parse.urlsplit(got.get("location", "")).netloc or "?"
                raise self._error(f"{method} {path}: redirect (HTTP {status}) to {where} not "
                                  "followed; check the API URL", status)
            if status < 400:
                try:
                    return (json.loads(text) if text.strip() else None), got
                except ValueError:
                    raise self._error(f"{method} {path}: the response is not JSON",
                                      status) from None
            if status == 429 and waits < self.max_retries:
                wait = self._wait(got)
                if wait <= self.max_wait:
                    log.warning("%s %s: rate limited; waiting %.0fs", method, path, wait)
                    waits += 1
                    self._sleep(wait)
                    continue
            if status in _RETRY and attempt < self.max_retries:
                self._sleep(min(self.max_backoff, self.backoff * 2 ** attempt))
                attempt += 1
                continue
            raise self._error(f"{method} {path}: HTTP {status}{_explain(status, text)}", status)

    def get(self, path: str) -> Any:
        return self.request("GET", path)[0]

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body=body)[0]

    def put(self, path: str, body: Any) -> Any:
        return self.request("PUT", path, body=body)[0]

    def delete(self, path: str) -> None:
        self.request("DELETE", path)

    def paginate(self, path: str, *, max_pages: int = 100, **params: Any) -> Iterator[Any]:
        """Every item of a list endpoint: ``Link: rel="next"`` (same origin only), else the
        ``X-Next-Page`` header."""
        data, headers = self.request("GET", path, params={**params, "per_page": 100})
        for page in range(1, max_pages + 1):
            if not isinstance(data, list):
                raise self._error(f"GET {path}: expected a list", None)
            yield from data
            nxt = parse_link_header(headers.get("link")).get("next")
            if nxt and not self._same_origin(nxt):
                raise self._error(f"GET {path}: pagination link points to another host", None)
            if not nxt and headers.get("x-next-page", "").strip().isdigit():
                nxt = None
                data, headers = self.request("GET", path, params={
                    **params, "per_page": 100, "page": headers["x-next-page"].strip()})
                continue
            if not nxt or page == max_pages:
                return
            data, headers = self.request("GET", path, url=nxt)


def _explain(status: int, text: str) -> str:
    try:
        doc = json.loads(text)
        message = doc.get("message") or doc.get("error") if isinstance(doc, dict) else None
    except ValueError:
        message = None
    hint = {401: "the token is invalid, expired or revoked",
            403: "the token may not write notes (a project or personal access token with the "
                 "api scope and at least the Reporter role is needed; the CI job token cannot)",
            404: "no such project or merge request, or the token cannot see it"}.get(status)
    said = f": {str(message)[:200]}" if message else ""
    return said + (f" ({hint})" if hint else "")
