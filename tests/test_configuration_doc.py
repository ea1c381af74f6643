"""The examples in docs/configuration.md are valid, and the error example prints what it shows."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from gpulint.cli import cli
from gpulint.config import load as config
from gpulint.config import rule_settings, settings
from gpulint.ruleset import load_rules

DOC = os.path.join(ROOT, "docs", "configuration.md")


def _blocks(lang: str) -> list[str]:
    with open(DOC, encoding="utf-8") as fh:
        return re.findall(rf"```{lang}\n(.*?)```", fh.read(), re.S)


def test_full_examples_are_valid_and_apply(tmp_path: Path) -> None:
    (tmp_path / "policies" / "gpulint").mkdir(parents=True)
    (tmp_path / "prices.yaml").write_text("overrides: []\n")
    (tmp_path / ".gpulint.yaml").write_text(_blocks("yaml")[0])
    (tmp_path / "pyproject.toml").write_text(_blocks("toml")[0])
    for name in (".gpulint.yaml", "pyproject.toml"):
        loaded = config.load(str(tmp_path / name))
        built = settings.build(loaded, settings.Flags())
        assert built.source is loaded and (built.models or name == "pyproject.toml")
        rules = {r.id: r for r in rule_settings.configure_rules(loaded, load_rules())}
        assert "gpu-notebook-without-shutdown" not in rules
        assert rules["gpu-training-on-demand"].severity.value == "error"
        assert built.tags.required == \
            (("team", "project") if name == "pyproject.toml" else
             {"aws": ("team", "project", "cost-center"), "kubernetes": ("team",),
              "default": ("team", "project")})


def test_error_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gpulint.yaml").write_text(_blocks("yaml")[1])
    run = CliRunner().invoke(cli, ["scan"])
    assert run.exit_code == 2
    assert run.stderr.splitlines() == _blocks("console")[0].splitlines()[1:]


def test_rules_listing_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "policies" / "gpulint").mkdir(parents=True)
    (tmp_path / "prices.yaml").write_text("overrides: []\n")
    (tmp_path / ".gpulint.yaml").write_text(_blocks("yaml")[0])
    run = CliRunner().invoke(cli, ["rules"])
    assert run.exit_code == 0, run.output
    shown = [line for line in _blocks("console")[-1].splitlines()[1:] if line != "…"]
    assert shown and all(line in run.stdout.splitlines() for line in shown), run.stdout
