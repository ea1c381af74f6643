"""Output formats: one registry that `scan --format` (its choices and help), `cost`, `diff` and
the golden tests read. A new format is one module here and one entry in REGISTRY.

No `from __future__ import annotations` here: a submodule named `annotations` would be shadowed.
"""

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Options:
    """What a scan report's rendering may depend on besides the report and the rules."""

    colour: bool = False
    verbose: bool = False
    quiet: bool = False
    sarif_root: str | None = None
    # The scan's repository root, which the report's paths are relative to (None: the working
    # directory, for a report read back from a file).
    report_root: str | None = None


class Reporter(Protocol):
    """Renders the JSON report dict (docs/json-format.md) and the rules as dicts to text."""

    def __call__(self, report: dict[str, Any], rules: list[dict[str, Any]],
                 options: Options) -> str: ...


@dataclass(frozen=True)
class Format:
    name: str  # as --format takes it
    description: str  # as --format's help names it
    extension: str  # the file suffix a report written in it takes
    reporter: Reporter  # imports its module when called: a run loads only the format it writes
    tables: bool = False  # `gpulint cost` and `gpulint diff` write it too


def _text(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import text

    return str(text.render(report, colour=options.colour, verbose=options.verbose,
                           quiet=options.quiet))


def _json(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import json

    return str(json.render(report))


def _sarif(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import sarif

    return str(sarif.render(report, rules, options.sarif_root, options.report_root))


def _markdown(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import markdown

    return str(markdown.render(report))


def _github(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import github_annotations

    return str(github_annotations.render(report))


def _gitlab(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import gitlab

    return str(gitlab.render(report, options.report_root))


def _junit(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import junit

    return str(junit.render(report, rules))


def _html(report: dict[str, Any], rules: list[dict[str, Any]], options: Options) -> str:
    from gpulint.reporters import html

    return str(html.render(report))


REGISTRY: tuple[Format, ...] = (
    Format("text", "text", "txt", _text, tables=True),
    Format("json", "the JSON report", "json", _json, tables=True),
    Format("sarif", "SARIF 2.1.0", "sarif", _sarif),
    Format("markdown", "Markdown", "md", _markdown, tables=True),
    Format("github", "GitHub workflow annotations", "txt", _github),
    Format("gitlab", "a GitLab Code Quality report", "gitlab.json", _gitlab),
    Format("junit", "JUnit XML", "xml", _junit),
    Format("html", "a self-contained HTML page with charts", "html", _html, tables=True),
)
BY_NAME: dict[str, Format] = {f.name: f for f in REGISTRY}
FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY)
# The formats `gpulint cost` and `gpulint diff` write (tables and pages, not per-finding formats).
TABLE_FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.tables)


def help_text() -> str:
    """--format's help: every format, as a sentence."""
    names = [f.description for f in REGISTRY]
    return f"Output format: {', '.join(names[:-1])} or {names[-1]}."


def render(fmt: str, report: dict[str, Any], rules: list[dict[str, Any]], *,
           colour: bool = False, verbose: bool = False, quiet: bool = False,
           sarif_root: str | None = None, report_root: str | None = None) -> str:
    """Render the report in one of FORMATS."""
    found = BY_NAME.get(fmt)
    if found is None:
        raise ValueError(f"unknown format {fmt!r}")
    return found.reporter(report, rules, Options(colour, verbose, quiet, sarif_root,
                                                    report_root))

