"""Kustomizations built in batches, one builder run per batch: each overlay's share of a batch's
output is byte for byte what a build of the overlay alone prints, and a batch that does not build
is split until its parts do.

tests/data/kustomize-platform is a platform repository: three applications with dev/staging/prod
overlays (namespace, namePrefix, nameSuffix, replicas, images, JSON and strategic-merge patches,
merged ConfigMap generators, a secret generator, annotations, a Namespace component). The dev
overlays of two applications both emit the Namespace `ml-dev`, which one combined build refuses.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.render import kustomize, kustomize_batch

PLATFORM = Path(__file__).parent / "data" / "kustomize-platform"
CHAT = Path(__file__).parent / "data" / "kustomize"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730
REAL = shutil.which("kustomize") or shutil.which("kubectl")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(REAL is None, reason="needs kustomize or kubectl")]


def _read(path: str) -> str | None:
    return Path(path).read_text()


def _jobs(*trees: Path) -> list[tuple[str, list[str]]]:
    """Every overlay of the trees with the input files of its build, as a scan finds them."""
    known = {os.path.abspath(p) for t in trees for p in glob.glob(f"{t}/**/*", recursive=True)
             if os.path.isfile(p)}
    graph = kustomize.Graph(known)
    roots = sorted(r for t in trees for r in glob.glob(f"{t}/**/overlays/*", recursive=True))
    return [(r, graph.closure(r, _read)[0]) for r in roots]


def _argv() -> list[str]:
    return [REAL or "", "build" if (REAL or "").endswith("kustomize") else "kustomize"]


def _counting_builder(bindir: Path) -> list[str]:
    """The real builder behind a script that counts its runs."""
    bindir.mkdir()
    argv = _argv()
    script = bindir / "builder"
    script.write_text(f'#!/bin/sh\necho run >> "{bindir}/runs.log"\nexec "$0.real" "$@"\n')
    (bindir / "builder.real").symlink_to(argv[0])
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return [str(script), argv[1]]


def _runs(bindir: Path) -> int:
    log = bindir / "runs.log"
    return len(log.read_text().split()) if log.exists() else 0


def test_each_overlay_gets_what_its_own_build_prints(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = _jobs(PLATFORM, CHAT)
    argv = _counting_builder(tmp_path / "bin")
    alone = [kustomize_batch.build_one(job, argv, _read) for job in jobs]
    assert _runs(tmp_path / "bin") == len(jobs) == 10
    assert all(out for out, _ in alone)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    batched = kustomize_batch.build_all(jobs, argv, _read)
    assert [out for out, _ in batched] == [out for out, _ in alone]
    # One batch of ten, refused (both `ml-dev` overlays emit that Namespace), then its halves.
    assert _runs(tmp_path / "bin") - len(jobs) == 3


def test_a_batch_without_conflicts_is_one_builder_run(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    jobs = [j for j in _jobs(PLATFORM) if not j[0].endswith(os.path.join("notebooks", "overlays",
                                                                           "dev"))]
    argv = _counting_builder(tmp_path / "bin")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    batched = kustomize_batch.build_all(jobs, argv, _read)
    assert _runs(tmp_path / "bin") == 1
    staging = dict(zip([j[0] for j in jobs], batched, strict=True))[
        str(PLATFORM / "apps" / "llm-serving" / "overlays" / "staging")][0] or ""
    # The overlay's own prefix and annotations stay, the batch's are gone.
    assert "name: staging-vllm-llama-8b" in staging and "owner: inference-team" in staging
    assert "gpulint/batch" not in staging and "argocd.argoproj.io/sync-wave" in staging


def test_a_broken_overlay_fails_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(PLATFORM, repo)
    broken = repo / "apps" / "finetune" / "overlays" / "prod" / "kustomization.yaml"
    broken.write_text(broken.read_text() + "patches:\n  - path: missing-patch.yaml\n")
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    jobs = _jobs(repo)
    results = dict(zip([j[0] for j in jobs], kustomize_batch.build_all(jobs, _argv(), _read),
                       strict=True))
    failed = [root for root, (out, _) in results.items() if out is None]
    assert failed == [str(broken.parent)]
    assert "missing-patch.yaml" in results[str(broken.parent)][1]


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def test_the_platform_is_priced_once_per_overlay(tmp_path: Path) -> None:
    settings = Settings(scan=ScanSettings(jobs=1, cache_dir=str(tmp_path / "cache")))
    result = scan.run([str(PLATFORM)], [], settings)
    got = {r.address: r for r in result.resources}
    expected = {  # address: (instance type, replicas priced: the HPA's minimum where one exists)
        "Job/training-dev/lora-finetune@finetune/overlays/dev": ("g5.12xlarge", 1),
        "Job/training/lora-finetune@finetune/overlays/prod": ("g5.12xlarge", 1),
        "Deployment/ml-dev/vllm-llama-8b@llm-serving/overlays/dev": ("g6.xlarge", 1),
        "Deployment/ml-prod/vllm-llama-8b@llm-serving/overlays/prod": ("g6e.xlarge", 3),
        "Deployment/ml-staging/staging-vllm-llama-8b@llm-serving/overlays/staging":
            ("g6.xlarge", 1),
        "StatefulSet/ml-dev/research-notebook@notebooks/overlays/dev": ("g5.2xlarge", 1),
        "StatefulSet/research/research-notebook-prod@notebooks/overlays/prod":
            ("p4d.24xlarge", 1),
    }
    assert sorted(got) == sorted(expected)
    for address, (instance, replicas) in expected.items():
        res = got[address]
        assert res.facts["instance.type"] == instance, address
        assert res.facts["cost.monthly"] == pytest.approx(
            _on_demand(instance) * HOURS * replicas, abs=0.01), address
        assert res.path.endswith(os.path.join("base", Path(res.path).name)) and res.line == 1
    # The shared component's Namespace labels reach the dev workloads of both applications.
    assert got["StatefulSet/ml-dev/research-notebook@notebooks/overlays/dev"].facts["tags"][
        "cost-center"] == "4100"
    assert [d for d in result.diagnostics if d.severity != "info"] == []
