"""Per-chart settings in the configuration (helm.charts): values files after the chart's own
values.yaml and --helm-values, the release name and the namespace, for a rendered chart and for
one read from its values; a configured values file outside the tree is not read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config import load as config
from gpulint.config import settings
from gpulint.render import helm

CHART = Path(__file__).parent / "fixtures" / "helm" / "charts" / "llm-serving"
PROD = "replicaCount: 3\nnodeSelector:\n  node.kubernetes.io/instance-type: g5.xlarge\n"


def _repo(tmp_path: Path, extra: str = "") -> tuple[Path, settings.Settings]:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    shutil.copytree(CHART, repo / "charts" / "llm")
    (repo / "deploy").mkdir()
    (repo / "deploy" / "prod.yaml").write_text(PROD)
    (repo / ".gpulint.yaml").write_text(
        "helm:\n  charts:\n    charts/llm:\n      release: chat\n      namespace: serving\n"
        f"      values: [deploy/prod.yaml{extra}]\n")
    loaded = config.load(str(repo / ".gpulint.yaml"))
    return repo, settings.build(loaded, settings.Flags())


def test_configured_release_namespace_and_values_render_the_chart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("helm_python")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    repo, built = _repo(tmp_path)
    result = scan.run([str(repo)], [], built)
    (res,) = result.resources
    assert res.address == "Deployment/serving/chat-llm-serving"  # release chat, chart name
    assert res.facts["replicas.desired"] == 3 and res.facts["instance.type"] == "g5.xlarge"
    # deploy/prod.yaml is read with the chart, not again on its own.
    assert not [d for d in result.diagnostics if d.path.endswith("prod.yaml")]


def test_configured_values_are_read_when_the_chart_cannot_render(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    repo, built = _repo(tmp_path)
    result = scan.run([str(repo)], [], built)
    (res,) = result.resources
    assert res.address == "HelmValues/chat" and res.facts["k8s.namespace"] == "serving"
    assert res.facts["replicas.desired"] == 3 and res.facts["instance.type"] == "g5.xlarge"
    assert res.path.endswith(str(Path("deploy") / "prod.yaml"))  # where the winning value is


def test_configured_values_file_outside_the_tree_is_not_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    (tmp_path / "host.yaml").write_text("replicaCount: 99\n")
    repo, built = _repo(tmp_path, ", ../host.yaml")
    result = scan.run([str(repo)], [], built)
    (res,) = result.resources
    assert res.facts["replicas.desired"] == 3
    (warn,) = [d for d in result.diagnostics if d.path.endswith("host.yaml")]
    assert warn.severity == "warning" and warn.message == (
        "Helm values file from the configuration is outside the scanned tree, not read")
