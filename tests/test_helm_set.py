"""`--set` names and values as Helm's strvals parser reads them (helm/helm pkg/strvals/parser.go:
typedVal, MaxIndex 65536, MaxNestedNameLevel 30), shared by helm_release `set` blocks and helmfile
`set:` entries; a name Helm refuses is a warning at its line, not a list grown to the index."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.render import helm_set


@pytest.mark.parametrize(("text", "value"), [
    ("1", 1), ("8", 8), ("-3", -3), ("+4", 4), ("0", 0), ("true", True), ("FALSE", False),
    ("null", None), ("Null", None),
    ("01", "01"), ("1.5", "1.5"), ("1e3", "1e3"), ("1_000", "1_000"), ("yes", "yes"),
    ("9223372036854775808", "9223372036854775808"), ("g5.xlarge", "g5.xlarge"), ("", ""),
])
def test_values_are_typed_as_helm_types_them(text: str, value: object) -> None:
    assert helm_set.scalar(text) == value and type(helm_set.scalar(text)) is type(value)
    assert helm_set.scalar(text, as_string=True) == text
    assert helm_set.scalar([text, "2"]) == [value, 2]


def test_names_walk_keys_escaped_dots_and_indexes() -> None:
    assert helm_set.path("resources.limits.nvidia\\.com/gpu") == (
        "resources", "limits", "nvidia.com/gpu")
    assert helm_set.path("servingEngineSpec.modelSpec[0].requestGPU") == (
        "servingEngineSpec", "modelSpec", 0, "requestGPU")
    assert helm_set.path("a[1][2]") == ("a", 1, 2)
    assert helm_set.put({"a": [None, {"x": 1}]}, ("a", 1, "y"), 2) == {"a": [None, {"x": 1,
                                                                                   "y": 2}]}
    assert helm_set.path(f"a[{helm_set.MAX_INDEX}]") == ("a", helm_set.MAX_INDEX)
    with pytest.raises(helm_set.Refused, match="index 65537 is above 65,536"):
        helm_set.path("a[65537]")
    assert len(helm_set.path(".".join(["k"] * 31))) == 31
    with pytest.raises(helm_set.Refused, match="nested more than 30 levels"):
        helm_set.path(".".join(["k"] * 32))


HUGE_INDEX = '''resource "helm_release" "vllm" {
  name       = "vllm"
  repository = "https://vllm-project.github.io/production-stack"
  chart      = "vllm-stack"

  set {
    name  = "servingEngineSpec.modelSpec[0].requestGPU"
    value = "1"
  }
  set {
    name  = "servingEngineSpec.modelSpec[900000000].requestGPU"
    value = "1"
  }
}
'''


def test_a_set_index_helm_refuses_is_a_warning_not_a_huge_list(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(HUGE_INDEX)
    result = scan.run([str(tmp_path)], [])
    warnings = [d for d in result.diagnostics if d.severity == "warning"]
    assert [(d.line, d.message) for d in warnings] == [(10, (
        "helm_release.vllm: set 'servingEngineSpec.modelSpec[900000000].requestGPU' not applied: "
        "index 900000000 is above 65,536, as Helm refuses"))]
    assert len(result.resources) == 1  # the first entry's GPU request is still read


def test_a_helmfile_set_entry_helm_refuses_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "helmfile.yaml").write_text(
        "releases:\n"
        "  - name: chat\n"
        "    chart: vllm/vllm-stack\n"
        "    set:\n"
        "      - name: servingEngineSpec.modelSpec[0].requestGPU\n"
        "        value: 1\n"
        "      - name: servingEngineSpec.modelSpec[70000].requestGPU\n"
        "        value: 1\n")
    result = scan.run([str(tmp_path)], [])
    warnings = [d for d in result.diagnostics if d.severity == "warning"]
    assert [(d.line, d.message) for d in warnings] == [(7, (
        "release chat: set 'servingEngineSpec.modelSpec[70000].requestGPU' not applied: "
        "index 70000 is above 65,536, as Helm refuses"))]
