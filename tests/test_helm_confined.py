"""Helm renders in a confined child over a staged copy of the chart (issue 30): a chart's
symbolic link out of the repository, into /proc, or a packaged subchart holding a link never
reaches the renderer; `tpl` recursion and an output bomb only kill the child; the child's
environment holds no secret; a warm re-run starts no renderer. Charts are built in each test."""

from __future__ import annotations

import io
import json
import os
import resource
import sys
import tarfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.config.settings import ScanSettings, Settings
from gpulint.render import chart_stage, confine, helm

SECRET = "s3cr3t-value-outside-the-repository"
GPU_DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: good}
spec:
  replicas: 1
  template:
    spec:
      nodeSelector: {node.kubernetes.io/instance-type: g5.xlarge}
      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]
"""


def _chart(repo: Path, name: str, templates: dict[str, str]) -> Path:
    chart = repo / name
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text(f"apiVersion: v2\nname: {name}\nversion: 0.1.0\n")
    for file, text in templates.items():
        (chart / "templates" / file).write_text(text)
    return chart


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text('[http]\n\textraheader = AUTHORIZATION: basic '
                                           f'{SECRET}\n')
    return repo


def _reports(repo: Path) -> str:
    """The scan's reports in every format a pull request's reader sees."""
    runner = CliRunner()
    return "\n".join(runner.invoke(cli, ["scan", str(repo), "--format", f, "--fail-on", "never",
                                         "--no-cache"]).output
                     for f in ("json", "sarif", "markdown", "github", "text"))


_LEAK = 'kind: ConfigMap\nmetadata: {name: x}\ndata: {v: {{ .Files.Get "leak" | quote }}}\n'


def _no_renderer() -> bool:
    return helm.available() is None


needs_helm = pytest.mark.skipif(_no_renderer(), reason="needs helm or helm-python-sdk")


@needs_helm
@pytest.mark.parametrize("target", ["outside", "/proc/self/environ", ".git/config"])
def test_chart_link_out_of_the_tree_is_refused_and_nothing_leaks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    monkeypatch.setenv("GPULINT_TEST_TOKEN", SECRET)
    (tmp_path / "outside").write_text(SECRET)
    repo = _repo(tmp_path)
    chart = _chart(repo, "leaky", {"cm.yaml": _LEAK})
    _chart(repo, "good", {"d.yaml": GPU_DEPLOYMENT})
    where = {"outside": tmp_path / "outside", ".git/config": repo / ".git" / "config"}
    (chart / "leak").symlink_to(where.get(target, Path(target)))
    result = scan.run([str(repo)], [])
    reports = _reports(repo)
    assert "Deployment/good" in reports and SECRET not in reports
    (note,) = [d for d in result.diagnostics if d.path.endswith(os.path.join("leaky",
                                                                            "Chart.yaml"))]
    assert note.severity == "warning" and "not handed to Helm" in note.message
    assert "leak" in note.message
    assert [r.address for r in result.resources] == ["Deployment/good"]


def _package(members: list[tarfile.TarInfo], data: bytes = b"") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for m in members:
            tar.addfile(m, io.BytesIO(data) if m.isfile() else None)
    return buf.getvalue()


def _member(name: str, kind: bytes = tarfile.REGTYPE, size: int = 0,
            link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.size, info.linkname = kind, size, link
    return info


@pytest.mark.parametrize(("member", "why"), [
    (_member("sub/templates/x.yaml", tarfile.SYMTYPE, link="/proc/self/environ"), "is a link"),
    (_member("sub/leak", tarfile.LNKTYPE, link="/etc/passwd"), "is a link"),
    (_member("../../escape.yaml", size=1), "climbs out"),
    (_member("/abs.yaml", size=1), "climbs out"),
    (_member("sub/fifo", tarfile.FIFOTYPE), "not a regular file"),
])
def test_packaged_subchart_with_a_link_or_an_escape_is_refused(
        tmp_path: Path, member: tarfile.TarInfo, why: str) -> None:
    repo = _repo(tmp_path)
    chart = _chart(repo, "umbrella", {"d.yaml": GPU_DEPLOYMENT})
    (chart / "charts").mkdir()
    (chart / "charts" / "sub-0.1.0.tgz").write_bytes(_package([member], b"x"))
    with pytest.raises(chart_stage.Refused, match=why):
        chart_stage.stage(str(chart))


def test_packaged_subchart_that_unpacks_too_far_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_stage, "MAX_CHART_BYTES", 4096)
    chart = _chart(_repo(tmp_path), "umbrella", {"d.yaml": GPU_DEPLOYMENT})
    (chart / "charts").mkdir()
    (chart / "charts" / "sub.tgz").write_bytes(
        _package([_member("sub/big.yaml", size=1 << 20)], b"\0" * (1 << 20)))
    with pytest.raises(chart_stage.Refused, match="unpacks beyond"):
        chart_stage.stage(str(chart))


def test_plain_packaged_subchart_and_in_tree_link_are_staged(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    chart = _chart(repo, "umbrella", {"d.yaml": GPU_DEPLOYMENT})
    (repo / "shared.tpl").write_text('{{- define "x" }}x{{ end }}')
    (chart / "templates" / "_shared.tpl").symlink_to(repo / "shared.tpl")
    (chart / "charts").mkdir()
    (chart / "charts" / "sub.tgz").write_bytes(_package([_member("sub/Chart.yaml", size=1)], b"x"))
    (chart / "templates" / ".svn").mkdir()
    (chart / "templates" / ".svn" / "entries").write_text(SECRET)
    staged = chart_stage.stage(str(chart))
    assert sorted(staged.files) == ["Chart.yaml", "charts/sub.tgz", "templates/_shared.tpl",
                                    "templates/d.yaml"]
    assert staged.files["templates/_shared.tpl"] == b'{{- define "x" }}x{{ end }}'


def test_a_file_name_that_is_not_utf8_does_not_stop_the_chart(tmp_path: Path) -> None:
    # The mutation run's 1976-encoding case: hashing the staged copy raised UnicodeEncodeError.
    chart = _chart(_repo(tmp_path), "embeddings", {"d.yaml": GPU_DEPLOYMENT})
    (chart / os.fsdecode(b"caf\xe9.yaml")).write_text("kind: ConfigMap\n")
    staged = chart_stage.stage(str(chart))
    other = chart_stage.stage(str(chart))
    assert staged.digest() == other.digest()
    (chart / os.fsdecode(b"caf\xe9.yaml")).write_text("kind: Secret\n")
    assert chart_stage.stage(str(chart)).digest() != staged.digest()


# `tpl` feeding itself: Go's stack grows until the runtime gives up (a fatal error, exit 2).
_RECURSION = ('{{- define "loop" }}{{ tpl "{{ include \\"loop\\" . }}" . }}{{- end }}\n'
              'kind: ConfigMap\nmetadata: {name: {{ include "loop" . }}}\n')
# 10^10 lines of 80 characters: memory grows until the limit.
_BOMB = ('kind: ConfigMap\nmetadata: {name: x}\ndata:\n'
         '{{- range $i := until 100000 }}{{- range $j := until 100000 }}\n'
         '  k{{ $i }}-{{ $j }}: "' + "x" * 80 + '"\n{{- end }}{{- end }}\n')


@needs_helm
def test_recursion_and_output_bomb_only_kill_the_child(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _chart(repo, "recursion", {"cm.yaml": _RECURSION})
    _chart(repo, "bomb", {"cm.yaml": _BOMB})
    _chart(repo, "good", {"d.yaml": GPU_DEPLOYMENT})
    start = time.monotonic()
    result = scan.run([str(repo)], [], Settings(scan=ScanSettings(cache_dir=None)))
    took = time.monotonic() - start
    assert took < 90
    assert [r.address for r in result.resources] == ["Deployment/good"]
    for name in ("recursion", "bomb"):
        (note,) = [d for d in result.diagnostics
                   if d.path.endswith(os.path.join(name, "Chart.yaml"))]
        assert note.severity == "warning" and "stopped" in note.message, note.message
    # The scan's own process stayed small: the child held the memory, not us.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 4 * 1024 * 1024  # KiB


def test_child_environment_is_an_allow_list(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
                 "ACTIONS_RUNTIME_TOKEN"):
        monkeypatch.setenv(name, SECRET)
    out, err, _ = confine.run([sys.executable, "-c",
                               "import json, os; print(json.dumps(dict(os.environ)))"], 20)
    assert out is not None, err
    env = json.loads(out)
    assert SECRET not in out
    assert env["HOME"] != os.path.expanduser("~") and env["HTTPS_PROXY"] == confine.NO_PROXY_HERE
    assert set(env) <= {*confine.environment("/x"), "PWD", "LC_CTYPE"}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="limits enforced on Linux")
@pytest.mark.parametrize(("code", "why"), [
    ("b = bytearray(3 * 1024 ** 3)", "out of memory"),
    ("import sys\nwhile True: sys.stdout.write('x' * 65536)", "output larger than"),
    ("while True: pass", "took too long"),
])
def test_child_limits(code: str, why: str) -> None:
    start = time.monotonic()
    out, err, stable = confine.run([sys.executable, "-c", code], 3)
    assert out is None and why in err and not stable
    assert time.monotonic() - start < 15


@needs_helm
def test_warm_rerun_starts_no_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    _chart(repo, "good", {"d.yaml": GPU_DEPLOYMENT})
    _chart(repo, "broken", {"cm.yaml": "kind: ConfigMap\nmetadata: {name: {{ required "
                                       '"need x" .Values.x }}}\n'})
    settings = Settings(scan=ScanSettings(cache_dir=str(tmp_path / "cache")))
    cold = scan.run([str(repo)], [], settings)
    started: list[list[str]] = []
    real_run = confine.run

    def counting(argv: list[str], *args: object, **kwargs: object) -> object:
        started.append(argv)
        return real_run(argv, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(confine, "run", counting)
    warm = scan.run([str(repo)], [], settings)
    assert started == []
    assert [d.message for d in warm.diagnostics] == [d.message for d in cold.diagnostics]
    assert [r.address for r in warm.resources] == ["Deployment/good"]
    # A changed template is a new input: rendered again.
    (repo / "good" / "templates" / "d.yaml").write_text(GPU_DEPLOYMENT.replace("replicas: 1",
                                                                               "replicas: 2"))
    scan.run([str(repo)], [], settings)
    assert len(started) == 1
