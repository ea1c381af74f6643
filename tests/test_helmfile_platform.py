"""A platform repository deployed with helmfile: helmfile.d/ files sharing their environments
through `bases:`, a nested team helmfile given values and selectors by its parent (its releases
built from a release template), releases installed per environment (`installed:` templated on
the environment, `condition:`), read once per environment (`…@dev`, `…@prod`). Prices
recomputed from the catalog."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config import load as config
from gpulint.config import settings
from gpulint.facts.model_decl import declared_model

FIXTURE = Path(__file__).parent / "fixtures" / "helmfile-platform"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def _notes(result: scan.ScanResult) -> list[str]:
    return sorted(d.message for d in result.diagnostics)


def test_every_environment_is_a_copy_of_the_platform() -> None:
    result = scan.run([str(FIXTURE)], [])
    res = {r.address: r for r in result.resources}
    llm = "HelmValues/llm/servingEngineSpec.modelSpec[0]"
    assert sorted(res) == sorted([
        f"{llm}@dev", f"{llm}@prod", "HelmValues/embedder@prod", "HelmValues/reranker@prod",
        "HelmValues/finetune/worker@dev", "HelmValues/finetune/worker@prod"])
    # The environment's values fill the values template: model, GPUs, replicas, node type.
    dev, prod = res[f"{llm}@dev"], res[f"{llm}@prod"]
    assert (dev.facts["instance.type"], dev.facts["gpu.count"], dev.facts["replicas.desired"]) \
        == ("g6.xlarge", 1, 1)
    assert (prod.facts["instance.type"], prod.facts["gpu.count"],
            prod.facts["replicas.desired"]) == ("g6e.12xlarge", 4, 2)
    assert declared_model(prod) is not None and declared_model(dev) is not None
    assert declared_model(prod).id == "meta-llama/Llama-3.1-70B-Instruct"
    assert declared_model(dev).id == "meta-llama/Llama-3.1-8B-Instruct"
    assert prod.path.endswith("vllm-stack.yaml.gotmpl") and prod.line == 4
    assert dev.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * HOURS, abs=0.01)
    assert prod.facts["cost.monthly"] == pytest.approx(
        _on_demand("g6e.12xlarge") * HOURS * 2, abs=0.01)
    # The nested helmfile gets its namespace from its parent, and each environment's
    # autoscaler (minReplicas from the environment) scales that environment's copy only.
    dev_worker = res["HelmValues/finetune/worker@dev"]
    prod_worker = res["HelmValues/finetune/worker@prod"]
    assert dev_worker.facts["k8s.namespace"] == prod_worker.facts["k8s.namespace"] == "research"
    # Its chart and values come from a release template (`inherit:`, `{{ .Release.Name }}`).
    assert dev_worker.path.endswith(str(Path("research") / "values" / "finetune.yaml.gotmpl"))
    assert (dev_worker.facts["replicas.desired"], prod_worker.facts["replicas.desired"]) == (1, 2)
    assert prod_worker.facts["cost.monthly"] == pytest.approx(
        _on_demand("g6.xlarge") * HOURS * 2, abs=0.01)
    for address in ("HelmValues/embedder@prod", "HelmValues/reranker@prod"):
        assert res[address].facts["cost.monthly"] == pytest.approx(
            _on_demand("g6.xlarge") * HOURS, abs=0.01)
    total = sum(r.facts["cost.monthly"] for r in result.resources)
    assert total == pytest.approx(HOURS * (_on_demand("g6.xlarge") * (1 + 1 + 1 + 1 + 2)
                                           + _on_demand("g6e.12xlarge") * 2), abs=0.05)


def test_releases_not_installed_and_remote_helmfiles_are_notes() -> None:
    notes = _notes(scan.run([str(FIXTURE)], []))
    assert "release embedder: not installed in environment dev (condition embeddings.enabled " \
        "is false), not read" in notes
    assert "release reranker: not installed in environment dev (installed: false), not read" \
        in notes
    assert "nested helmfile git::https://github.com/example-org/platform-helmfiles.git@gpu-" \
        "operator/helmfile.yaml?ref=v2.1.0 is remote, not read" in notes
    # The platform deploys the research team's training releases only (selectors).
    assert "environment prod: release sandbox: not selected by tier=training, not read" in notes
    assert notes.count("read for environments dev, prod: one copy of each release per "
                       "environment, addressed @<environment>") == 3  # the helmfile.d files


def _configured(tmp_path: Path, text: str) -> tuple[Path, settings.Settings]:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    (repo / ".git").mkdir()
    (repo / ".gpulint.yaml").write_text(text)
    return repo, settings.build(config.load(str(repo / ".gpulint.yaml")), settings.Flags())


def test_configuration_restricts_the_environments_read(tmp_path: Path) -> None:
    repo, built = _configured(tmp_path, "helm:\n  helmfile:\n    environments: [prod]\n")
    result = scan.run([str(repo)], [], built)
    assert {r.address.rpartition("@")[2] for r in result.resources} == {"prod"}
    assert len(result.resources) == 4
    assert "read for environments prod: one copy of each release per environment, addressed " \
        "@<environment> (dev not in helm.helmfile.environments)" in _notes(result)


def test_no_selected_environment_is_a_note_with_a_suggestion(tmp_path: Path) -> None:
    repo, built = _configured(tmp_path, "helm:\n  helmfile:\n    environments: [production]\n")
    result = scan.run([str(repo)], [], built)
    assert result.resources == []
    assert "declares environments dev, prod; none is in helm.helmfile.environments " \
        "(production) (did you mean 'prod'?), not read" in _notes(result)


def test_a_misspelt_key_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(config.ConfigError, match="unknown key 'environment' \\(did you mean "
                                                 "'environments'\\?\\)"):
        _configured(tmp_path, "helm:\n  helmfile:\n    environment: [prod]\n")


VLLM = """\
releases:
  - name: chat
    namespace: serving
    chart: vllm/vllm-stack
    values:
      - servingEngineSpec:
          modelSpec:
            - name: chat
              modelURL: Qwen/Qwen2.5-7B-Instruct
              requestGPU: 1
              nodeSelectorTerms:
                - matchExpressions:
                    - key: node.kubernetes.io/instance-type
                      operator: In
                      values: [{{ .Values | get "node" "g6.xlarge" | quote }}]
"""


def test_a_gotmpl_helmfile_with_only_the_default_environment_is_read_as_written(
        tmp_path: Path) -> None:
    (tmp_path / "helmfile.yaml.gotmpl").write_text(VLLM)
    result = scan.run([str(tmp_path)], [])
    (res,) = result.resources
    assert res.address == "HelmValues/chat/servingEngineSpec.modelSpec[0]"  # no @variant
    assert res.facts["instance.type"] == "g6.xlarge" and res.line == 8
    assert res.path.endswith("helmfile.yaml.gotmpl")
    assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * HOURS, abs=0.01)


def test_nested_helmfiles_outside_the_tree_missing_envs_and_cycles_are_notes(
        tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for d in ("apps", "teams", "helmfile.d"):
        (repo / d).mkdir(parents=True)
    (tmp_path / "outside.yaml").write_text(VLLM)
    prod = "environments:\n  prod: {}\n---\n"
    (repo / "helmfile.yaml").write_text(
        prod + "helmfiles:\n  - ../outside.yaml\n  - apps/helmfile.yaml\n"
        "  - teams/helmfile.yaml\n  - path: helmfile.d/*.yaml\n")
    (repo / "apps" / "helmfile.yaml").write_text(prod + "helmfiles:\n  - ../helmfile.yaml\n")
    (repo / "teams" / "helmfile.yaml").write_text(VLLM)  # no prod: helmfile skips it
    (repo / "helmfile.d" / "gpu.yaml").write_text(prod + VLLM)
    result = scan.run([str(repo)], [])
    assert [r.address for r in result.resources] == [
        "HelmValues/chat/servingEngineSpec.modelSpec[0]@prod"]
    assert result.resources[0].path.endswith(str(Path("helmfile.d") / "gpu.yaml"))
    notes = _notes(result)
    assert "nested helmfile ../outside.yaml is not in the scan, not read" in notes
    assert "nested helmfile teams/helmfile.yaml does not declare environment prod: not " \
        "deployed with it" in notes
    assert "nested helmfile ../helmfile.yaml includes itself, not read again" in notes


CHART = Path(__file__).parent / "fixtures" / "helm" / "charts" / "llm-serving"


def _local_chart_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(CHART, repo / "charts" / "llm")
    (repo / "values").mkdir()
    (repo / "values" / "dev.yaml").write_text(
        "nodeSelector:\n  node.kubernetes.io/instance-type: g5.xlarge\n")
    (repo / "values" / "prod.yaml").write_text(
        "replicaCount: 3\nnodeSelector:\n  node.kubernetes.io/instance-type: g5.xlarge\n")
    (repo / "helmfile.yaml").write_text(
        "environments:\n  dev: {}\n  prod: {}\n---\nreleases:\n  - name: chat\n"
        "    namespace: inference\n    chart: ./charts/llm\n    values:\n"
        "      - values/{{ .Environment.Name }}.yaml\n")
    return repo


def test_a_local_chart_is_rendered_once_per_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("helm_python")
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    result = scan.run([str(_local_chart_repo(tmp_path))], [])
    res = {r.address: r for r in result.resources}
    assert sorted(res) == ["Deployment/inference/chat-llm-serving@dev",
                           "Deployment/inference/chat-llm-serving@prod"]
    dev, prod = (res[f"Deployment/inference/chat-llm-serving@{e}"] for e in ("dev", "prod"))
    assert (dev.facts["replicas.desired"], prod.facts["replicas.desired"]) == (1, 3)
    assert prod.path.endswith(str(Path("templates") / "deployment.yaml"))
    assert prod.facts["cost.monthly"] == pytest.approx(_on_demand("g5.xlarge") * HOURS * 3,
                                                       abs=0.01)


def test_a_local_chart_that_cannot_render_is_read_per_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpulint.render import helm

    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    result = scan.run([str(_local_chart_repo(tmp_path))], [])
    res = {r.address: r for r in result.resources}
    assert sorted(res) == ["HelmValues/chat@dev", "HelmValues/chat@prod"]
    assert res["HelmValues/chat@prod"].facts["replicas.desired"] == 3
    assert res["HelmValues/chat@dev"].facts["cost.monthly"] == pytest.approx(
        _on_demand("g5.xlarge") * HOURS, abs=0.01)


TEMPLATES = """\
templates:
  nim: &nim
    namespace: inference
    chart: nim/nim-llm
    values:
      - resources:
          limits:
            nvidia.com/gpu: 1
        nodeSelector:
          node.kubernetes.io/instance-type: g6.xlarge
releases:
  - name: embedder
    <<: *nim
  - name: reranker
    inherit:
      - template: nim
        except: [namespace]
  - name: guard
    inherit:
      - template: nemo
"""


def test_release_templates_anchors_and_unknown_templates(tmp_path: Path) -> None:
    (tmp_path / "helmfile.yaml").write_text(TEMPLATES)
    result = scan.run([str(tmp_path)], [])
    res = {r.address: r for r in result.resources}
    assert sorted(res) == ["HelmValues/embedder", "HelmValues/reranker"]
    assert res["HelmValues/embedder"].facts["k8s.namespace"] == "inference"
    assert res["HelmValues/reranker"].facts["k8s.namespace"] is None  # `except: [namespace]`
    assert res["HelmValues/reranker"].line == 14  # the release: its values are the template's
    assert res["HelmValues/reranker"].facts["cost.monthly"] == pytest.approx(
        _on_demand("g6.xlarge") * HOURS, abs=0.01)
    notes = _notes(result)
    assert "release guard: template nemo is not declared, not inherited" in notes
    assert "release guard: no chart, not read" in notes


SET = """\
releases:
  - name: whisper
    namespace: speech
    chart: oci://registry.example.com/charts/whisper
    values:
      - image:
          repository: example/whisper
        resources:
          limits:
            nvidia.com/gpu: 1
    set:
      - name: replicaCount
        value: "3"
      - name: resources.limits.nvidia\\.com/gpu
        value: 4
      - name: nodeSelector.node\\.kubernetes\\.io/instance-type
        value: g6.12xlarge
"""


def test_set_entries_apply_over_the_values(tmp_path: Path) -> None:
    (tmp_path / "helmfile.yaml").write_text(SET)
    (res,) = scan.run([str(tmp_path)], []).resources
    assert (res.facts["gpu.count"], res.facts["replicas.desired"],
            res.facts["instance.type"]) == (4, 3, "g6.12xlarge")  # "3" read as a number
    assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g6.12xlarge") * HOURS * 3,
                                                      abs=0.01)


def test_values_entries_apply_in_order_whatever_their_kind(tmp_path: Path) -> None:
    (tmp_path / "values").mkdir()
    (tmp_path / "values" / "base.yaml.gotmpl").write_text(
        "replicaCount: 1\nresources:\n  limits:\n    nvidia.com/gpu: 1\n"
        "nodeSelector:\n  node.kubernetes.io/instance-type: {{ .Values.node }}\n")
    (tmp_path / "values" / "prod.yaml").write_text("replicaCount: 3\n")
    (tmp_path / "helmfile.yaml").write_text(
        "environments:\n  default:\n    values:\n      - node: g6.xlarge\n---\n"
        "releases:\n  - name: asr\n    chart: example/asr\n    values:\n"
        "      - replicaCount: 5\n      - values/base.yaml.gotmpl\n      - values/prod.yaml\n")
    (res,) = scan.run([str(tmp_path)], []).resources
    assert res.facts["replicas.desired"] == 3  # the last entry wins, file after template
    assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * HOURS * 3,
                                                      abs=0.01)


def test_a_helmfile_nested_in_one_environment_only_is_not_read_on_its_own(
        tmp_path: Path) -> None:
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / "helmfile.yaml").write_text(VLLM)
    (tmp_path / "helmfile.yaml").write_text(
        "environments:\n  dev: {}\n  prod: {}\n---\nhelmfiles:\n"
        "{{ if eq .Environment.Name \"prod\" }}\n  - path: gpu/helmfile.yaml\n"
        "    values: [{node: g6.xlarge}]\n{{ end }}\n")
    result = scan.run([str(tmp_path)], [])
    assert [r.address for r in result.resources] == [
        "HelmValues/chat/servingEngineSpec.modelSpec[0]@prod"]
