"""The GitHub client never carries its token across a redirect, and never shows a token that
cannot be sent. Loopback servers only."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from typing import ClassVar

import pytest

from gpulint.github.api import GitHubClient, GitHubError

TOKEN = "ghs_redirectTestToken0123456789"


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[str | None]] = []

    def do_GET(self) -> None:
        type(self).seen.append(self.headers.get("Authorization"))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> http.server.HTTPServer:
    server = http.server.HTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def other_host() -> Iterator[http.server.HTTPServer]:
    _Recorder.seen = []
    server = _serve(_Recorder)
    yield server
    server.shutdown()


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirect_is_not_followed_and_the_token_stays_home(
        other_host: http.server.HTTPServer, status: int) -> None:
    target = f"http://127.0.0.1:{other_host.server_port}/steal"

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(status)
            self.send_header("Location", target)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    api = _serve(Redirect)
    try:
        client = GitHubClient(TOKEN, f"http://127.0.0.1:{api.server_port}", max_retries=0)
        with pytest.raises(GitHubError) as err:
            client.get("/repos/o/r/issues/1/comments")
    finally:
        api.shutdown()
    assert f"unexpected redirect (HTTP {status})" in str(err.value)
    assert _Recorder.seen == []  # the other host never heard from us
    assert TOKEN not in str(err.value)


def test_trailing_newline_of_a_token_is_dropped(other_host: http.server.HTTPServer) -> None:
    client = GitHubClient(TOKEN + "\n", f"http://127.0.0.1:{other_host.server_port}")
    client.get("/user")
    assert _Recorder.seen == [f"Bearer {TOKEN}"]


@pytest.mark.parametrize("bad", [TOKEN + "\nX-Evil: 1", "ghs_tok en", "ghs_tøken"])
def test_a_token_that_cannot_be_sent_is_refused_without_showing_it(bad: str) -> None:
    with pytest.raises(ValueError) as err:
        GitHubClient(bad, "http://127.0.0.1:9")
    assert "token" in str(err.value) and bad.strip() not in str(err.value)
