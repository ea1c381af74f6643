"""Kustomize: overlays built once each with their base (not the base again on its own), builds
gated on GPU text, cached by the content of their inputs, CRDs dropped, remote bases not fetched.

tests/data/kustomize is shaped like a real repository: a base (a vLLM Deployment, a 64 KB CRD, a
generated ConfigMap), dev/staging/prod overlays patching replicas and the prod instance type, and
a monitoring kustomization with no GPU. It lives under tests/data so the golden reports do not
depend on whether kubectl is installed; the real-builder tests skip without one.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.render import kustomize

DATA = Path(__file__).parent / "data" / "kustomize"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730
REAL = shutil.which("kustomize") or shutil.which("kubectl")


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(DATA, root)
    return root


def _counting_kustomize(bindir: Path, output: str) -> Path:
    """A fake kustomize that logs each build's directory and prints `output`."""
    bindir.mkdir()
    (bindir / "out.yaml").write_text(output)
    cat = shutil.which("cat")
    script = bindir / "kustomize"
    script.write_text(f'#!/bin/sh\necho "$2" >> "{bindir}/builds.log"\n{cat} "{bindir}/out.yaml"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return bindir


@pytest.mark.skipif(REAL is None, reason="needs kustomize or kubectl")
def test_overlays_are_priced_once_each_and_the_base_not_again() -> None:
    result = scan.run([str(DATA)], [])
    got = {r.address: r for r in result.resources}
    assert sorted(got) == ["Deployment/chat-dev/chat@dev", "Deployment/chat-prod/chat@prod",
                           "Deployment/chat-staging/chat@staging"]
    prod = got["Deployment/chat-prod/chat@prod"]
    assert prod.path.endswith(os.path.join("base", "deployment.yaml")) and prod.line == 1
    assert prod.facts["instance.type"] == "g6e.xlarge" and prod.facts["replicas.desired"] == 4
    assert prod.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.xlarge") * HOURS * 4,
                                                       abs=0.01)
    dev = got["Deployment/chat-dev/chat@dev"]
    assert dev.facts["tags"]["env"] == "dev"  # the overlay's patch, not the base's label
    assert dev.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * HOURS, abs=0.01)
    assert [d for d in result.diagnostics if d.severity != "info"] == []


def test_only_gpu_kustomizations_are_built_and_builds_are_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _copy(tmp_path)
    built = (DATA / "base" / "deployment.yaml").read_text()
    bindir = _counting_kustomize(tmp_path / "bin", built)
    monkeypatch.setenv("PATH", str(bindir))
    settings = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path / "cache")))
    first = scan.run([str(repo)], [], settings)
    log = bindir / "builds.log"
    # The three overlays; not the base (they include it), not monitoring (no GPU in it).
    assert sorted(Path(p).name for p in log.read_text().split()) == ["dev", "prod", "staging"]
    assert len(first.resources) == 3
    log.unlink()
    second = scan.run([str(repo)], [], settings)
    assert not log.exists()  # every build came from the cache
    assert [r.address for r in second.resources] == [r.address for r in first.resources]
    # A changed input of one overlay (the base is an input of all three) rebuilds all three.
    deployment = repo / "base" / "deployment.yaml"
    deployment.write_text(deployment.read_text().replace("replicas: 1", "replicas: 2"))
    scan.run([str(repo)], [], settings)
    assert len(log.read_text().split()) == 3


def test_a_base_without_overlays_in_the_scan_is_built_as_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _copy(tmp_path)
    bindir = _counting_kustomize(tmp_path / "bin", (DATA / "base" / "deployment.yaml").read_text())
    monkeypatch.setenv("PATH", str(bindir))
    result = scan.run([str(repo / "base")], [])
    assert [r.address for r in result.resources] == ["Deployment/chat"]


def test_a_remote_base_is_not_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _copy(tmp_path)
    (repo / "overlays" / "prod" / "kustomization.yaml").write_text(
        "resources:\n  - github.com/example/platform//chat/base?ref=v1.2.0\n  - ../../base\n")
    bindir = _counting_kustomize(tmp_path / "bin", "")
    monkeypatch.setenv("PATH", str(bindir))
    result = scan.run([str(repo / "overlays" / "prod")], [])
    notes = [d.message for d in result.diagnostics if d.severity == "info"]
    assert notes == ["kustomization not built: refers to the remote github.com/example/platform//"
                     "chat/base?ref=v1.2.0, which a build would fetch; its files are scanned as "
                     "they are, without patches"]
    assert not (bindir / "builds.log").exists()


def test_crds_are_dropped_before_parsing() -> None:
    crd = (DATA / "base" / "crds.yaml").read_text()
    deployment = (DATA / "base" / "deployment.yaml").read_text()
    out = kustomize.without_crds(f"{crd}---\n{deployment}---\n{crd}")
    assert "CustomResourceDefinition" not in out and "nvidia.com/gpu: 1" in out


def test_crd_documents_of_plain_files_are_not_parsed_and_lines_are_kept(tmp_path: Path) -> None:
    crd = (DATA / "base" / "crds.yaml").read_text()
    deployment = (DATA / "base" / "deployment.yaml").read_text()
    # A CRD bundle with a broken document would cost a parse error; it is never parsed.
    (tmp_path / "bundle.yaml").write_text(f"{crd}---\n{deployment}---\n{crd}  bad: [\n")
    result = scan.run([str(tmp_path)], [])
    (res,) = result.resources
    assert res.line == crd.count("\n") + 2  # the Deployment's own line
    assert result.diagnostics == []
