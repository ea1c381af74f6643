"""`gpulint catalog update`: download price tables, derive and check a catalog, install it.

The only network access gpulint makes. Downloads go through urllib, so the standard
environment variables apply: HTTPS_PROXY / HTTP_PROXY / NO_PROXY for proxies, SSL_CERT_FILE /
SSL_CERT_DIR for OpenSSL's trust store, and REQUESTS_CA_BUNDLE or CURL_CA_BUNDLE (what pip
and requests users already set) for a company CA bundle. Any failure raises UpdateError with a
one-line message and installs nothing, so the catalog in use stays in use.

One deadline covers the whole download (a server that drips a byte at a time cannot hold the
update past it), and a redirect to another host is refused unless allowed (`--allow-redirects`):
the source recorded in the catalog is the host the tables came from.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import os
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpulint.catalog_build.tables import OPTIONAL_TABLES, TABLES, TableError

DEFAULT_SOURCE = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8"
ENV_SOURCE = "GPULINT_CATALOG_SOURCE"
DEFAULT_TIMEOUT = 60.0
MAX_TABLE_BYTES = 512 * 1024 * 1024  # SkyPilot's AWS table is tens of MB; this stops a runaway
CHUNK = 1 << 20


class UpdateError(Exception):
    """The update failed; the message is one line and the previous catalog stays in use."""


@dataclass
class Fetched:
    text: str
    url: str
    date: str | None  # the Last-Modified date, when the server sends one
    sha256: str


@dataclass
class Outcome:
    installed: Path | None
    lines: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    seconds: float = 0.0
    unchanged: bool = False  # same prices as the catalog in use: nothing installed


def default_source(configured: str | None = None) -> str:
    """$GPULINT_CATALOG_SOURCE, else the configuration's catalog.source, else SkyPilot's."""
    return os.environ.get(ENV_SOURCE) or configured or DEFAULT_SOURCE


def check_source(base: str) -> str:
    """An http(s) or file URL, or a local directory; anything else is a usage error."""
    base = base.strip().rstrip("/")
    scheme = urllib.parse.urlsplit(base).scheme.lower()
    if scheme in ("http", "https") and urllib.parse.urlsplit(base).netloc:
        return base
    if scheme == "file" or ((not scheme or len(scheme) == 1) and Path(base).is_dir()):
        return base if scheme == "file" else Path(base).resolve().as_uri()
    raise ValueError(f"--source must be an http(s) URL or a directory of tables, got {base!r}")


class _SameHost(urllib.request.HTTPRedirectHandler):
    """Redirects within the source's host (and scheme) only, unless other hosts are allowed."""

    def __init__(self, allow_hosts: bool) -> None:
        self.allow_hosts = allow_hosts

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> Any:
        old, new = urllib.parse.urlsplit(req.full_url), urllib.parse.urlsplit(newurl)
        if not self.allow_hosts and (old.scheme, old.netloc) != (new.scheme, new.netloc):
            raise UpdateError(f"{req.full_url}: redirected to another host ({new.scheme}://"
                              f"{new.netloc}); give that URL as --source, or --allow-redirects")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener(allow_redirects: bool = False) -> urllib.request.OpenerDirector:
    cafile = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or None
    try:
        context = ssl.create_default_context(cafile=cafile)
    except (OSError, ssl.SSLError) as e:
        raise UpdateError(f"cannot read the CA bundle {cafile}: {e}") from None
    # ProxyHandler() with no argument reads *_PROXY and NO_PROXY from the environment.
    return urllib.request.build_opener(urllib.request.ProxyHandler(),
                                       urllib.request.HTTPSHandler(context=context),
                                       _SameHost(allow_redirects))


def _date(header: str | None) -> str | None:
    try:
        parsed = email.utils.parsedate_to_datetime(header) if header else None
    except (TypeError, ValueError):
        return None
    return parsed.date().isoformat() if parsed else None


def _read(response: Any, url: str, deadline: float) -> bytes:
    expected = response.headers.get("Content-Length")
    chunks, size = [], 0
    read = getattr(response, "read1", response.read)  # what has arrived: a drip cannot hold it
    while chunk := read(CHUNK):
        if time.monotonic() > deadline:
            raise UpdateError(f"{url}: the download did not finish within the deadline")
        size += len(chunk)
        if size > MAX_TABLE_BYTES:
            raise UpdateError(f"{url}: larger than {MAX_TABLE_BYTES >> 20} MiB, not a price table")
        chunks.append(chunk)
    if expected and expected.isdigit() and int(expected) != size:
        raise UpdateError(f"{url}: download cut short ({size} of {expected} bytes)")
    return b"".join(chunks)


def fetch(opener: urllib.request.OpenerDirector, url: str, timeout: float,
          deadline: float | None = None) -> Fetched | None:
    """The table at ``url``; None when the server says it does not exist (404). `timeout`
    bounds each wait for the server, `deadline` (a monotonic time) the whole download."""
    deadline = time.monotonic() + timeout if deadline is None else deadline
    left = deadline - time.monotonic()
    if left <= 0:
        raise UpdateError(f"{url}: not fetched, the deadline has passed")
    try:
        with opener.open(urllib.request.Request(url, headers={"User-Agent": "gpulint"}),
                         timeout=min(timeout, left)) as response:
            kind = response.headers.get("Content-Type", "")
            body = _read(response, url, deadline)
            url = response.geturl() or url
            modified = _date(response.headers.get("Last-Modified"))
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise UpdateError(f"{url}: HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        reason = e.reason
        if isinstance(reason, (socket.timeout, TimeoutError)):
            raise UpdateError(f"{url}: no answer within {timeout:g} s (timed out)") from None
        if isinstance(reason, FileNotFoundError):
            return None
        raise UpdateError(f"{url}: {reason}") from None
    except TimeoutError:
        raise UpdateError(f"{url}: no answer within {timeout:g} s (timed out)") from None
    except (OSError, ValueError) as e:  # connection reset, IncompleteRead, bad URL
        raise UpdateError(f"{url}: {type(e).__name__}: {e}") from None
    if "html" in kind.lower():
        raise UpdateError(f"{url}: got an HTML page ({kind.split(';')[0]}), not a CSV table")
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UpdateError(f"{url}: not UTF-8 text, not a CSV table") from None
    return Fetched(text, url, modified, hashlib.sha256(body).hexdigest())


def fetch_all(base: str, timeout: float, deadline: float | None = None,
              allow_redirects: bool = False) -> dict[str, Fetched | None]:
    opener = _opener(allow_redirects)
    deadline = time.monotonic() + timeout if deadline is None else deadline
    out: dict[str, Fetched | None] = {}
    for name in TABLES:
        got = fetch(opener, f"{base}/{name}", timeout, deadline)
        if got is None and name not in OPTIONAL_TABLES:
            raise UpdateError(f"{base}/{name}: not found (HTTP 404); is --source the directory "
                              "that holds aws/, gcp/ and azure/?")
        out[name] = got
    return out


def sources(base: str, fetched: dict[str, Fetched | None], today: str,
            known: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Each table's provenance. Its date: the Last-Modified header, else the date the catalog in
    use gives the same bytes (a mirror of old tables is not today's data), else today."""
    known = known or {}
    return [{"name": name, "base": base, "url": got.url,
             "date": got.date or known.get(got.sha256) or today,
             "date_note": "Last-Modified header" if got.date else
             "the same table's date in the catalog in use" if got.sha256 in known else
             "download date (the server sent no Last-Modified date)", "sha256": got.sha256}
            for name, got in fetched.items() if got is not None]


def update(base: str, *, force: bool = False, timeout: float = DEFAULT_TIMEOUT,
           now: dt.datetime | None = None, allow_redirects: bool = False) -> Outcome:
    """Download, derive, check and install; raises UpdateError on any failure. `timeout` is
    one deadline for every download together."""
    from gpulint.catalog_build.build import derive, render
    from gpulint.catalog_build.checks import guard, invariants, summary
    from gpulint.catalog_build.common import BuildError, Known
    from gpulint.pricing import catalog, catalog_store

    start = time.monotonic()
    now = now or dt.datetime.now(dt.timezone.utc)
    fetched = fetch_all(base, timeout, start + timeout, allow_redirects)
    previous = catalog.use_catalog_file(None).data
    dated = {str(s["sha256"]): str(s["date"]) for s in previous.get("sources", [])
             if isinstance(s, dict) and s.get("sha256") and s.get("date")}
    srcs = sources(base, fetched, now.date().isoformat(), dated)
    # The date of the data: the newest of the tables' dates.
    snapshot = max(s["date"] for s in srcs)
    try:
        new = derive({n: (g.text if g else "") for n, g in fetched.items()}, srcs, snapshot,
                     Known.from_catalog(previous))
    except (TableError, BuildError) as e:
        raise UpdateError(f"refusing the new tables: {e}") from None
    problems = invariants(new)
    if problems:
        raise UpdateError(f"refusing the new catalog: {problems[0]} "
                          f"({len(problems)} problem(s))")
    outcome = Outcome(installed=None, lines=summary(previous, new))
    if new["providers"] == previous.get("providers"):  # the same prices: keep what is in use
        outcome.unchanged = True
        outcome.seconds = time.monotonic() - start
        return outcome
    outcome.refused = guard(previous, new)
    if outcome.refused and not force:
        outcome.seconds = time.monotonic() - start
        return outcome
    outcome.installed = catalog_store.install(render(new), now)
    catalog.forget_installed()
    outcome.seconds = time.monotonic() - start
    return outcome
