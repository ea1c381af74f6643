"""Helm charts, kustomizations and lone template files.

The real helm and kustomize are not installed on the test machine: the no-tool path is tested
for real (PATH holds no such tool), the tool path with small fake `helm`/`kustomize` scripts that
print a rendered manifest and record their arguments.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.config.settings import ScanSettings, Settings
from gpulint.facts.model_decl import declared_model
from gpulint.render import helm

TEMPLATE = textwrap.dedent("""\
    apiVersion: apps/v1
    {{- if .Values.enabled }}
    kind: Deployment
    metadata:
      name: {{ .Release.Name }}-llm
    spec:
      replicas: {{ .Values.replicas }}
    {{- end }}
    """)
RENDERED = textwrap.dedent("""\
    ---
    # Source: llm/templates/deployment.yaml
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: llm-llm
    spec:
      replicas: 2
      template:
        spec:
          nodeSelector:
            node.kubernetes.io/instance-type: g5.xlarge
          containers:
            - name: vllm
              args: ["--model", "Qwen/Qwen2.5-7B-Instruct"]
              resources:
                limits:
                  nvidia.com/gpu: 1
    """)
PLAIN = textwrap.dedent("""\
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: llm
    spec:
      template:
        spec:
          containers:
            - name: vllm
              resources:
                limits:
                  nvidia.com/gpu: 1
    """)


def _chart(root: Path) -> Path:
    chart = root / "llm"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: llm\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("enabled: true\nreplicas: 2\n")
    (chart / "templates" / "deployment.yaml").write_text(TEMPLATE)
    return chart


def _tool(bindir: Path, name: str, output: str, exit_code: int = 0) -> Path:
    """A fake CLI that records its arguments next to itself and prints `output`."""
    bindir.mkdir(exist_ok=True)
    (bindir / f"{name}.out").write_text(output)
    script = bindir / name
    cat = shutil.which("cat")  # absolute: the tests set PATH to the fake tool's directory only
    script.write_text(f'#!/bin/sh\necho "$@" > "{bindir}/{name}.args"\n'
                      f'{cat} "{bindir}/{name}.out"\n'
                      + (f'echo "Error: render failed" >&2\nexit {exit_code}\n' if exit_code
                         else ""))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return bindir


@pytest.fixture
def no_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    return empty


def _warnings(result: scan.ScanResult) -> list[str]:
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return [d.message for d in result.diagnostics if d.severity == "warning"]


def _notes(result: scan.ScanResult) -> list[str]:
    return [d.message for d in result.diagnostics if d.severity == "info"]


def test_chart_without_renderer_is_a_note_and_its_values_are_read(
        tmp_path: Path, no_tools: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    chart = _chart(tmp_path)
    result = scan.run([str(tmp_path)], [])
    assert result.resources == [] and _warnings(result) == []  # the values ask for no GPU
    assert _notes(result) == ["chart not rendered (no Helm renderer: put helm on PATH or pip "
                              "install 'gpulint[helm]'); read 0 GPU requests from its values"]
    assert result.diagnostics[0].path.endswith(os.path.join("llm", "Chart.yaml"))
    assert chart.exists()


def test_lone_template_file_is_a_note_not_a_parse_error(tmp_path: Path, no_tools: Path) -> None:
    path = tmp_path / "deployment.yaml"
    path.write_text(TEMPLATE)
    result = scan.run([str(path)], [])
    assert _warnings(result) == [] and result.diagnostics[0].message.startswith(
        "skipped a template: Helm/Go template syntax")
    assert result.diagnostics[0].line == 2 and result.diagnostics[0].severity == "info"


def test_chart_rendered_with_helm_and_values(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    chart = _chart(tmp_path / "src")
    bindir = _tool(tmp_path / "bin", "helm", RENDERED)
    monkeypatch.setenv("PATH", str(bindir))
    values = tmp_path / "prod.yaml"
    values.write_text("replicas: 2\n")
    settings = Settings(scan=ScanSettings(helm_values=(str(values),)))
    result = scan.run([str(tmp_path / "src")], [], settings)
    assert _warnings(result) == []
    (res,) = result.resources
    assert res.address == "Deployment/llm-llm" and res.facts["replicas.desired"] == 2
    assert res.path.endswith(os.path.join("llm", "templates", "deployment.yaml"))
    assert res.line == 3  # the template's `kind: Deployment` line
    assert declared_model(res).id == "Qwen/Qwen2.5-7B-Instruct"
    args = (bindir / "helm.args").read_text().split()
    # A staged copy of the chart (render/chart_stage.py), and the merged values as one file.
    assert args[:2] == ["template", "llm"] and args[2] != str(chart)
    assert os.path.basename(args[2]) == "llm" and args[3] == "--values"
    assert args[4].endswith("gpulint-values.json") and len(args) == 5


def test_helm_failure_is_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _chart(tmp_path / "src")
    monkeypatch.setenv("PATH", str(_tool(tmp_path / "bin", "helm", "", exit_code=1)))
    result = scan.run([str(tmp_path / "src")], [])
    assert _warnings(result) == []
    assert _notes(result) == ["chart not rendered (helm failed: Error: render failed); read 0 GPU "
                              "requests from its values"]


def test_kustomization_without_tool_scans_plain_files(tmp_path: Path, no_tools: Path) -> None:
    (tmp_path / "kustomization.yaml").write_text("resources: [deployment.yaml]\n")
    (tmp_path / "deployment.yaml").write_text(PLAIN)
    result = scan.run([str(tmp_path)], [])
    assert _warnings(result) == []
    assert _notes(result) == ["kustomization not built: neither kustomize nor kubectl is on "
                              "PATH; its files are scanned as they are, without patches"]
    assert [r.address for r in result.resources] == ["Deployment/llm"]


def test_kustomization_built_and_mapped_to_its_file(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "overlay"
    src.mkdir()
    (src / "kustomization.yaml").write_text("resources: [deployment.yaml]\n")
    (src / "deployment.yaml").write_text("# base\n" + PLAIN)
    built = PLAIN.replace("spec:\n  template:", "spec:\n  replicas: 5\n  template:")
    assert built != PLAIN
    bindir = _tool(tmp_path / "bin", "kustomize", built)
    monkeypatch.setenv("PATH", str(bindir))
    result = scan.run([str(src)], [])
    assert _warnings(result) == []
    (res,) = result.resources  # rendered once, not also scanned as a plain file
    assert res.facts["replicas.desired"] == 5
    assert res.path.endswith("deployment.yaml") and res.line == 2
    assert (bindir / "kustomize.args").read_text().split() == ["build", str(src)]


def test_cli_helm_values_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _chart(tmp_path / "src")
    bindir = _tool(tmp_path / "bin", "helm", RENDERED)
    monkeypatch.setenv("PATH", str(bindir))
    values = tmp_path / "v.yaml"
    values.write_text("{}\n")
    out = CliRunner().invoke(cli, ["scan", str(tmp_path / "src"), "--helm-values", str(values),
                                   "--format", "json", "--fail-on", "never"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert [r["address"] for r in report["resources"]] == ["Deployment/llm-llm"]
    assert "--values" in (bindir / "helm.args").read_text()


def test_kubectl_kustomize_when_kustomize_is_missing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "app"
    src.mkdir()
    (src / "kustomization.yaml").write_text("resources: [deployment.yaml]\n")
    (src / "deployment.yaml").write_text(PLAIN)
    bindir = _tool(tmp_path / "bin", "kubectl", PLAIN)
    monkeypatch.setenv("PATH", str(bindir))
    result = scan.run([str(src)], [])
    assert _warnings(result) == [] and [r.address for r in result.resources] == ["Deployment/llm"]
    assert (bindir / "kubectl.args").read_text().split() == ["kustomize", str(src)]


def test_chart_without_helm_still_scans_plain_manifests_outside_templates(
        tmp_path: Path, no_tools: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chart = _chart(tmp_path)
    (chart / "examples").mkdir()
    (chart / "examples" / "gpu-deployment.yaml").write_text(PLAIN)
    monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    result = scan.run([str(tmp_path)], [])
    # templates/ stays skipped (one note); the plain example outside it is read.
    assert _notes(result) == ["chart not rendered (no Helm renderer: put helm on PATH or pip "
                              "install 'gpulint[helm]'); read 0 GPU requests from its values"]
    assert [r.path for r in result.resources] == [str(chart / "examples" / "gpu-deployment.yaml")]


RAY_SERVICE = textwrap.dedent("""\
    apiVersion: ray.io/v1
    kind: RayService
    metadata:
      name: vllm
      namespace: rayserve-vllm
    spec:
      rayClusterConfig:
        headGroupSpec:
          template:
            spec:
              containers:
                - name: head
                  image: rayproject/ray-ml:2.33.0-py311
        workerGroupSpecs:
          - groupName: gpu-group
            replicas: 1
            minReplicas: 1
            maxReplicas: 2
            template:
              spec:
                nodeSelector:
                  node.kubernetes.io/instance-type: g5.2xlarge
                containers:
                  - name: worker
                    image: rayproject/ray-ml:2.33.0-py311
                    resources:
                      limits:
                        nvidia.com/gpu: 1
    """)


@pytest.mark.skipif(helm.available() is None, reason="needs helm or helm-python-sdk")
def test_a_rendered_chart_still_scans_manifests_beside_its_templates(tmp_path: Path) -> None:
    chart = _chart(tmp_path)
    (chart / "templates" / "deployment.yaml").write_text(RENDERED.replace(
        "name: llm-llm", "name: {{ .Release.Name }}-llm").split("\n", 2)[2])
    # A manifest applied with kubectl beside the chart: Helm never installs it, a user does.
    (chart / "ray-service-vllm.yaml").write_text(RAY_SERVICE)
    # Chart-testing values (ci/) are not a deployment: never read as values.
    (chart / "ci").mkdir()
    (chart / "ci" / "gpu-values.yaml").write_text("resources:\n  limits:\n    nvidia.com/gpu: 4\n")
    result = scan.run([str(tmp_path)], [])
    found = sorted((Path(r.path).relative_to(chart).as_posix(), r.address)
                   for r in result.resources)
    assert found == [("ray-service-vllm.yaml", "RayService/rayserve-vllm/vllm/workers/gpu-group"),
                     ("templates/deployment.yaml", "Deployment/llm-llm")]
