"""Golden reports: the JSON report and its text and Markdown renderings for examples/ and every
fixture directory, recorded before a restructuring so behaviour changes show up as diffs.

A rule's fixtures (tests/rules/<id>/) are reported with only that rule selected, into
tests/golden/rules/<id>.*: a new rule adds its own three files and changes no other rule's.

Regenerate (and review the diff) with: GPULINT_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import reporters
from gpulint.cli import cli
from gpulint.ruleset import load_rules

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("GPULINT_UPDATE_GOLDEN") == "1"

# Directories scanned as a user would scan them: examples/ and each fixture directory but the
# rules' (test_rule_golden_reports).
SKIP = {"golden", "data", "__pycache__", ".terraform"}
RULE_FIXTURES = ROOT / "tests" / "rules"


def _fixture_dirs() -> list[str]:
    dirs = ["examples"]
    for top in sorted((ROOT / "tests").iterdir()):
        if not top.is_dir() or top.name in SKIP or top == RULE_FIXTURES:
            continue
        dirs.append(str(top.relative_to(ROOT)))
        for sub in sorted(top.iterdir()):
            if sub.is_dir() and sub.name not in SKIP:
                dirs.append(str(sub.relative_to(ROOT)))
    return dirs


# The formats recorded: the whole report as documents, named by their registered extension.
# Every registered format is rendered below too (test_every_format_renders_examples).
RECORDED = ("json", "text", "markdown")
FORMATS = {name: reporters.BY_NAME[name].extension for name in RECORDED}


def _render(directory: str, fmt: str, *extra: str) -> str:
    result = CliRunner().invoke(
        cli, ["scan", directory, "--format", fmt, "--no-color", "--no-cache", "--fail-on", "never",
              *extra], catch_exceptions=False)
    return f"exit {result.exit_code}\n{result.output}"


def _compare(directory: str, stem: Path, *extra: str) -> None:
    for fmt, ext in FORMATS.items():
        got = _render(directory, fmt, *extra)
        path = stem.with_name(f"{stem.name}.{ext}")
        if UPDATE:
            path.parent.mkdir(exist_ok=True)
            path.write_text(got, encoding="utf-8")
            continue
        assert path.exists(), f"no golden file {path.name}: run with GPULINT_UPDATE_GOLDEN=1"
        assert got == path.read_text(encoding="utf-8"), f"{directory} --format {fmt} changed"


@pytest.mark.slow
@pytest.mark.parametrize("directory", _fixture_dirs())
def test_golden_reports(directory: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    _compare(directory, GOLDEN / directory.replace("/", "__"))


def _rule_ids() -> list[str]:
    return sorted(p.name for p in RULE_FIXTURES.iterdir() if p.is_dir())


@pytest.mark.slow
@pytest.mark.parametrize("rule_id", _rule_ids())
def test_rule_golden_reports(rule_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/rules/<id>/ with only rule <id> reported (every rule still runs, as --select
    does): no other rule's change shows up here."""
    monkeypatch.chdir(ROOT)
    ids = [r.id for r in load_rules()]
    assert rule_id in ids, f"tests/rules/{rule_id}: no such rule"
    # --select takes a prefix: leave out rules whose id merely starts with this one.
    ignore = [a for other in ids if other != rule_id and other.startswith(rule_id)
              for a in ("--ignore", other)]
    _compare(f"tests/rules/{rule_id}", GOLDEN / "rules" / rule_id, "--select", rule_id, *ignore)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", reporters.FORMATS)
def test_every_format_renders_examples(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A registered format renders examples/ to text, the same text twice; a recorded one
    matches its golden file."""
    monkeypatch.chdir(ROOT)
    first = _render("examples", fmt)
    assert first.startswith(("exit 0\n", "exit 1\n")) and len(first) > 200, first[:300]
    assert _render("examples", fmt) == first
    if fmt in RECORDED:
        assert first == (GOLDEN / f"examples.{FORMATS[fmt]}").read_text(encoding="utf-8")


def test_format_option_lists_the_registry() -> None:
    """scan's --format choices and help, and cost's and diff's choices, come from the registry;
    cost and diff write every table format."""
    import click

    from gpulint.cli import cost, diff

    def option(command: click.Command) -> click.Option:
        found = next(p for p in command.params if p.name == "fmt")
        assert isinstance(found, click.Option) and isinstance(found.type, click.Choice)
        return found

    scan = option(cli.commands["scan"])
    assert isinstance(scan.type, click.Choice)
    assert tuple(scan.type.choices) == reporters.FORMATS
    assert scan.help == reporters.help_text()
    for name in ("json", "junit", "html"):
        assert reporters.BY_NAME[name].description in reporters.help_text()
    for command, extra in ((cost.cost, ("csv",)), (diff.diff, ())):
        kind = option(command).type
        assert isinstance(kind, click.Choice)
        assert tuple(kind.choices) == (*reporters.TABLE_FORMATS, *extra)  # cost: also CSV rows
    assert set(reporters.TABLE_FORMATS) == {"text", "json", "markdown", "html"}
    assert set(cost.writers({}, {}, "team", False)) == set(reporters.TABLE_FORMATS)
    assert set(diff.writers({}, {}, False)) == set(reporters.TABLE_FORMATS)
