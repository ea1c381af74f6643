"""The scaffold the fake APIs share (github_fake.py, gitlab_fake.py): a threaded HTTP server on
127.0.0.1 whose every request goes to the fake's ``_handle``, started and stopped as a context
manager."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

Self = TypeVar("Self", bound="LoopbackAPI")


class LoopbackAPI:
    METHODS: tuple[str, ...] = ()  # the HTTP methods the API answers; others get 501

    def __init__(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _any(self) -> None:
                fake._handle(self)

        for method in self.METHODS:
            setattr(Handler, f"do_{method}", Handler._any)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError

    @property
    def origin(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self: Self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
