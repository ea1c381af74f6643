"""helmfile environments and .gotmpl values files read without executing templates: the default
environment's values fill plain references, other environments are named and not read, and the
actions that were not evaluated are counted in a note. Prices recomputed from the catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.load import helmfile

FIXTURE = Path(__file__).parent / "fixtures" / "helmfile-envs"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def test_default_environment_values_fill_the_values_template() -> None:
    result = scan.run([str(FIXTURE)], [])
    (res,) = result.resources
    assert res.address == "HelmValues/llm/servingEngineSpec.modelSpec[0]"
    assert res.path.endswith("vllm.yaml.gotmpl") and res.line == 4
    assert res.facts["k8s.namespace"] == "inference"  # {{ .Values.namespace }} in the helmfile
    assert res.facts["instance.type"] == "g6.xlarge" and res.facts["gpu.count"] == 1
    assert res.facts["replicas.desired"] == 2
    assert res.declared_model.id == "meta-llama/Llama-3.1-8B-Instruct"
    assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * 730 * 2, abs=0.01)
    notes = sorted(d.message for d in result.diagnostics)
    assert notes == [
        "read for the default environment (not production)",
        "release llm: chart vllm/vllm-stack is not in the scan; read 1 GPU request from its "
        "values",
        "release llm: values template read without executing it; 3 template actions not "
        "evaluated"]
    assert {d.severity for d in result.diagnostics} == {"info"}


def test_render_substitutes_plain_references_only() -> None:
    env = {"gpu": {"count": 2}, "on": True, "name": "x"}
    text = ("a: {{ .Values.gpu.count }}\nb: {{ .Environment.Values.name | quote }}\n"
            "c: {{ .StateValues.missing | default \"7\" }}\nd: {{ .Values.on }}\n"
            "e: {{ .Environment.Name }}\n{{- if .Values.on }}\nf: {{ include \"x\" . }}\n")
    out, left = helmfile.render(text, env)
    assert out == 'a: 2\nb: "x"\nc: 7\nd: true\ne: default\n\nf: \n'
    assert left == 2  # the if and the include
