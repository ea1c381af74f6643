"""The kind table (data/kinds.yaml): one data file, schema-checked, behind one registry."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from gpulint.facts.kubernetes import registry
from gpulint.files.safe_yaml import safe_load

SRC = Path(__file__).parents[1] / "src" / "gpulint"


def _shipped() -> Any:
    return safe_load((SRC / "data" / "kinds.yaml").read_text())


def test_the_shipped_table_is_valid() -> None:
    assert registry.problems(_shipped()) == []


def test_every_python_reader_is_named_by_the_table() -> None:
    named = {i["reader"] for i in _shipped()["kinds"] if "reader" in i}
    assert set(registry.READERS) == named


@pytest.mark.parametrize("table,problem", [
    ({"kinds": [{"group": "a.io", "kinds": ["X"], "reader": "pod"},
                {"group": "a.io", "kinds": ["X"], "generic": {}}]}, "a.io/X is listed twice"),
    ({"kinds": [{"group": "a.io", "kinds": ["X"], "reader": "no-such-reader"}]},
     "reader 'no-such-reader' does not exist"),
    ({"kinds": [{"group": "a.io", "kinds": ["X"]}]}, "is not valid under any of the given"),
    ({"kinds": [{"group": "a.io", "kinds": ["X"], "reader": "pod", "not_workload": "quota"}]},
     "is valid under each of"),
    ({"kinds": [{"group": "a.io", "kinds": ["X"], "generic": {"replica": ["n"]}}]},
     "Additional properties"),
])
def test_a_bad_table_is_refused_with_its_problem(table: Any, problem: str) -> None:
    found = registry.problems(table)
    assert any(problem in p for p in found), found
    with pytest.raises(registry.KindTableError):
        registry.build(table)


def test_kinds_are_keyed_by_api_group() -> None:
    kserve = registry.entry({"apiVersion": "serving.kserve.io/v1beta1",
                             "kind": "InferenceService"})
    ome = registry.entry({"apiVersion": "ome.io/v1beta1", "kind": "InferenceService"})
    batch = registry.entry({"apiVersion": "batch/v1", "kind": "Job"})
    volcano = registry.entry({"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job"})
    assert kserve is not None and kserve.reader == "kserve-inference-service"
    assert ome is not None and ome.reader == "ome-inference-service"
    assert batch is not None and volcano is not None and batch.reader != volcano.reader
    assert registry.entry({"apiVersion": "acme.example/v1", "kind": "InferenceService"}) is None


def test_nothing_registers_on_import() -> None:
    """Kind modules export readers; only the registry builds the table (an import used to
    replace one reader with another silently)."""
    for path in (SRC / "facts" / "kubernetes").glob("*.py"):
        tree = ast.parse(path.read_text())
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and getattr(n.func, "id", None) == "register"]
        assert calls == [], path.name
