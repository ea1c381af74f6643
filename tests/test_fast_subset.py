"""The fast subset (`python -m pytest -m "not slow"`, docs/development.md) still touches every
package: each package of src/gpulint is imported by at least one test module that is not slow
as a whole.

Read with `ast`, so the check sees what the tests say. A module is slow as a whole when its
`pytestmark` carries `pytest.mark.slow`; a module with only some tests marked counts as fast.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "src" / "gpulint"
# The packages with code (data/ holds the bundled catalogs only).
PACKAGES = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py") if p.parent.name != "data")


def _is_slow_mark(node: ast.AST) -> bool:
    """`pytest.mark.slow`, alone or in a list or tuple of marks."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(_is_slow_mark(e) for e in node.elts)
    return isinstance(node, ast.Attribute) and node.attr == "slow" and \
        isinstance(node.value, ast.Attribute) and node.value.attr == "mark"


def slow_as_a_whole(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Assign) and _is_slow_mark(n.value) and any(
        isinstance(t, ast.Name) and t.id == "pytestmark" for t in n.targets) for n in tree.body)


def packages_imported(tree: ast.Module) -> set[str]:
    """The gpulint packages a test module imports, anywhere in it."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return {n.split(".")[1] for n in names if n.startswith("gpulint.")} & set(PACKAGES)


def fast_coverage() -> dict[str, set[str]]:
    """package → the fast test modules that import it."""
    out: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not slow_as_a_whole(tree):
            for package in packages_imported(tree):
                out[package].add(path.name)
    return out


def test_every_package_is_imported_by_a_fast_test() -> None:
    assert len(PACKAGES) >= 14  # the glob found the packages
    assert [p for p, users in fast_coverage().items() if not users] == []


def test_the_check_sees_slow_modules_and_imports() -> None:
    slow = ast.parse("import pytest\nfrom gpulint.cli import cli\n"
                     "pytestmark = [pytest.mark.slow, pytest.mark.skipif(False, reason='')]\n")
    fast = ast.parse("def test():\n    from gpulint.render import helm\n"
                     "    import gpulint.github.api\n")
    assert slow_as_a_whole(slow) and not slow_as_a_whole(fast)
    assert packages_imported(fast) == {"render", "github"}
    assert packages_imported(slow) == {"cli"}
