""""Repository root" is the git top level of the scanned paths, else the scanned directory
(issue 30), for report paths, fingerprints, SARIF URIs, GitLab paths and baselines alike
(files/containment.report_root)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.files.containment import report_root, shown_path

GPU_TF = 'resource "aws_instance" "train" {\n  instance_type = "p4d.24xlarge"\n}\n'


def run(*args: str) -> str:
    gate = ["--fail-on", "never"] if args[0] == "scan" else []
    result = CliRunner().invoke(cli, [*args, *gate, "--no-cache"])
    assert result.exit_code == 0, result.output
    return result.stdout


def report(*args: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(run("scan", "--format", "json", *args))
    return out


def paths(doc: dict[str, Any]) -> set[str]:
    return {e["path"] for key in ("resources", "findings") for e in doc[key]}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git work tree (a `.git` directory is all the root is found by) with Terraform in
    infra/gpu."""
    top = tmp_path / "repo"
    (top / ".git").mkdir(parents=True)
    (top / "infra" / "gpu").mkdir(parents=True)
    (top / "infra" / "gpu" / "main.tf").write_text(GPU_TF)
    return top


def test_a_subdirectory_of_a_git_repository_is_reported_from_the_top_level(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo)
    from_top = report("infra")
    monkeypatch.chdir(repo / "infra")
    inside = report(".")
    monkeypatch.chdir(repo / "infra" / "gpu")
    deepest = report("main.tf")
    assert paths(from_top) == paths(inside) == paths(deepest) == {"infra/gpu/main.tf"}
    fingerprints = [sorted(f["fingerprint"] for f in d["findings"])
                    for d in (from_top, inside, deepest)]
    assert fingerprints[0] and fingerprints[0] == fingerprints[1] == fingerprints[2]
    sarif = json.loads(run("scan", "--format", "sarif", "."))
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"] for loc in r["locations"]}
    assert uris == {"infra/gpu/main.tf"}
    gitlab = json.loads(run("scan", "--format", "gitlab", "."))
    assert {i["location"]["path"] for i in gitlab} == {"infra/gpu/main.tf"}


def test_a_directory_outside_git_is_reported_from_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scanned = tmp_path / "plain"
    (scanned / "gpu").mkdir(parents=True)
    (scanned / "gpu" / "main.tf").write_text(GPU_TF)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    doc = report(str(scanned))
    assert paths(doc) == {"gpu/main.tf"}
    assert str(tmp_path) not in json.dumps(doc)
    sarif = json.loads(run("scan", "--format", "sarif", str(scanned)))
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"] for loc in r["locations"]}
    assert uris == {"gpu/main.tf"}


def test_a_baseline_written_at_the_top_level_matches_a_scan_of_a_subdirectory(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "infra" / "other").mkdir()
    (repo / "infra" / "other" / "main.tf").write_text(GPU_TF)
    monkeypatch.chdir(repo)
    run("baseline", "-o", "baseline.json", ".")
    recorded = json.loads((repo / "baseline.json").read_text())
    assert {e["path"] for e in recorded["findings"]} == {"infra/gpu/main.tf",
                                                          "infra/other/main.tf"}
    monkeypatch.chdir(repo / "infra")
    doc = report("--baseline", str(repo / "baseline.json"), "gpu")
    assert doc["findings"] == [] and doc["summary"]["baselined"] > 0
    # A new finding in a subdirectory is still reported, under its top-level path.
    (repo / "infra" / "gpu" / "new.tf").write_text(GPU_TF.replace("train", "fresh"))
    doc = report("--baseline", str(repo / "baseline.json"), "gpu")
    assert {f["address"] for f in doc["findings"]} == {"aws_instance.fresh"}
    assert paths(doc) >= {"infra/gpu/new.tf"}


def test_report_root_and_shown_path(repo: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    top = os.path.realpath(repo)
    assert report_root([str(repo / "infra" / "gpu" / "main.tf")]) == top
    assert report_root([str(repo / "infra"), str(repo / "infra" / "gpu")]) == top
    plain = tmp_path / "plain"
    (plain / "a").mkdir(parents=True)
    (plain / "b").mkdir()
    assert report_root([str(plain / "a"), str(plain / "b")]) == os.path.realpath(plain)
    monkeypatch.chdir(repo / "infra")
    assert shown_path("gpu/main.tf", top) == "infra/gpu/main.tf"
    assert shown_path("<stdin>", top) == "<stdin>"
    outside = str(plain / "a")
    assert shown_path(outside, top) == outside  # outside the root: as given
