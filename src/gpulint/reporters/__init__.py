"""Output formats. Each renders the JSON report dict to text; the registry is explicit.

No `from __future__ import annotations` here: it would shadow the `annotations` submodule.
"""

import importlib
from typing import Any

FORMATS = ("text", "json", "sarif", "markdown", "github", "junit", "html")
# The formats `gpulint cost` and `gpulint diff` write (tables and pages, not per-finding formats).
TABLE_FORMATS = ("text", "json", "markdown", "html")


def render(fmt: str, report: dict[str, Any], rules: list[dict[str, Any]], *,
           colour: bool = False, verbose: bool = False, quiet: bool = False,
           sarif_root: str | None = None) -> str:
    """Render the report in one of FORMATS; modules are imported only when used."""
    if fmt == "text":
        return str(importlib.import_module("gpulint.reporters.text").render(
            report, colour=colour, verbose=verbose, quiet=quiet))
    if fmt == "json":
        return str(importlib.import_module("gpulint.reporters.json").render(report))
    if fmt == "sarif":
        return str(importlib.import_module("gpulint.reporters.sarif").render(
            report, rules, sarif_root))
    if fmt == "markdown":
        return str(importlib.import_module("gpulint.reporters.markdown").render(report))
    if fmt == "github":
        return str(importlib.import_module("gpulint.reporters.github_annotations").render(report))
    if fmt == "junit":
        return str(importlib.import_module("gpulint.reporters.junit").render(report, rules))
    if fmt == "html":
        return str(importlib.import_module("gpulint.reporters.html").render(report))
    raise ValueError(f"unknown format {fmt!r}")
