"""What keeps the GitHub token home: a holder that never prints it, a check that it can be sent
as a header, and an opener that does not follow redirects (urllib would resend the
Authorization header to whatever host a Location names)."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any


class Secret:
    """Holds the token; its repr/str never show it, so ``vars(client)`` is safe to print."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<secret>"

    __str__ = __repr__

    def __reduce__(self) -> Any:
        raise TypeError("the GitHub token cannot be pickled")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Turns every 3xx into an HTTPError instead of following it with the same headers."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


NO_REDIRECTS = urllib.request.build_opener(_NoRedirect)


def exchange(req: urllib.request.Request, timeout: float) -> tuple[int, dict[str, str], bytes]:
    """One request without following redirects: (status, lower-cased headers, body). An HTTP
    error status is a response like any other; a connection failure raises (URLError,
    HTTPException, ConnectionError, TimeoutError) for the caller's retry policy."""
    try:
        with NO_REDIRECTS.open(req, timeout=timeout) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as exc:
        headers = {k.lower(): v for k, v in (exc.headers or {}).items()}
        try:
            raw = exc.read()
        except Exception:  # a body we cannot read is just empty
            raw = b""
        finally:
            exc.close()
        return exc.code, headers, raw


def clean_token(token: str | None) -> str | None:
    """The token without the surrounding whitespace a secret file or `echo` leaves; a token
    that still cannot go into an HTTP header is refused without showing it."""
    if token is None:
        return None
    token = token.strip()
    if any(not (0x21 <= ord(ch) <= 0x7E) for ch in token):
        raise ValueError("the GitHub token contains spaces, control or non-ASCII characters; "
                         "check how it is passed (the token is not shown)")
    return token or None
