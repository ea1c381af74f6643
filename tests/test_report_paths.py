"""Reports name files as the scan was given them, never by the runner's absolute paths
(issue 30): kustomize `helmCharts` findings and notes carried `/home/runner/work/...` into the
report and the pull-request comment."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.render import helm

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: llm}
spec:
  replicas: {{ .Values.replicas }}
  template:
    spec:
      nodeSelector: {node.kubernetes.io/instance-type: g5.xlarge}
      containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]
"""


@pytest.mark.skipif(helm.available() is None, reason="needs helm or helm-python-sdk")
def test_kustomize_helm_charts_findings_use_relative_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    chart = repo / "app" / "charts" / "llm"
    (chart / "templates").mkdir(parents=True)
    (repo / ".git").mkdir()
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: llm\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("replicas: 1\n")
    (chart / "templates" / "d.yaml").write_text(DEPLOYMENT)
    (repo / "app" / "kustomization.yaml").write_text(
        "namespace: ml\nhelmCharts:\n  - name: llm\n    releaseName: chat\n"
        "    valuesInline: {replicas: 2}\n")
    monkeypatch.chdir(repo)
    for fmt in ("json", "sarif", "markdown", "text"):
        out = CliRunner().invoke(cli, ["scan", ".", "--format", fmt, "--fail-on", "never",
                                       "--no-cache"]).output
        assert "llm" in out and str(tmp_path) not in out, (fmt, out)
