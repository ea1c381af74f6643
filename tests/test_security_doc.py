"""docs/security.md lists every bound with its current default: each module-level MAX_*, *_SECONDS
or *_S constant of the bounded modules appears, with its value, in a row of the table citing
that module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
BOUNDED = ["files/safe_yaml.py", "render/helm.py", "terraform/bounds.py", "terraform/expansion.py",
           "terraform/functions.py", "terraform/module.py", "terraform/text_functions.py",
           "terraform/expressions.py", "terraform/fileset.py", "terraform/template.py",
           "render/helm_set.py", "load/hcl_bound.py"]
_NAME = re.compile(r"^(MAX_[A-Z_]+|[A-Z_]+_SECONDS|[A-Z_]+_S)$")


def _rows(module: str) -> list[str]:
    return [line for line in DOC.splitlines() if line.startswith("|") and f"`{module}`" in line]


def _bounds(module: str) -> dict[str, float]:
    tree = ast.parse((ROOT / "src" / "gpulint" / module).read_text(encoding="utf-8"))
    return {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
            for t in n.targets if isinstance(t, ast.Name) and _NAME.match(t.id)
            and isinstance(n.value, ast.Constant) and isinstance(n.value.value, (int, float))}


@pytest.mark.parametrize("module", BOUNDED)
def test_every_bound_is_documented_with_its_value(module: str) -> None:
    bounds = _bounds(module)
    assert bounds, f"{module} defines no bound: update BOUNDED"
    rows = " ".join(_rows(module))
    missing = {k: v for k, v in bounds.items()
               if not re.search(rf"(?<![\d.,]){re.escape(f'{v:,}')}(?![\d,]|\.\d)", rows)}
    assert not missing, f"docs/security.md does not list {missing} of {module}"


def test_the_terraform_file_size_bound_is_documented() -> None:
    """The bound itself lives beside the file-size limit (files/text.py, read by settings): its
    row cites the module that applies it, with the default in KiB and the flag."""
    from gpulint.files.text import DEFAULT_MAX_HCL_BYTES

    rows = " ".join(_rows("load/hcl_bound.py"))
    assert f"{DEFAULT_MAX_HCL_BYTES // 1024:,} KiB (`--max-hcl-size`)" in rows
