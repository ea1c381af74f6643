"""Kustomize `helmCharts` without `--enable-helm`: a chart vendored under the chart home is
rendered by gpulint's Helm renderer with the entry's values and goes through the build (the
overlay's namespace and patches apply to it); a chart that is not local is read from its
values. tests/data/kustomize-helm is shaped like a real repository: a base inflating a vendored
vLLM serving chart (kustomize's `charts/<name>-<version>/<name>` layout, a values file and
inline GPU requests) and a remote KubeRay cluster chart, and a prod overlay patching replicas.
It lives under tests/data so the golden reports do not depend on whether kubectl is installed.
Prices are recomputed from the catalog rows."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml

from gpulint import pipeline as scan
from gpulint.model import Diagnostic
from gpulint.render import kustomize_charts

DATA = Path(__file__).parent / "data" / "kustomize-helm"
BASE = DATA / "llm" / "base"
CHART = BASE / "charts" / "llm-serving-0.3.0" / "llm-serving"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730
REAL = shutil.which("kustomize") or shutil.which("kubectl")


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def _line(path: Path, text: str) -> int:
    return next(i + 1 for i, ln in enumerate(path.read_text().split("\n")) if ln.strip() == text)


def _ray_worker_is_read_from_values(result: scan.ScanResult) -> None:
    ray = {r.address: r for r in result.resources}["HelmValues/batch/worker"]
    assert os.path.abspath(ray.path) == str(BASE / "kustomization.yaml")
    assert ray.line == _line(BASE / "kustomization.yaml", "worker:")
    assert ray.facts["k8s.namespace"] == "ray" and ray.facts["replicas.desired"] == 2
    assert ray.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * HOURS * 2,
                                                      abs=0.01)
    assert any(d.message.startswith("helmCharts ray-cluster: chart not in charts/ (a build "
                                    "would pull it from https://ray-project.github.io/"
                                    "kuberay-helm/), not rendered; read 1 GPU request")
               for d in result.diagnostics)


@pytest.mark.skipif(REAL is None, reason="needs kustomize or kubectl")
def test_local_chart_is_rendered_into_the_overlay_build() -> None:
    result = scan.run([str(DATA)], [])
    got = {r.address: r for r in result.resources}
    assert sorted(got) == ["Deployment/llm-prod/chat-llm-serving@prod", "HelmValues/batch/worker"]
    chat = got["Deployment/llm-prod/chat-llm-serving@prod"]
    template = CHART / "templates" / "deployment.yaml"
    assert os.path.abspath(chat.path) == str(template)
    assert chat.line == _line(template, "kind: Deployment")
    # valuesInline: 4 GPUs and the model; valuesFile: the instance type; the overlay's patch: 2.
    assert chat.facts["gpu.count"] == 4 and chat.facts["instance.type"] == "g6e.12xlarge"
    assert chat.facts["model.id"] == "meta-llama/Llama-3.1-70B"  # from valuesInline
    assert chat.facts["replicas.desired"] == 2
    assert chat.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.12xlarge") * HOURS * 2,
                                                       abs=0.01)
    _ray_worker_is_read_from_values(result)
    assert any(os.path.abspath(d.path or "") == str(CHART / "Chart.yaml") and d.message.startswith(
        "chart rendered with ") and "release chat, helmCharts of" in d.message
        for d in result.diagnostics)
    assert [d for d in result.diagnostics if d.severity != "info"] == []


def test_without_a_builder_the_chart_is_rendered_on_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no kustomize, kubectl or helm
    result = scan.run([str(DATA)], [])
    got = {r.address: r for r in result.resources}
    assert sorted(got) == ["Deployment/llm/chat-llm-serving", "HelmValues/batch/worker"]
    chat = got["Deployment/llm/chat-llm-serving"]  # the entry's namespace; no overlay patch
    assert chat.facts["replicas.desired"] == 1 and chat.facts["gpu.count"] == 4
    assert chat.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.12xlarge") * HOURS,
                                                       abs=0.01)
    _ray_worker_is_read_from_values(result)
    assert any("kustomization not built: neither kustomize nor kubectl" in d.message
               for d in result.diagnostics)


def _kustomization(root: Path, entry: str) -> str:
    (root / "kustomization.yaml").write_text(f"helmCharts:\n{entry}")
    return str(root / "kustomization.yaml")


def _read(path: str) -> str | None:
    return Path(path).read_text() if os.path.isfile(path) else None


@pytest.mark.parametrize(("merge", "expected"), [
    ("override", {"a": "inline", "b": "file", "c": "extra", "d": "chart"}),
    ("merge", {"a": "file", "b": "file", "c": "extra", "d": "chart"}),
    ("replace", {"a": "inline", "c": "extra", "d": "chart"}),
])
def test_values_in_kustomize_order(tmp_path: Path, merge: str, expected: dict[str, str]) -> None:
    chart = tmp_path / "charts" / "x"
    chart.mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: x\nversion: 1.0.0\n")
    (chart / "values.yaml").write_text("a: chart\nb: chart\nc: chart\nd: chart\n")
    (tmp_path / "file.yaml").write_text("a: file\nb: file\nc: file\n")
    (tmp_path / "extra.yaml").write_text("c: extra\n")
    file = _kustomization(tmp_path, f"  - name: x\n    valuesFile: file.yaml\n"
                          f"    additionalValuesFiles: [extra.yaml]\n    valuesMerge: {merge}\n"
                          "    valuesInline:\n      a: inline\n      c: inline\n")
    (entry,) = kustomize_charts.entries(file, _read)
    diags: list[Diagnostic] = []
    full, _ = kustomize_charts.values_of(entry, _read, diags)
    assert {k: v for k, v in full.tree.items() if k in "abcd"} == \
        {**expected, "b": expected.get("b", "chart")} and diags == []
    assert full.locate(("c",)) == (str(tmp_path / "extra.yaml"), 1)


def test_where_kustomize_looks_for_a_chart(tmp_path: Path) -> None:
    versioned = tmp_path / "vendor" / "x-2.0.0" / "x"
    versioned.mkdir(parents=True)
    (versioned / "Chart.yaml").write_text("apiVersion: v2\nname: x\nversion: 2.0.0\n")
    file = _kustomization(tmp_path, "  - name: x\n    repo: https://example.com\n"
                          "    version: 2.0.0\n  - name: x\n    version: 2.0.0\n"
                          "  - name: y\n    repo: https://example.com\n"
                          "    valuesFile: ../outside.yaml\n"
                          "helmGlobals:\n  chartHome: vendor\n")
    with_repo, without_repo, remote = kustomize_charts.entries(file, _read)
    assert with_repo.chart == str(versioned)  # <home>/<name>-<version>/<name>
    assert without_repo.chart is None  # <home>/<name> only, as kustomize looks
    assert remote.chart is None and remote.missing == ["../outside.yaml"]


def _chart(root: Path, template: str) -> None:
    (root / "templates").mkdir(parents=True)
    (root / "Chart.yaml").write_text("apiVersion: v2\nname: embedder\nversion: 0.1.0\n")
    (root / "values.yaml").write_text("replicaCount: 1\nresources: {}\n")
    (root / "templates" / "deployment.yaml").write_text(template)


_DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicaCount }}
  template:
    spec:
      containers:
        - name: tei
          image: ghcr.io/huggingface/text-embeddings-inference:1.5
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
"""


@pytest.mark.skipif(REAL is None, reason="needs kustomize or kubectl")
def test_a_chart_that_does_not_render_is_read_from_its_values(tmp_path: Path) -> None:
    _chart(tmp_path / "charts" / "embedder",
           '{{ required "embedder.license is required" .Values.license }}\n' + _DEPLOYMENT)
    kust = _kustomization(tmp_path, "  - name: embedder\n    releaseName: embed\n"
                          "    valuesInline:\n      resources:\n        limits:\n"
                          "          nvidia.com/gpu: 1\n"
                          "resources:\n  - settings.yaml\n")
    (tmp_path / "settings.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: embed-settings\n")
    result = scan.run([str(tmp_path)], [])
    (res,) = result.resources
    assert res.address == "HelmValues/embed" and res.line == 4  # its valuesInline
    assert os.path.abspath(res.path) == kust and res.facts["gpu.count"] == 1
    (note,) = [d for d in result.diagnostics if d.message.startswith("helmCharts embedder")]
    assert "chart not rendered (" in note.message and "license is required" in note.message
    assert note.line == 2 and [d for d in result.diagnostics if d.severity != "info"] == []


def test_a_kustomization_whose_charts_ask_for_no_gpu_is_left_alone(tmp_path: Path) -> None:
    _chart(tmp_path / "charts" / "embedder", _DEPLOYMENT)
    _kustomization(tmp_path, "  - name: embedder\n    valuesInline:\n      replicaCount: 3\n")
    result = scan.run([str(tmp_path)], [])
    assert result.resources == [] and result.diagnostics == []


def test_the_helm_binary_gets_the_entry_values_as_one_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Helm reads only the first document of a values file: the entry's values file and inline
    values reach the binary merged into one."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    helm_bin = bindir / "helm"
    cat = shutil.which("cat")
    # Keep the last --values file, print nothing (a chart with no objects).
    helm_bin.write_text(f'#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --values ] && '
                        f'{cat} "$2" > "{bindir}/values.yaml"; shift; done\n')
    helm_bin.chmod(0o755)
    monkeypatch.setenv("PATH", str(bindir))  # no kustomize: the chart is rendered on its own
    repo = tmp_path / "repo"
    _chart(repo / "charts" / "embedder", _DEPLOYMENT)
    (repo / "prod.yaml").write_text("replicaCount: 2\nresources:\n  limits:\n"
                                    "    nvidia.com/gpu: 1\n")
    _kustomization(repo, "  - name: embedder\n    valuesFile: prod.yaml\n"
                   "    valuesInline:\n      replicaCount: 3\n")
    scan.run([str(repo)], [])
    given = (bindir / "values.yaml").read_text()
    assert "---" not in given
    assert yaml.safe_load(given) == {"replicaCount": 3, "resources": {"limits": {
        "nvidia.com/gpu": 1}}}


@pytest.mark.skipif(REAL is None, reason="needs kustomize or kubectl")
def test_a_warm_scan_renders_and_builds_nothing(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from gpulint.config.settings import ScanSettings, Settings
    from gpulint.render import helm, kustomize_batch

    repo = tmp_path / "repo"
    shutil.copytree(DATA, repo)
    settings = Settings(scan=ScanSettings(cache_dir=str(tmp_path / "cache")))
    calls: list[str] = []
    render, build_all = helm.render, kustomize_batch.build_all
    monkeypatch.setattr(helm, "render", lambda *a, **k: calls.append("render") or render(*a, **k))
    monkeypatch.setattr(kustomize_batch, "build_all",
                        lambda *a, **k: calls.append("build") or build_all(*a, **k))

    def report() -> list[tuple[str, str, int, float, tuple[str, ...]]]:
        result = scan.run([str(repo)], [], settings)
        notes = tuple(sorted(d.message for d in result.diagnostics))
        return sorted((r.address, r.path, r.line, r.facts["cost.monthly"], notes)
                      for r in result.resources)

    cold = report()
    assert calls == ["render", "build"]
    calls.clear()
    assert report() == cold and calls == []  # output, object lines and notes from the cache
    values = repo / "llm" / "base" / "values-serving.yaml"
    values.write_text(values.read_text().replace("g6e.12xlarge", "g5.12xlarge"))
    changed = {a: c for a, _, _, c, _ in report()}
    assert calls == ["render", "build"]  # a chart input changed: rendered and built again
    assert changed["Deployment/llm-prod/chat-llm-serving@prod"] == pytest.approx(
        _on_demand("g5.12xlarge") * HOURS * 2, abs=0.01)


def test_an_entry_values_file_is_not_read_again_on_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no builder: the chart is rendered on its own
    _chart(tmp_path / "charts" / "embedder", _DEPLOYMENT)
    (tmp_path / "gpu.yaml").write_text("resources:\n  limits:\n    nvidia.com/gpu: 1\n")
    _kustomization(tmp_path, "  - name: embedder\n    releaseName: embed\n"
                   "    additionalValuesFiles: [gpu.yaml]\n")
    result = scan.run([str(tmp_path)], [])
    assert [r.address for r in result.resources] == ["Deployment/embed"]


def test_a_chart_vendored_after_a_first_scan_is_found(tmp_path: Path) -> None:
    file = _kustomization(tmp_path, "  - name: embedder\n")
    (before,) = kustomize_charts.entries(file, _read)
    _chart(tmp_path / "charts" / "embedder", _DEPLOYMENT)
    (after,) = kustomize_charts.entries(file, _read)
    assert before.chart is None and after.chart == str(tmp_path / "charts" / "embedder")
