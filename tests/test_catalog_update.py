"""`gpulint catalog update` against a loopback HTTP server (never the network).

The server serves the checked-in SkyPilot-format tables (tests/data/catalog_tables), or
variants of them: new types, a 50 % price cut, a file cut short, a 404, an HTML error page, a
server too slow to answer. Every failure must leave the previous catalog in use.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.pricing import catalog

pytestmark = pytest.mark.slow

TABLES = Path(__file__).resolve().parent / "data" / "catalog_tables"
NAMES = ("aws/vms.csv", "gcp/vms.csv", "gcp/accelerators.csv", "azure/vms.csv")
P4D_US_EAST_1 = ("p4d.24xlarge,A100,8,96,1152,\"{'Gpus': [{'Name': 'A100', "
                 "'MemoryInfo': {'SizeInMiB': 40960}}]}\",")


@dataclass
class Served:
    body: bytes
    status: int = 200
    content_type: str = "text/csv; charset=utf-8"
    delay: float = 0.0
    claim_length: int | None = None  # a Content-Length larger than the body: a cut connection


@dataclass
class Site:
    files: dict[str, Served] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)
    port: int = 0

    def base(self, prefix: str) -> str:
        return f"http://127.0.0.1:{self.port}/{prefix}"

    def publish(self, prefix: str, tables: dict[str, bytes], **kw: object) -> str:
        for name, body in tables.items():
            self.files[f"/{prefix}/{name}"] = Served(body, **kw)  # type: ignore[arg-type]
        return self.base(prefix)


def _handler(site: Site) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            # Through a proxy the request line carries the whole URL: serve its path.
            path = "/" + self.path.split("://", 1)[1].split("/", 1)[1] if "://" in self.path \
                else self.path
            site.requests.append(self.path)
            served = site.files.get(path)
            if served is None:
                served = Served(b"<html><body>404 Not Found</body></html>", 404, "text/html")
            time.sleep(served.delay)
            try:
                self.send_response(served.status)
                self.send_header("Content-Type", served.content_type)
                self.send_header("Content-Length", str(served.claim_length or len(served.body)))
                self.send_header("Last-Modified", "Mon, 23 Nov 2026 06:00:00 GMT")
                self.end_headers()
                self.wfile.write(served.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    site = Site()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(site))
    server.daemon_threads = True
    site.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield site
    server.shutdown()
    server.server_close()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("GPULINT_DATA_DIR", str(tmp_path / "data"))
    catalog.forget_installed()
    catalog.use_catalog_file(None)
    yield tmp_path / "data"
    catalog.forget_installed()
    monkeypatch.undo()
    catalog.use_catalog_file(None)


def tables(edit: Callable[[str, str], str] | None = None) -> dict[str, bytes]:
    out = {}
    for name in NAMES:
        text = (TABLES / name).read_text(encoding="utf-8")
        out[name] = (edit(name, text) if edit else text).encode()
    return out


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def installed(data_dir: Path) -> list[str]:
    folder = data_dir / "catalogs"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def p4d_row(text: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(P4D_US_EAST_1)
                and ",us-east-1," in ln)
    return line[len(P4D_US_EAST_1):].split(",")  # Price, SpotPrice, Region, Zone


def halve_p4d_p5(name: str, text: str) -> str:
    """AWS-style cut: p4d/p5 on-demand prices halved in every region."""
    if name != "aws/vms.csv":
        return text
    out = []
    for line in text.splitlines():
        if line.startswith(("p4d.24xlarge,", "p5.48xlarge,")):
            head, price, spot, region, zone = line.rsplit(",", 4)
            line = ",".join([head, f"{float(price) / 2:.5f}" if price else "", spot, region, zone])
        out.append(line)
    return "\n".join(out) + "\n"


SCAN_TF = """provider "aws" {
  region = "us-east-1"
}

resource "aws_instance" "trainer" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "p4d.24xlarge"
}
"""


def scan_cost(tmp_path: Path) -> tuple[float, dict]:
    (tmp_path / "infra").mkdir(exist_ok=True)
    (tmp_path / "infra" / "main.tf").write_text(SCAN_TF)
    code, out, _ = run("scan", str(tmp_path / "infra"), "--format", "json", "--no-cache",
                       "--fail-on", "never")
    assert code == 0, out
    report = json.loads(out)
    (res,) = report["resources"]
    return res["monthly_cost_usd"], report["catalog"]


# --------------------------------------------------------------------------- success


def test_update_installs_and_the_next_scan_uses_the_new_prices(site: Site, data_dir: Path,
                                                              tmp_path: Path) -> None:
    before, cat = scan_cost(tmp_path)
    assert cat["kind"] == "bundled"
    served = tables(halve_p4d_p5)
    base = site.publish("cut", served)
    start = time.monotonic()
    code, out, err = run("catalog", "update", "--source", base)
    elapsed = time.monotonic() - start
    assert code == 0, err
    assert elapsed < 30
    assert "aws p4d.24xlarge us-east-1: 21.9576 -> 10.9788 USD/h (-50 %)" in out
    assert "Installed" in out and len(installed(data_dir)) == 1
    # The price the scan uses is the served row's, recomputed: 8 GPUs in one instance, 730 h.
    price = float(p4d_row(served["aws/vms.csv"].decode())[0])
    after, cat = scan_cost(tmp_path)
    assert after == pytest.approx(round(price * 730, 2))
    assert after == pytest.approx(before / 2, abs=0.01)
    assert cat["kind"] == "installed" and cat["date"] == "2026-11-23"
    assert cat["source"] == (f"{base} (aws/vms.csv 2026-11-23, gcp/vms.csv 2026-11-23, "
                             "gcp/accelerators.csv 2026-11-23, azure/vms.csv 2026-11-23)")
    assert cat["stale_note"] is None
    code, text, _ = run("scan", str(tmp_path / "infra"), "--no-cache", "--fail-on", "never", "-v")
    assert "list prices of aws 2026-11-23" in text and f"{base} (aws/vms.csv 2026-11-23," in text


NEW_ROW = ("p6e-gb200.36xlarge,GB200,4,144,960,\"{'Gpus': [{'Name': 'GB200', "
           "'MemoryInfo': {'SizeInMiB': 189471}}]}\",41.61,,us-east-1,us-east-1a\n")


def test_update_reports_new_types(site: Site, data_dir: Path) -> None:
    base = site.publish("new", tables(lambda n, t: t + NEW_ROW if n == "aws/vms.csv" else t))
    code, out, err = run("catalog", "update", "--source", base)
    assert code == 0, err
    assert "1 added" in out and "added: aws p6e-gb200.36xlarge" in out
    spec = catalog.instance("aws", "p6e-gb200.36xlarge")
    assert spec is not None and spec.gpu_model == "GB200" and spec.gpu_memory_gib == 185.03
    assert catalog.price("aws", "p6e-gb200.36xlarge", "us-east-1").ondemand == 41.61
    code, out, _ = run("catalog", "info", "--format", "json")
    info = json.loads(out)
    assert info["kind"] == "installed" and info["rows"]["aws"]["instances"] == 88


def test_unchanged_tables_are_not_installed(site: Site, data_dir: Path) -> None:
    code, out, err = run("catalog", "update", "--source", site.publish("same", tables()))
    assert code == 0, err
    assert "0 added, 0 removed, 0 on-demand prices changed" in out
    assert "Prices unchanged; not installed" in out and catalog.kind() == "bundled"
    # The optional table may be missing (SkyPilot's own GCP accelerators live in vms.csv).
    del site.files["/same/gcp/accelerators.csv"]
    code, out, err = run("catalog", "update", "--source", site.base("same"))
    assert code == 1 and "gcp_accelerators 0 < 150" in err


def test_update_through_a_proxy_from_the_environment(site: Site, data_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    site.publish("mirror", tables())
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{site.port}")
    monkeypatch.setenv("NO_PROXY", "")
    monkeypatch.setenv("no_proxy", "")
    code, _, err = run("catalog", "update", "--source", "http://prices.mirror.invalid/mirror")
    assert code == 0, err
    assert site.requests[0] == "http://prices.mirror.invalid/mirror/aws/vms.csv"


# --------------------------------------------------------------------------- failures


def _first_install(site: Site, data_dir: Path) -> list[str]:
    code, _, err = run("catalog", "update", "--source", site.publish("good", tables()))
    assert code == 0, err
    catalog.use_catalog_file(None)
    return installed(data_dir)


def _truncated(served: dict[str, bytes]) -> dict[str, bytes]:
    body = served["aws/vms.csv"]
    return {**served, "aws/vms.csv": body[: len(body) // 2]}


@pytest.mark.parametrize("case, setup, message", [
    ("truncated", lambda s: s.publish("cut", _truncated(tables())), "aws/vms.csv line"),
    ("cut-connection", lambda s: s.publish("conn", tables(), claim_length=10 ** 7),
     "download cut short"),
    ("404", lambda s: s.base("nothing-here"), "not found (HTTP 404)"),
    ("html", lambda s: s.publish("html", {n: b"<!DOCTYPE html><title>Rate limit</title>"
                                          for n in NAMES}, content_type="text/html"),
     "got an HTML page (text/html)"),
    ("html-as-text", lambda s: s.publish("html2", {n: b"<html>Error 503</html>\n"
                                                   for n in NAMES}, content_type="text/plain"),
     "HTML or XML page"),
    ("server-error", lambda s: s.publish("boom", tables(), status=503), "HTTP 503"),
    ("renamed-column", lambda s: s.publish("renamed", tables(
        lambda n, t: t.replace("SpotPrice", "PreemptiblePrice", 1))),
     "missing column(s) SpotPrice"),
])
def test_failures_leave_the_previous_catalog_in_use(site: Site, data_dir: Path, case: str,
                                                    setup: Callable[[Site], str],
                                                    message: str) -> None:
    before = _first_install(site, data_dir)
    origin = catalog.active_origin()
    code, out, err = run("catalog", "update", "--source", setup(site))
    assert code == 1, (case, out, err)
    assert message in err, err
    assert err.count("\n") == 2  # "Fetching ..." and the one-line error
    assert "catalog in use is unchanged" in err
    assert installed(data_dir) == before
    catalog.forget_installed()
    assert catalog.active_origin() == origin


def test_slow_server_times_out(site: Site, data_dir: Path) -> None:
    base = site.publish("slow", tables(), delay=3.0)
    start = time.monotonic()
    code, _, err = run("catalog", "update", "--source", base, "--timeout", "0.5")
    assert code == 1 and "no answer within 0.5 s (timed out)" in err
    assert time.monotonic() - start < 3.0
    assert installed(data_dir) == []
    assert catalog.kind() == "bundled"


def test_change_guard_refuses_prices_moved_tenfold_unless_forced(site: Site,
                                                                 data_dir: Path) -> None:
    def cents(name: str, text: str) -> str:  # an upstream unit change: USD/h -> cents/h
        lines = text.splitlines()
        head, rows = lines[0], lines[1:]
        out = []
        for line in rows:
            *cells, price, spot, region, zone = line.rsplit(",", 4)
            out.append(",".join([*cells, f"{float(price) * 100:.3f}" if price else "",
                                 spot and f"{float(spot) * 100:.3f}", region, zone]))
        return "\n".join([head, *out]) + "\n"

    base = site.publish("cents", tables(cents))
    code, out, err = run("catalog", "update", "--source", base)
    assert code == 1 and "refused by the change guard" in err and "factor of 3" in err
    assert installed(data_dir) == []
    code, out, err = run("catalog", "update", "--source", base, "--force")
    assert code == 0 and "Installed despite the change guard" in out
    assert len(installed(data_dir)) == 1


def test_guard_refuses_a_table_that_lost_rows_and_passes_normal_churn() -> None:
    """Row floors stop a table cut to a stub; the guard stops a large loss against a catalog
    that grew past them (a table that lost a quarter of its rows, still above the floors)."""
    from gpulint.catalog_build.checks import guard

    def cat(regions: int, price: float = 1.0) -> dict:
        rows = {f"r{i}": [price, None] for i in range(regions)}
        return {"providers": {"azure": {"prices": {"Standard_NC24ads_A100_v4": rows}}}}

    assert guard(cat(100), cat(90)) == []
    assert guard(cat(100), cat(100, 0.55)) == []  # a 45 % price cut is news, not an error
    (reason,) = guard(cat(100), cat(75))
    assert reason == "azure prices would lose 25% of its 100 price rows (limit 20%)"
    (reason,) = guard(cat(100), cat(100, 0.01))
    assert reason.startswith("100 of 100 on-demand prices (100%) moved by a factor of 3")


def test_usage_errors_exit_2(data_dir: Path) -> None:
    assert run("catalog", "update", "--source", "ftp://example.org/catalogs")[0] == 2
    assert run("catalog", "update", "--timeout", "0")[0] == 2
    assert run("catalog", "info", "--max-age", "0")[0] == 2


def test_info_names_the_catalog_and_its_age(data_dir: Path) -> None:
    code, out, _ = run("catalog", "info")
    assert code == 0
    assert "Active catalog: bundled gpulint/data/gpu_catalog.json" in out
    assert "anycloud-sh/catalog@62ff0a9 (2026-05-20)" in out
    assert "more than 90 days old" in out
    code, out, _ = run("catalog", "info", "--max-age", "100000", "--format", "json")
    info = json.loads(out)
    from gpulint.pricing import catalog

    shipped = catalog.load().data["providers"]["gcp"]["accelerator_prices"]
    assert info["stale_note"] is None
    assert info["rows"]["gcp"]["accelerator_prices"] == sum(len(r) for r in shipped.values())


def test_configuration_sets_the_source_and_the_age(site: Site, data_dir: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    base = site.publish("company-mirror", tables())
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gpulint.yaml").write_text(f"catalog:\n  source: {base}\n  max_age_days: 30\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run("catalog", "info")
    assert code == 0 and "stale after 30 days" in out
    # Named by the person running the update: their own configuration sets the source (one
    # found in the checkout does not: tests/test_catalog_update_safety.py).
    code, _, err = run("catalog", "update", "--config", str(tmp_path / ".gpulint.yaml"))
    assert code == 0, err
    assert f"Fetching price tables from {base}" in err
    assert site.requests[0] == "/company-mirror/aws/vms.csv"
    (tmp_path / ".gpulint.yaml").write_text("catalog:\n  max_age_days: 0\n")
    code, _, err = run("catalog", "info")
    assert code == 2 and "max_age_days" in err


def test_configured_age_reaches_the_scan_report(data_dir: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gpulint.yaml").write_text("catalog:\n  max_age_days: 100000\n")
    monkeypatch.chdir(tmp_path)
    _, cat = scan_cost(tmp_path)
    assert cat["max_age_days"] == 100000 and cat["stale_note"] is None


def test_interrupted_update_installs_nothing(site: Site, data_dir: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the middle of the downloads, or a failure while writing the file, leaves no
    catalog and no temporary file behind."""
    from gpulint.catalog_build import update as catalog_update
    from gpulint.pricing import catalog_store

    base = site.publish("ok", tables())
    real_fetch = catalog_update.fetch
    calls = []

    def interrupted(*args: object, **kw: object) -> object:
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_fetch(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(catalog_update, "fetch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        catalog_update.update(base)
    assert not (data_dir / "catalogs").exists()
    monkeypatch.setattr(catalog_update, "fetch", real_fetch)

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(catalog_store.os, "replace", full_disk)
    # Changed tables (one more type), so there is something to install.
    changed = site.publish("changed", tables(
        lambda n, t: t + NEW_ROW if n == "aws/vms.csv" else t))
    code, _, err = run("catalog", "update", "--source", changed)
    assert code == 1 and "No space left on device" in err
    assert list((data_dir / "catalogs").iterdir()) == []
    assert catalog.kind() == "bundled"


def test_directory_source(data_dir: Path) -> None:
    code, out, err = run("catalog", "update", "--source", str(TABLES))
    assert code == 0, err
    assert "Prices unchanged; not installed" in out and catalog.kind() == "bundled"
    code, _, err = run("catalog", "update", "--source", str(TABLES / "aws"))
    assert code == 1 and "not found" in err


def test_a_table_the_catalog_in_use_already_has_keeps_its_date() -> None:
    """A mirror without Last-Modified dates: a table the catalog in use already has (same
    bytes) keeps the date it had; only a new one is dated by the download."""
    from gpulint.catalog_build.update import Fetched, sources

    fetched = {"aws/vms.csv": Fetched("a", "u/aws", None, "sha-old"),
               "azure/vms.csv": Fetched("b", "u/azure", None, "sha-new")}
    got = {s["name"]: (s["date"], s["date_note"]) for s in
           sources("u", dict(fetched), "2026-11-27", {"sha-old": "2026-01-21"})}
    assert got["aws/vms.csv"] == ("2026-01-21", "the same table's date in the catalog in use")
    assert got["azure/vms.csv"][0] == "2026-11-27"
