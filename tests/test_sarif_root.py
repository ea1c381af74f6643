"""SARIF file URIs are relative to the repository root, as GitHub code scanning reads them
(`%SRCROOT%` is the checkout), wherever the scan runs from; --sarif-root names another root.

Each test scans a copy of examples/terraform placed at infra/ of a fresh git repository, from
the directory a CI job would `cd` into, through the real CLI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

ROOT = Path(__file__).resolve().parent.parent
WANT = {"infra/main.tf", "infra/modules/gpu_node_group/main.tf"}


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    top = tmp_path / "platform"
    top.mkdir()
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=top, check=True)
    else:  # what gpulint looks for; git itself is not needed
        (top / ".git").mkdir()
    shutil.copytree(ROOT / "examples" / "terraform", top / "infra")
    return top


def sarif_uris(cwd: Path, *args: str) -> dict[str, str | None]:
    """URI → uriBaseId of every finding location of `gpulint scan --format sarif ARGS`."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, ["scan", *args, "--format", "sarif", "--no-cache",
                                          "--fail-on", "never"], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    run = json.loads(result.output)["runs"][0]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"]
                 for r in run["results"]]
    assert locations
    return {loc["uri"]: loc.get("uriBaseId") for loc in locations}


@pytest.mark.parametrize("where,target", [(".", "infra"), ("infra", "."),
                                          ("infra/modules", "..")])
def test_uris_are_relative_to_the_git_top_level(repo: Path, where: str, target: str) -> None:
    """From the top, from infra/ (where `cd infra && gpulint scan .` reports `main.tf`) and
    from a subdirectory scanning its parent (`../main.tf`): the same repository paths."""
    uris = sarif_uris(repo / where, target)
    assert set(uris) == WANT
    assert set(uris.values()) == {"%SRCROOT%"}


def test_sarif_root_for_other_layouts(repo: Path) -> None:
    """Code scanning of a repository checked out under infra/ of the job's workspace."""
    uris = sarif_uris(repo / "infra", ".", "--sarif-root", ".")
    assert set(uris) == {"main.tf", "modules/gpu_node_group/main.tf"}
    uris = sarif_uris(repo, "infra", "--sarif-root", "infra/modules")
    assert "gpu_node_group/main.tf" in uris
    outside = [u for u, base in uris.items() if base is None]
    assert outside == [(repo / "infra" / "main.tf").resolve().as_uri()]


def test_without_a_repository_the_working_directory_is_the_root(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "terraform", tmp_path / "infra")
    uris = sarif_uris(tmp_path / "infra", ".")
    assert set(uris) == {"main.tf", "modules/gpu_node_group/main.tf"}


def test_sarif_root_must_be_a_directory(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["scan", str(repo / "infra"), "--format", "sarif",
                                      "--sarif-root", str(repo / "missing")])
    assert result.exit_code == 2
    assert "--sarif-root" in result.output
