"""Renderers never reach the network or leave the scanned tree, and never hold a scan up:
kustomize references outside the tree are refused, the child runs offline, every render is
bounded and all of them share one budget, and a chart or kustomization that cannot be rendered
is a note (a warning with --strict). Loopback only: the child's proxy is a refused local port."""

from __future__ import annotations

import shutil
import stat
import time
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.render import helm

DATA = Path(__file__).parent / "data" / "kustomize"


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(DATA, root)
    (root / ".git").mkdir()
    return root


def _fake(bindir: Path, body: str, name: str = "kustomize") -> Path:
    """A fake renderer on PATH running `body` (sh); it logs its directory argument."""
    bindir.mkdir(exist_ok=True)
    script = bindir / name
    script.write_text(f'#!/bin/sh\necho "$2" >> "{bindir}/builds.log"\n{body}\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return bindir


@pytest.mark.parametrize("ref", ["../../../outside", "/etc/kubernetes"])
def test_kustomize_reference_leaving_the_tree_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: str) -> None:
    repo = _repo(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kustomization.yaml").write_text("resources: [secret.yaml]\n")
    (outside / "secret.yaml").write_text("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n")
    (repo / "overlays" / "prod" / "kustomization.yaml").write_text(
        f"resources:\n  - ../../base\n  - {ref}\n")
    bindir = _fake(tmp_path / "bin", "exit 1")
    monkeypatch.setenv("PATH", str(bindir))
    result = scan.run([str(repo)], [])
    notes = [d.message for d in result.diagnostics if d.path.endswith(
        str(Path("prod") / "kustomization.yaml"))]
    assert notes == [f"kustomization not built: refers to {ref}, outside the scanned tree, "
                     "which a build would read; its files are scanned as they are, without "
                     "patches"]
    built = (bindir / "builds.log").read_text().split() if (bindir / "builds.log").exists() else []
    assert not [b for b in built if b.endswith("prod")]


def test_builder_runs_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    env_log = tmp_path / "env.log"
    body = f'{shutil.which("env")} > "{env_log}"\n' \
        f'{shutil.which("cat")} "{DATA / "base" / "deployment.yaml"}"'
    monkeypatch.setenv("PATH", str(_fake(tmp_path / "bin", body)))
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp.example:3128")
    monkeypatch.setenv("GIT_ASKPASS", "/usr/bin/secret-helper")
    scan.run([str(repo / "overlays" / "prod")], [])
    env = dict(line.split("=", 1) for line in env_log.read_text().splitlines() if "=" in line)
    assert env["HTTPS_PROXY"] == env["https_proxy"] == env["HTTP_PROXY"] == "http://127.0.0.1:9"
    assert env["GIT_ALLOW_PROTOCOL"] == "file" and "GIT_ASKPASS" not in env
    assert env["KUBECONFIG"] == "/dev/null"


def test_render_budget_stops_further_builds(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    bindir = _fake(tmp_path / "bin", f"{shutil.which('sleep')} 5")
    monkeypatch.setenv("PATH", str(bindir))
    monkeypatch.setattr(helm, "RENDER_BUDGET_S", 1)
    start = time.monotonic()
    result = scan.run([str(repo)], [], Settings(scan=ScanSettings(jobs=1)))
    assert time.monotonic() - start < 4.5  # not 3 builds × 5 s
    notes = [d.message for d in result.diagnostics if "not built" in d.message]
    assert len(notes) == 3 and all(d.severity == "info" for d in result.diagnostics
                                   if "not built" in d.message)
    assert any("took longer than" in n and n.endswith("s, stopped; files scanned as they are")
               for n in notes)
    assert all("took longer than" in n or
               "render budget (1 s for all charts and kustomizations) is spent" in n
               for n in notes)
    # The overlays' plain files are still scanned: the base Deployment asks for a GPU.
    assert [r.address for r in result.resources] == ["Deployment/chat"]


def test_unrendered_kustomization_is_a_warning_when_strict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("PATH", str(_fake(tmp_path / "bin", "echo broken >&2; exit 1")))
    result = scan.run([str(repo)], [], Settings(scan=ScanSettings(strict=True), strict=True))
    assert {d.severity for d in result.diagnostics if "not built" in d.message} == {"warning"}


_SPIN = "{{- range $i := until 100000 }}{{- range $j := until 100000 }}{{- end }}{{- end }}\n"


@pytest.mark.skipif(helm.available() is None, reason="needs helm or helm-python-sdk")
def test_render_is_bounded_and_a_stopped_chart_is_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """10^10 empty iterations: no memory grows, only the time-out stops the child."""
    chart = tmp_path / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: llm\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("resources:\n  limits:\n    nvidia.com/gpu: 1\n")
    (chart / "templates" / "deployment.yaml").write_text(_SPIN + "kind: {{ .Values.kind }}\n")
    monkeypatch.setattr(helm, "RENDER_TIMEOUT_S", 2)
    start = time.monotonic()
    result = scan.run([str(chart)], [], Settings(scan=ScanSettings(cache_dir=None)))
    assert time.monotonic() - start < 6
    (note,) = [d for d in result.diagnostics if "not rendered" in d.message]
    assert note.severity == "warning"
    assert note.message.startswith("chart not rendered (Helm SDK failed: took longer than 2 s, "
                                   "stopped)") or "helm failed: took longer" in note.message
    assert note.message.endswith("; read 1 GPU request from its values")
    assert [r.address for r in result.resources] == ["HelmValues/chart"]
