"""A Terraform helm_release of a chart in the scanned tree is rendered with the release's values,
name and namespace (tests/fixtures/terraform-local-chart: a root module installing its own
text-embeddings chart with a values file and a `set`, and a local serving module installing the
vLLM chart it ships through `${path.module}`), in place of the chart's render with its defaults;
when it cannot be rendered, the chart's and the release's values are read, with the reason.
Prices are recomputed from the catalog rows."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource
from gpulint.render import helm

FIXTURE = Path(__file__).parent / "fixtures" / "terraform-local-chart"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730


def _aws(instance: str, region: str = "us-east-1") -> tuple[float, int]:
    aws = json.loads(CATALOG.read_text())["providers"]["aws"]
    return float(aws["prices"][instance][region][0]), int(aws["instances"][instance]["count"])


def _line(path: Path, text: str) -> int:
    return next(i + 1 for i, ln in enumerate(path.read_text().split("\n")) if text in ln)


@pytest.fixture(scope="module")
def scanned() -> tuple[scan.ScanResult, dict[str, Resource]]:
    result = scan.run([str(FIXTURE)], [])
    return result, {r.address: r for r in result.resources}


def test_each_release_is_rendered_once_with_its_values(scanned) -> None:
    result, res = scanned
    # Not also the charts' renders with their defaults (Deployment/embeddings-tei, vllm-vllm).
    assert sorted(res) == ["Deployment/llm/chat-vllm", "Deployment/search/embeddings-tei"]
    notes = [(os.path.basename(d.path or ""), d.line, d.message) for d in result.diagnostics]
    renderer = "helm" if shutil.which("helm") else \
        f"Helm SDK {pytest.importorskip('helm_python').helm_sdk_version()}"
    assert ("main.tf", _line(FIXTURE / "main.tf", 'resource "helm_release" "embeddings"'),
            f"chart charts/embeddings rendered with {renderer} for helm_release.embeddings "
            "(release embeddings)") in notes
    assert not [n for n in notes if n[0] in ("Chart.yaml", "values.yaml", "embeddings.yaml")]


def test_root_release_values_file_and_set(scanned) -> None:
    _, res = scanned
    tei = res["Deployment/search/embeddings-tei"]
    template = FIXTURE / "charts" / "embeddings" / "templates" / "deployment.yaml"
    assert os.path.abspath(tei.path) == str(template)
    assert tei.line == _line(template, "kind: Deployment")
    assert tei.facts["replicas.desired"] == 2  # the set block over the chart's 1
    assert tei.facts["instance.type"] == "g5.xlarge" and tei.facts["gpu.count"] == 1
    price, _ = _aws("g5.xlarge")
    assert tei.facts["cost.monthly"] == pytest.approx(price * HOURS * 2, abs=0.01)


def test_module_release_through_path_module(scanned) -> None:
    _, res = scanned
    chat = res["Deployment/llm/chat-vllm"]
    assert os.path.abspath(chat.path) == str(FIXTURE / "modules" / "inference" / "charts" /
                                             "vllm" / "templates" / "deployment.yaml")
    assert chat.facts["gpu.count"] == 2 and chat.facts["instance.type"] == "g6e.12xlarge"
    price, per_node = _aws("g6e.12xlarge")
    assert chat.facts["cost.monthly"] == pytest.approx(price * 2 / per_node * HOURS, abs=0.01)


def _repo(tmp_path: Path, template: str) -> Path:
    (tmp_path / ".git").mkdir()
    chart = tmp_path / "charts" / "whisper"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: whisper\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("replicaCount: 1\nworker:\n  resources:\n"
                                       "    limits:\n      nvidia.com/gpu: 1\n")
    (chart / "templates" / "job.yaml").write_text(template)
    (tmp_path / "main.tf").write_text('''resource "helm_release" "asr" {
  name      = "asr"
  chart     = "./charts/whisper"
  namespace = "speech"

  set {
    name  = "worker.nodeSelector.node\\\\.kubernetes\\\\.io/instance-type"
    value = "g6.xlarge"
  }
}
''')
    return tmp_path


def test_a_chart_that_does_not_render_is_read_from_its_values(tmp_path: Path) -> None:
    repo = _repo(tmp_path, '{{ required "storage.bucket is required" .Values.storage }}\n')
    result = scan.run([str(repo)], [])
    (asr,) = result.resources
    assert asr.address == "HelmValues/asr/worker" and asr.facts["k8s.namespace"] == "speech"
    assert os.path.basename(asr.path) == "values.yaml"  # the chart's GPU request
    assert asr.facts["instance.type"] == "g6.xlarge"  # the release's set
    price, _ = _aws("g6.xlarge")
    assert asr.facts["cost.monthly"] == pytest.approx(price * HOURS, abs=0.01)
    (note,) = [d for d in result.diagnostics if "not rendered" in d.message]
    assert note.message.startswith("helm_release.asr: chart charts/whisper not rendered (")
    assert "storage.bucket is required" in note.message and note.line == 1
    assert note.message.endswith("; read 1 GPU request from its values")


def test_without_a_renderer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    monkeypatch.setattr(helm, "render", lambda *a, **k: None)
    result = scan.run([str(repo)], [])
    (asr,) = result.resources
    assert asr.address == "HelmValues/asr/worker"
    assert any("not rendered (no Helm renderer: put helm on PATH or pip install "
               "'gpulint[helm]')" in d.message for d in result.diagnostics)
