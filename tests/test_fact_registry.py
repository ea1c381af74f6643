"""The fact registry is the one list of facts: the schema enum, docs/facts.md and the message
placeholders come from it, and nothing writes a fact it does not list."""

from __future__ import annotations

import ast
import os
import typing
from pathlib import Path

import pytest

from gpulint import fact_types, pipeline
from gpulint.facts import generate, registry
from gpulint.facts.model_decl import ModelDecl
from gpulint.model import Resource, Unknown
from gpulint.ruleset import load_rules

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "gpulint"
KNOWN = set(registry.BY_NAME)
STALE = "run python -m gpulint.facts.registry"
# What a value of each registered type may be in Python (besides Unknown and None).
PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "text": (str,), "number": (int, float), "usd": (int, float),
    "integer": (int,), "boolean": (bool,), "mapping": (dict,), "list": (list, tuple),
    "alternative": (registry.Alternative,)}


def test_schema_fact_enum_is_generated_from_the_registry() -> None:
    text = (SRC / "schemas" / "rule.schema.json").read_text(encoding="utf-8")
    assert generate.with_schema_enum(text, registry.lists()) == text, STALE


def test_docs_fact_reference_is_generated_from_the_registry() -> None:
    text = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    assert generate.DOCS_BEGIN in text
    assert generate.with_docs_table(text, registry.lists()) == text, STALE


def test_every_fact_is_a_placeholder_and_the_names_match_what_is_rendered() -> None:
    rendered = registry.placeholders(Resource("a", "t", "p", 1, "terraform"))
    assert sorted(rendered) == sorted(registry.placeholder_names())
    for name in registry.BY_NAME:
        assert name.replace(".", "_") in rendered
    # Nothing known shows as "?", an amount as "not priced".
    assert set(rendered.values()) <= {"a", "t", "p", "?", "not priced"}


def test_placeholders_render_known_values() -> None:
    res = Resource("aws_instance.x", "aws_instance", "main.tf", 3, "terraform", facts={
        "cost.monthly": 1234.5, "gpu.count": 8.0, "explain.gpu": "A100",
        "model.required_gib": Unknown("no"),
        "alternative.sizing": registry.Alternative("g5.xlarge", 700.0, 1234.5, 0.43, "detail")})
    out = registry.placeholders(res)
    assert out["monthly_cost"] == out["cost_monthly"] == "$1,234"
    assert out["gpu_count"] == "8" and out["gpu_model"] == "A100"
    assert out["required_gib"] == "?"
    assert out["alternative_monthly"] == "$700" and out["alternative_sizing"] == "detail"


def test_fact_types_module_is_generated_from_the_registry() -> None:
    """The TypedDict is written from the one list of facts, never edited by hand."""
    text = (SRC / "fact_types.py").read_text(encoding="utf-8")
    assert text == generate.fact_types_source(registry.lists()), STALE


def test_facts_typeddict_lists_every_registered_fact() -> None:
    assert list(typing.get_type_hints(fact_types.Facts)) == list(registry.BY_NAME)


def test_registry_entries_are_well_formed() -> None:
    assert len(registry.BY_NAME) == len(registry.FACTS)
    assert set(PYTHON_TYPES) == {f.type for f in registry.FACTS}
    for fact in registry.FACTS:
        assert fact.set_by in registry.STAGES, fact
        assert fact.meaning and fact.type in {"string", "number", "integer", "boolean", "usd",
                                              "mapping", "list", "alternative", "text"}
    for alias, names in registry.ALIASES.items():
        assert all(n in registry.BY_NAME for n in names), alias


def _fixture_dirs() -> list[str]:
    dirs = [str(ROOT / "examples")]
    for top in sorted((ROOT / "tests").iterdir()):
        if top.is_dir() and top.name not in {"golden", "data", "__pycache__"}:
            dirs.append(str(top))
    return dirs


def misfits(facts: dict[str, object]) -> dict[str, str]:
    """Facts that are not registered, or whose value is not of the registered type: working
    state (a parsed model, a price, a node selection) belongs on the resource, not in facts."""
    out = {}
    for name, value in facts.items():
        fact = registry.BY_NAME.get(name)
        if fact is None:
            out[name] = "not registered"
        elif value is not None and not isinstance(value, Unknown) and not (
                isinstance(value, PYTHON_TYPES[fact.type])
                and (fact.type == "boolean" or not isinstance(value, bool))):
            out[name] = f"{type(value).__name__} is not a {fact.type}"
    return out


def test_misfits_are_found() -> None:
    """The check below must be able to fail."""
    decl = ModelDecl("Qwen/Qwen2.5-7B-Instruct", "test")
    assert misfits({"model.declared": decl, "gpu.model": decl, "gpu.count": True,
                    "model.fits": Unknown("x"), "tags": {}, "region.source": None}) == {
        "model.declared": "not registered", "gpu.model": "ModelDecl is not a string",
        "gpu.count": "bool is not a number"}


@pytest.mark.slow
def test_every_fact_written_while_scanning_the_fixtures_is_registered_with_its_type() -> None:
    rules = load_rules()
    written: dict[str, str] = {}
    bad: dict[str, str] = {}
    for directory in _fixture_dirs():
        for res in pipeline.run([directory], rules).resources:
            for name in res.facts:
                written.setdefault(name, res.address)
            bad.update({f"{res.address} {n}": why for n, why in misfits(res.facts).items()})
    assert len(written) > 60
    assert bad == {}


def _fact_aliases(tree: ast.AST) -> set[int]:
    """ids of function nodes where `f = <x>.facts` makes `f` the fact mapping."""
    out = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Attribute) \
                        and node.value.attr in {"facts", "facts_by_name"} and any(
                            isinstance(t, ast.Name) and t.id == "f" for t in node.targets):
                    out.add(id(fn))
    return out


def _literal_keys(node: ast.AST, f_is_facts: bool = True) -> list[tuple[str, int]]:
    """Fact names a statement writes: x.facts[...] = (and f[...] = where f = x.facts),
    x.set_fact("..."), x.facts.update({...})."""
    out: list[tuple[str, int]] = []

    def const(n: ast.AST) -> None:
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append((n.value, n.lineno))

    if isinstance(node, (ast.Assign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Subscript) and (
                        (f_is_facts and isinstance(sub.value, ast.Name) and sub.value.id == "f")
                        or (isinstance(sub.value, ast.Attribute)
                            and sub.value.attr in {"facts", "facts_by_name"})):
                    const(sub.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "set_fact" and node.args:
            const(node.args[0])
        if node.func.attr == "update" and isinstance(node.func.value, ast.Attribute) \
                and node.func.value.attr == "facts" and node.args \
                and isinstance(node.args[0], ast.Dict):
            for k in node.args[0].keys:
                if k is not None:
                    const(k)
    return out


def test_no_source_writes_an_unregistered_fact() -> None:
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliased = _fact_aliases(tree)
        for fn in [tree, *(n for n in ast.walk(tree) if id(n) in aliased)]:
            for node in ast.walk(fn):
                for name, line in _literal_keys(node, f_is_facts=fn is not tree):
                    if name not in KNOWN:
                        bad.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert bad == []


def test_the_static_scan_sees_writes() -> None:
    """The scan above must find writes, or it proves nothing."""
    tree = ast.parse('res.facts["gpu.count"] = 1\nf["x.y"] = 2\nres.set_fact("a.b", 3)\n'
                     'res.facts.update({"c.d": 4})\nres.facts_by_name["e.f"] = 5\n')
    names = [n for node in ast.walk(tree) for n, _ in _literal_keys(node)]
    assert sorted(names) == ["a.b", "c.d", "e.f", "gpu.count", "x.y"]


@pytest.mark.parametrize("path", sorted((ROOT / "rules").glob("*.yaml")), ids=lambda p: p.stem)
def test_no_rule_id_in_python_sources(path: Path) -> None:
    """Rules are data: no Python under src/ knows a rule by its id."""
    rule_id = path.stem
    hits = [str(p.relative_to(ROOT)) for p in SRC.rglob("*.py")
            if rule_id in p.read_text(encoding="utf-8")]
    assert hits == []
    assert os.path.exists(path)
