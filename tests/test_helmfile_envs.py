"""helmfile environments and .gotmpl values files read without executing templates: every
declared environment is read as its own variant (`@<environment>`), its values fill the
references and decide the conditionals, and the actions that were not evaluated are counted in
a note. Prices recomputed from the catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.facts.model_decl import declared_model
from gpulint.render import helmfile

FIXTURE = Path(__file__).parent / "fixtures" / "helmfile-envs"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def test_each_environment_fills_the_values_template_with_its_own_values() -> None:
    result = scan.run([str(FIXTURE)], [])
    by_address = {r.address: r for r in result.resources}
    assert sorted(by_address) == ["HelmValues/llm/servingEngineSpec.modelSpec[0]@default",
                                  "HelmValues/llm/servingEngineSpec.modelSpec[0]@production"]
    dev = by_address["HelmValues/llm/servingEngineSpec.modelSpec[0]@default"]
    assert dev.path.endswith("vllm.yaml.gotmpl") and dev.line == 4
    assert dev.facts["k8s.namespace"] == "inference"  # {{ .Values.namespace }} in the helmfile
    assert dev.facts["instance.type"] == "g6.xlarge" and dev.facts["gpu.count"] == 1
    assert dev.facts["replicas.desired"] == 2
    assert declared_model(dev) is not None
    assert declared_model(dev).id == "meta-llama/Llama-3.1-8B-Instruct"
    assert dev.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * 730 * 2, abs=0.01)
    prod = by_address["HelmValues/llm/servingEngineSpec.modelSpec[0]@production"]
    assert prod.facts["k8s.namespace"] == "inference-prod"
    assert prod.facts["instance.type"] == "g6e.12xlarge" and prod.facts["gpu.count"] == 4
    assert prod.facts["replicas.desired"] == 3
    assert declared_model(prod) is not None
    assert declared_model(prod).id == "meta-llama/Llama-3.1-70B-Instruct"
    assert prod.facts["cost.monthly"] == pytest.approx(_on_demand("g6e.12xlarge") * 730 * 3,
                                                       abs=0.01)
    notes = sorted(d.message for d in result.diagnostics)
    assert notes == [
        "environment default: release llm: chart vllm/vllm-stack is not in the scan; read 1 "
        "GPU request from its values",
        # default does not set hfSecret: the `if` keeps its branch, the reference is blanked
        "environment default: release llm: values template read without executing it; 2 "
        "template actions not evaluated",
        "environment production: release llm: chart vllm/vllm-stack is not in the scan; read 1 "
        "GPU request from its values",
        "read for environments default, production: one copy of each release per environment, "
        "addressed @<environment>"]
    assert {d.severity for d in result.diagnostics} == {"info"}


def test_render_evaluates_references_and_conditionals() -> None:
    env = {"gpu": {"count": 2}, "on": True, "name": "x"}
    text = ("a: {{ .Values.gpu.count }}\nb: {{ .Environment.Values.name | quote }}\n"
            "c: {{ .StateValues.missing | default \"7\" }}\nd: {{ .Values.on }}\n"
            "e: {{ .Environment.Name }}\n{{- if .Values.on }}\nf: {{ include \"x\" . }}\n")
    out, left = helmfile.render(text, env)
    assert out == 'a: 2\nb: "x"\nc: 7\nd: true\ne: default\n\nf: \n'
    assert left == 1  # the include; the if is evaluated (true)


@pytest.mark.parametrize(("name", "replicas", "installed"), [("prod", "3", "true"),
                                                             ("dev", "1", "false"),
                                                             ("default", "0", "false")])
def test_render_takes_the_branch_of_the_environment(name: str, replicas: str,
                                                    installed: str) -> None:
    text = ('{{ if eq .Environment.Name "prod" }}\nreplicas: 3\n'
            '{{- else if eq .Environment.Name "dev" }}\nreplicas: 1\n{{ else }}\nreplicas: 0\n'
            '{{ end }}\ninstalled: {{ eq .Environment.Name "prod" | toYaml }}\n'
            'domain: {{ .Values | get "domain" "dev.example.com" }}\n')
    out, left = helmfile.render(text, {}, name)
    assert left == 0
    assert out.count("\n") == text.count("\n")  # every line keeps its number
    assert [ln for ln in out.splitlines() if ln.strip()] == [
        f"replicas: {replicas}", f"installed: {installed}", "domain: dev.example.com"]


def test_an_unknown_condition_keeps_every_branch_and_is_counted() -> None:
    out, left = helmfile.render('{{ if .Values.unset }}\na: 1\n{{ else }}\nb: 2\n{{ end }}\n'
                                "c: {{ env \"HOME\" }}\n{{ range .Values.list }}\n{{ end }}\n",
                                {})
    assert [ln for ln in out.splitlines() if ln.strip()] == ["a: 1", "b: 2", "c: "]
    assert left == 3  # the if, env and range


@pytest.mark.slow
@pytest.mark.parametrize("text", ["{{" * 200_000, "{{/*" * 100_000, "{{ " + "(" * 50_000 + " }}",
                                  "{{ if true }}" * 50_000, "{{ else }}{{ end }}" * 50_000])
def test_hostile_templates_are_read_in_one_pass(text: str) -> None:
    out, left = helmfile.render(text, {})  # no recursion error, no quadratic scan
    assert out.count("\n") == text.count("\n") and left <= text.count("{{")
