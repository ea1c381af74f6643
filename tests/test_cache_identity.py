"""The parse cache's identity covers every module of the Terraform parser: a module that shapes
a parse tree (heredoc splitting, template directives, JSON syntax) and is edited must make the
cached trees stale, or a scan would go on serving trees of the old code."""

from __future__ import annotations

import ast
from pathlib import Path

from gpulint.load import cache

SRC = Path(__file__).resolve().parent.parent / "src"


def _imports(module: str) -> set[str]:
    """gpulint modules that `module` imports at its top level (not under TYPE_CHECKING)."""
    path = SRC / Path(*module.split(".")).with_suffix(".py")
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gpulint"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                is_module = (SRC / Path(*sub.split("."))).with_suffix(".py").exists()
                found.add(sub if is_module else node.module)
    return found


def test_every_module_of_the_terraform_parser_is_in_the_parser_identity() -> None:
    seen, todo = set(), ["gpulint.terraform.parser"]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module))
    missing = sorted(seen - set(cache._PARSER_MODULES))
    assert not missing, f"add {missing} to load/cache.py _PARSER_MODULES"
