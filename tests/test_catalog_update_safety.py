"""`gpulint catalog update` cannot be steered by what it scans or by the server (issue 30): the
source never comes from a checkout's configuration, one deadline covers the whole download (a
server dripping a byte at a time), a redirect to another host is refused unless allowed, and
control characters in names are escaped when printed. Loopback servers only."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_catalog_update import NAMES, NEW_ROW, Site, data_dir, run, site, tables  # noqa: F401

pytestmark = pytest.mark.usefixtures("data_dir")


class _Odd(http.server.BaseHTTPRequestHandler):
    """/drip/<table>: a 1 MB body sent a byte every 50 ms; /hop/<table>: a 302 to
    `target` + the same table."""

    target = ""

    def do_GET(self) -> None:
        if self.path.startswith("/hop/"):
            self.send_response(302)
            self.send_header("Location", self.target + self.path[len("/hop"):])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", str(1 << 20))
        self.end_headers()
        try:
            for _ in range(1 << 20):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(0.05)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def odd() -> Iterator[tuple[str, type[_Odd]]]:
    handler = type("Handler", (_Odd,), {})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()


def test_a_dripping_server_cannot_outlast_the_deadline(odd: tuple[str, type[_Odd]]) -> None:
    start = time.monotonic()
    code, _, err = run("catalog", "update", "--source", f"http://{odd[0]}/drip",
                       "--timeout", "2")
    assert code == 1 and "deadline" in err
    assert time.monotonic() - start < 6


def test_a_redirect_to_another_host_is_refused_unless_allowed(
        site: Site, odd: tuple[str, type[_Odd]]) -> None:  # noqa: F811
    # A table that differs from the bundled one, so an update that gets through installs it.
    good = site.publish("mirror", tables(lambda n, t: t + NEW_ROW if n == "aws/vms.csv" else t))
    odd[1].target = good.replace("127.0.0.1", "localhost")  # the same server, another host
    code, _, err = run("catalog", "update", "--source", f"http://{odd[0]}/hop")
    assert code == 1 and "redirected to another host (http://localhost:" in err
    assert site.requests == []
    code, out, err = run("catalog", "update", "--source", f"http://{odd[0]}/hop",
                         "--allow-redirects")
    assert code == 0, err
    code, out, _ = run("catalog", "info", "--format", "json")
    assert "localhost" in out  # the source recorded is where the tables came from


def test_a_redirect_within_the_host_is_followed(site: Site,  # noqa: F811
                                                odd: tuple[str, type[_Odd]]) -> None:
    host = odd[0]
    odd[1].target = f"http://{host}/drip"  # same host: followed (then the drip's deadline)
    code, _, err = run("catalog", "update", "--source", f"http://{host}/hop", "--timeout", "1")
    assert code == 1 and "deadline" in err and "another host" not in err


def test_a_checkouts_configuration_does_not_choose_the_source(
        site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    hostile = site.publish("hostile", tables())
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gpulint.yaml").write_text(f"catalog:\n  source: {hostile}\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GPULINT_CATALOG_SOURCE", str(tmp_path / "no-such-dir"))
    code, _, err = run("catalog", "update")
    assert code == 2 and site.requests == []  # the environment's source, not the checkout's
    assert "catalog.source of" in err and "is not used" in err
    monkeypatch.delenv("GPULINT_CATALOG_SOURCE")
    mine = tmp_path / "mine.yaml"
    mine.write_text(f"catalog:\n  source: {site.publish('mine', tables())}\n")
    code, _, err = run("catalog", "update", "--config", str(mine))
    assert code == 0, err
    assert site.requests and all(r.startswith("/mine/") for r in site.requests)


def test_control_characters_in_names_are_escaped(site: Site) -> None:  # noqa: F811
    row = ("p9\x1b[2J\x07evil.xlarge,H100,8,96,1152,\"{'Gpus': [{'Name': 'H100', "
           "'MemoryInfo': {'SizeInMiB': 81559}}]}\",41.61,,us-east-1,us-east-1a\n")
    base = site.publish("ctl", tables(lambda n, t: t + row if n == "aws/vms.csv" else t))
    code, out, err = run("catalog", "update", "--source", base, "--force")
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert code == 0 and "p9\\x1b[2J\\x07evil.xlarge" in out, (code, out, err)
