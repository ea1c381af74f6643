"""The package layout holds: no import cycles, a Terraform layer that knows no cloud, small
modules.

Imports are read with `ast`, so the test sees what the code says, not what a run happened to
load. Only module-level imports count (an import inside a function runs when it is called and
cannot form a cycle at import time); imports under `if TYPE_CHECKING:` are left out too, since
they never run.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "gpulint"
MAX_LINES = 400
# Modules allowed over MAX_LINES, at most at their current size, until their owners split
# them; an entry must go once its module is back under the limit.
OVERSIZED: dict[str, int] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that run when the module is imported: at top level, or inside top-level
    if/try blocks (but not `if TYPE_CHECKING:`)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            stack.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                stack.extend(handler.body)
    return found


def _all_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import, deferred ones inside functions included (not `if TYPE_CHECKING:`)."""
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
               and _is_type_checking(node) for n in ast.walk(node)}
    return [n for n in ast.walk(tree)
            if isinstance(n, (ast.Import, ast.ImportFrom)) and id(n) not in skipped]


def _targets(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The gpulint modules an import statement in module `name` loads."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in MODULES}
    base = node.module or ""
    if node.level:  # relative: from the module's package
        package = name.split(".") if MODULES[name].name == "__init__.py" else \
            name.split(".")[:-1]
        anchor = package[:len(package) - node.level + 1]
        base = ".".join(anchor + ([node.module] if node.module else []))
    out = set()
    for alias in node.names:
        # `from pkg import mod` loads pkg.mod when that is a module, else a name in pkg.
        sub = f"{base}.{alias.name}"
        out.add(sub if sub in MODULES else base)
    return {t for t in out if t in MODULES}


@functools.cache  # parsed once per run, not once per test that reads it
def _graph(deferred: bool = False) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imports = _all_imports(tree) if deferred else _top_level_imports(tree)
        graph[name] = set().union(*[_targets(name, n) for n in imports]) - {name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_imports() -> None:
    """The graph is not empty by mistake: known module-level imports are in it."""
    graph = _graph()
    assert "gpulint.terraform.syntax" in graph["gpulint.terraform.parser"]
    assert "gpulint.terraform.views" in graph["gpulint.facts.terraform.providers"]


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


# Cycles through deferred imports that are being taken apart; delete an entry with its cycle.
DEFERRED_CYCLES_LEFT = [
    ["gpulint.catalog_build.build", "gpulint.catalog_build.gcp"],
]


def test_no_import_cycles_through_deferred_imports() -> None:
    """An import inside a function cannot fail at import time, but a cycle through it is still
    two modules that need each other: the layers must read one way."""
    new = [c for c in _cycles(_graph(deferred=True)) if c not in DEFERRED_CYCLES_LEFT]
    assert new == []


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


# ---- floors ---------------------------------------------------------------------------------
# The project's packages and root modules, lowest floor first. A module may import its own floor
# and the floors below it, never one above: checked over every import, deferred ones inside
# functions included. Changes to the starting order, with the reason:
# - model below files: model imports nothing of the project, and files reports as Diagnostic.
# - suppressions on the ground floor: reading `gpulint: ignore` comments and applying them needs
#   only model and comments, and load and facts read those comments as they parse.
# - conditions (three-valued operators over plain values) on the ground floor: derive/tags
#   matches tag values with the same operators the rules use.
# - discover above render: it recognises helmfile names as render/ defines them.
# - savings (a finding's saving, after evaluation) above the engine; catalog_build (offline)
#   above pricing, whose run-time catalog it builds, and imported only by cli and scripts/.
# - fact_types (the type of Resource.facts, generated from facts/registry.py) on the ground
#   floor: pricing, below facts, writes facts too, and model.py may not import it.
FLOORS: list[tuple[str, ...]] = [
    ("gpulint", "model", "data"),
    ("files", "units", "globs", "providers", "comments", "suppressions", "conditions",
     "fact_types"),
    ("config",),
    ("terraform",),
    ("load",),
    ("render",),
    ("discover",),
    ("sizing",),
    ("pricing",),
    ("catalog_build",),
    ("facts",),
    ("derive",),
    ("ruleset", "engine"),
    ("savings",),
    ("pipeline",),
    ("report",),
    ("reporters",),
    ("github", "gitlab"),
    ("cli", "__main__"),
]
# Imports that run up a floor, (importer, imported) modules, each to be taken apart; an entry
# goes when its import does. At most two.
UPWARD_ALLOWED: set[tuple[str, str]] = set()


def _floor_of(module: str) -> int:
    parts = module.split(".")
    unit = parts[1] if len(parts) > 1 else parts[0]
    for level, names in enumerate(FLOORS):
        if unit in names:
            return level
    raise AssertionError(f"{module}: its package is on no floor; add it to FLOORS")


def test_model_imports_nothing_of_the_project() -> None:
    """model.py is what every stage shares: not even a type-checking import of a stage."""
    tree = ast.parse(MODULES["gpulint.model"].read_text(encoding="utf-8"))
    def ours(node: ast.AST) -> bool:
        if isinstance(node, ast.Import):
            return any(a.name.split(".")[0] == "gpulint" for a in node.names)
        return isinstance(node, ast.ImportFrom) and (
            node.level > 0 or (node.module or "").split(".")[0] == "gpulint")

    found = [ast.unparse(n) for n in ast.walk(tree) if ours(n)]
    assert found == []


def test_development_doc_lists_the_floors() -> None:
    """docs/development.md shows FLOORS one line per package, lowest first."""
    doc = (SRC.parent / "docs" / "development.md").read_text(encoding="utf-8")
    table = doc.split("<!-- floors:", 1)[1].split("<!-- end of floors -->", 1)[0]
    rows = re.findall(r"^\| (\d+) \| `([\w.]+)` \|", table, re.MULTILINE)
    assert [(int(n), name) for n, name in rows] == [
        (level, name) for level, names in enumerate(FLOORS) for name in names]


def test_every_module_is_on_a_floor() -> None:
    for name in MODULES:
        _floor_of(name)


def _upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(m, t) for m, targets in graph.items() for t in targets
            if _floor_of(t) > _floor_of(m)}


def test_imports_never_run_up_a_floor() -> None:
    assert _upward(_graph(deferred=True)) - UPWARD_ALLOWED == set()
    assert len(UPWARD_ALLOWED) <= 2


def test_upward_allow_list_is_current() -> None:
    """An exception goes as soon as its import does."""
    assert UPWARD_ALLOWED <= _upward(_graph(deferred=True))


def test_the_floor_check_finds_an_upward_import() -> None:
    graph = {"gpulint.files.reader": {"gpulint.pricing.catalog"},
             "gpulint.cli": {"gpulint.model"}}
    assert _upward(graph) == {("gpulint.files.reader", "gpulint.pricing.catalog")}


def test_catalog_builder_is_imported_only_by_the_cli() -> None:
    graph = _graph(deferred=True)
    users = {m for m, targets in graph.items() if not m.startswith("gpulint.catalog_build")
             for t in targets if t.startswith("gpulint.catalog_build")}
    assert {u.split(".")[1] for u in users} <= {"cli"}


# Cloud and provider names, and names of their services, as words: `aws_instance` and
# `google-beta` count, `awsome` does not.
CLOUD = re.compile(r"(?<![a-z0-9])(aws|amazon|ec2|eks|sagemaker|google|gcp|gce|gke|vertex|azure|"
                   r"azurerm|aks|databricks)(?![a-z0-9])", re.I)


def test_cloud_words_are_found() -> None:
    assert CLOUD.search("resource aws_instance") and CLOUD.search("provider google-beta")
    assert not CLOUD.search("awsome daks eksample")


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n.startswith("gpulint.terraform")))
def test_terraform_layer_knows_no_cloud(name: str) -> None:
    """The Terraform language package names no cloud: provider semantics and community
    modules live in facts/terraform."""
    lines = MODULES[name].read_text(encoding="utf-8").splitlines()
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(lines, 1) if CLOUD.search(line)]
    assert hits == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_are_small(name: str) -> None:
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= max(MAX_LINES, OVERSIZED.get(name, 0)), \
        f"{name} has {lines} lines (limit {MAX_LINES}): split it"


def test_oversized_list_is_current() -> None:
    """An allowance goes as soon as the module is back under the limit."""
    for name, allowed in OVERSIZED.items():
        lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
        assert MAX_LINES < lines <= allowed, f"{name}: {lines} lines, allowed {allowed}"


# ---- one reader ------------------------------------------------------------------------------
# Every file gpulint reads goes through gpulint.files.reader (a regular file, a size limit, no
# link out of the scanned tree). Other modules may open files to write them, and read the
# package's own data through importlib.resources; a read elsewhere is one that skips the checks.
READER = "gpulint.files.reader"
# (module, call) pairs that read something other than a file path: a subprocess's pipe.
# tarfile over bytes already read: git archive's output, a packaged subchart read by the reader.
READS_ALLOWED = {("gpulint.report.git_base", "tarfile.open"),
                 ("gpulint.render.chart_stage", "tarfile.open")}
_WRITE_MODES = re.compile(r"[wax]")


def _mode(call: ast.Call, position: int) -> str | None:
    args = [*call.args[position:position + 1], *(k.value for k in call.keywords
                                                 if k.arg == "mode")]
    value = args[0] if args else None
    return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) \
        else None


def _is_bare_read(call: ast.Call) -> bool:
    func, text = call.func, ast.unparse(call.func)
    if (isinstance(func, ast.Name) and func.id == "open") or \
            text in ("io.open", "codecs.open", "os.fdopen"):
        mode = _mode(call, 1)
        return mode is None or not _WRITE_MODES.search(mode) or "+" in mode
    if text == "os.open":
        return not any(w in ast.unparse(call) for w in ("O_WRONLY", "O_CREAT"))
    if isinstance(func, ast.Attribute) and func.attr == "open" and \
            text.split(".")[0] in ("Path", "pathlib", "tarfile"):
        mode = _mode(call, 0)
        return mode is None or not _WRITE_MODES.search(mode) or "+" in mode
    if isinstance(func, ast.Attribute) and func.attr in ("read_text", "read_bytes"):
        # pathlib's take no path (at most an encoding): `source.read_text(path)` is the reader.
        first = call.args[0] if call.args else None
        return (first is None or isinstance(first, ast.Constant)) and \
            "resources.files(" not in text
    return False


def _bare_reads(name: str, tree: ast.Module) -> list[str]:
    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and (name, ast.unparse(node.func)) not in READS_ALLOWED
            and _is_bare_read(node)]


def test_bare_reads_are_found() -> None:
    tree = ast.parse("open(p)\nopen(p, 'rb')\nPath(p).read_text()\nos.open(p, 0)\n"
                     "with open(p, 'w') as fh: pass\nPath(t).open('ab')\nos.fdopen(fd, 'wb')\n"
                     "resources.files('gpulint').joinpath('x').read_text('utf-8')\n"
                     "io.open(p, 'r')\n")
    assert [r.split(":")[0] for r in _bare_reads("m", tree)] == ["1", "2", "3", "4", "9"]


@pytest.mark.parametrize("name", sorted(n for n in MODULES if n != READER))
def test_files_are_read_through_the_one_reader(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"), str(MODULES[name]))
    assert _bare_reads(name, tree) == []
