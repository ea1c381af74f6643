"""Baselines survive line moves; `scan --baseline` reports only new findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gpulint.cli import cli


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_round_trip_across_a_line_move(repo: Path) -> None:
    result = _invoke("baseline", "infra", "-o", "base.json")
    assert result.exit_code == 0, result.output
    recorded = json.loads((repo / "base.json").read_text())
    assert recorded["version"] == 2
    rules = {(e["rule"], e["address"]) for e in recorded["findings"]}
    assert ("gpu-missing-cost-tags", "aws_instance.untagged") in rules
    assert "2 findings recorded in base.json" in result.stdout

    # Move every resource down: fingerprints do not depend on lines.
    other = repo / "infra" / "other.tf"
    other.write_text("\n\n\n# moved\n" + other.read_text())
    result = _invoke("scan", "infra", "--baseline", "base.json", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["findings"] == [] and doc["summary"]["baselined"] == 2

    # A new problem is reported; the old ones stay baselined.
    other.write_text(other.read_text() + 'resource "aws_instance" "new" {\n'
                                          '  instance_type = "g5.xlarge"\n}\n')
    result = _invoke("scan", "infra", "--baseline", "base.json")
    assert result.exit_code == 1
    assert "aws_instance.new" in result.stdout and "aws_instance.untagged" not in \
        result.stdout.split("GPU resources")[0]
    assert "2 baselined" in result.stdout


def test_default_output_file_and_text_summary(repo: Path) -> None:
    assert _invoke("baseline", "infra").exit_code == 0
    assert (repo / ".gpulint-baseline.json").is_file()


@pytest.mark.parametrize("content,message", [
    ("{", "invalid baseline JSON"),
    ('{"findings": []}', "not a gpulint baseline"),
])
def test_bad_baseline_is_a_usage_error(repo: Path, content: str, message: str) -> None:
    (repo / "base.json").write_text(content)
    result = _invoke("scan", "infra", "--baseline", "base.json")
    assert result.exit_code == 2 and message in result.stderr


def test_missing_baseline_is_a_usage_error(repo: Path) -> None:
    result = _invoke("scan", "infra", "--baseline", "nope.json")
    assert result.exit_code == 2 and "cannot read baseline" in result.stderr


def _scan_json(*args: str) -> tuple[int, dict[str, object], str]:
    """Exit code, report, and standard error with the report's diagnostics."""
    result = _invoke("scan", *args, "--format", "json")
    doc = json.loads(result.stdout)
    said = [f"{d['path']}: {d['message']}" for d in doc["diagnostics"]]
    return result.exit_code, doc, "\n".join([result.stderr, *said])


def test_entries_are_relative_to_the_repository_root_and_match_from_a_subdirectory(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Made from a subdirectory, written at the top: the paths are the repository's.
    monkeypatch.chdir(repo / "infra")
    assert _invoke("baseline", ".", "-o", "../base.json").exit_code == 0
    recorded = json.loads((repo / "base.json").read_text())
    assert {e["path"] for e in recorded["findings"]} == {"infra/main.tf", "infra/other.tf"}
    # Used from the top and from the subdirectory alike.
    code, doc, _ = _scan_json(".", "--baseline", "../base.json")
    assert code == 0 and doc["summary"]["baselined"] == 2  # type: ignore[index]
    monkeypatch.chdir(repo)
    code, doc, err = _scan_json("infra", "--baseline", "base.json")
    assert code == 0 and doc["summary"]["baselined"] == 2, err  # type: ignore[index]


def test_the_configuration_names_the_baseline_for_every_run(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / ".gpulint.yaml").write_text("baseline: ci/gpulint-baseline.json\n")
    (repo / "ci").mkdir()
    result = _invoke("baseline", "infra")  # writes where the configuration says
    assert result.exit_code == 0, result.output
    assert "recorded in ci/gpulint-baseline.json; the configuration names it" in result.stdout
    assert not (repo / ".gpulint-baseline.json").exists()
    code, doc, _ = _scan_json("infra")
    assert code == 0 and doc["summary"]["baselined"] == 2  # type: ignore[index]
    # A pre-commit run on one changed file, from the repository root.
    assert _invoke("scan", "--concise", "infra/other.tf").exit_code == 0
    # From a subdirectory: the configuration is found upwards and names the same file.
    monkeypatch.chdir(repo / "infra")
    code, doc, _ = _scan_json(".")
    assert code == 0 and doc["summary"]["baselined"] == 2  # type: ignore[index]
    # --no-baseline shows everything.
    code, doc, _ = _scan_json(".", "--no-baseline")
    assert code == 1 and len(doc["findings"]) == 2  # type: ignore[arg-type]


def test_a_configured_baseline_that_is_missing_names_the_setting(repo: Path) -> None:
    (repo / ".gpulint.yaml").write_text("fail_on: warning\nbaseline: nope.json\n")
    result = _invoke("scan", "infra")
    assert result.exit_code == 2
    assert "cannot read baseline" in result.stderr and ".gpulint.yaml:2: baseline" in result.stderr


def test_stale_entries_are_counted_and_a_baseline_matching_nothing_is_a_warning(
        repo: Path) -> None:
    assert _invoke("baseline", "infra", "-o", "base.json").exit_code == 0
    other = repo / "infra" / "other.tf"
    other.write_text(other.read_text().replace('"g5.xlarge"', '"g5.xlarge"\n  tags = {team = '
                                                '"a", project = "b", env = "c"}'))
    code, doc, err = _scan_json("infra", "--baseline", "base.json")
    assert doc["summary"]["baselined"] == 1  # type: ignore[index]
    assert "1 of the baseline's entries match no finding any more" in err
    # Another tree's baseline matches nothing: said, not silent.
    doc2 = json.loads((repo / "base.json").read_text())
    for e in doc2["findings"]:
        e["path"] = "elsewhere/" + e["path"]
    (repo / "base.json").write_text(json.dumps(doc2))
    code, doc, err = _scan_json("infra", "--baseline", "base.json")
    assert code == 1 and "the baseline matched none of its 2 entries" in err
    # Entries for files that were not scanned are not stale: a pre-commit run on main.tf.
    assert _invoke("baseline", "infra", "-o", "base.json").exit_code == 0
    result = _invoke("scan", "infra/main.tf", "--baseline", "base.json")
    assert "match no finding" not in result.stderr and "matched none" not in result.stderr


def test_format_1_baselines_are_still_read_with_a_notice(repo: Path) -> None:
    # As `gpulint baseline` wrote them before entries were keyed to the repository root:
    # paths relative to the directory it ran in (here the top, where the file is).
    import hashlib

    def old(rule: str, path: str, address: str) -> dict[str, str]:
        key = hashlib.sha256(f"{rule}\0{path}\0{address}".encode()).hexdigest()[:32]
        return {"fingerprint": key, "rule": rule, "path": path, "address": address}

    (repo / "base.json").write_text(json.dumps({"version": 1, "findings": [
        old("gpu-missing-cost-tags", "infra/other.tf", "aws_instance.untagged")]}))
    _code, doc, err = _scan_json("infra", "--baseline", "base.json")
    assert doc["summary"]["baselined"] == 1  # type: ignore[index]
    assert "baseline in the old format" in err and "gpulint baseline -o base.json" in err
