"""No accelerator evidence in the repository's fixtures is passed over in silence: each
document that asks for accelerators is a GPU resource, a "could not evaluate" item or a
diagnostic, a documented non-workload, or read through the release that consumes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpulint.report.coverage import FOUND, NAMED, UNACCOUNTED, measure

ROOT = Path(__file__).parents[1]
DIRECTORIES = ["tests/fixtures", "tests/data", "tests/clusters", "tests/cost", "tests/rules",
               "tests/hostile", "examples", "tests/terraform", "tests/clouds", "tests/plan",
               "tests/workflow"]


@pytest.mark.parametrize("directory", DIRECTORIES)
def test_no_evidence_is_unaccounted_for(directory: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    cov = measure([directory])
    silent = [f"{i.path}:{i.line} {i.what}: {i.evidence[0].describe()}" for i in cov.items
              if i.outcome == UNACCOUNTED]
    assert silent == []


def test_the_count_sees_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The coverage count is independent of the readers: evidence the scan drops is
    unaccounted."""
    (tmp_path / "ok.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        "  - {name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}\n")
    (tmp_path / "notes.yaml").write_text(
        "apiVersion: llm.example/v1\nkind: Serve\nmetadata: {name: s}\n"
        "spec: {profile: nvidia-gpu-h100:8}\n")
    cov = measure([str(tmp_path)])
    assert sorted(i.outcome for i in cov.items) == sorted([FOUND, NAMED])
    # Were accounting to drop its note, the unread kind would be a silent miss.
    from gpulint.facts.kubernetes import accounting

    monkeypatch.setattr(accounting, "account", lambda obj, groups, built: (None, None))
    cov = measure([str(tmp_path)])
    assert sorted(i.outcome for i in cov.items) == sorted([FOUND, UNACCOUNTED])


def test_only_the_values_file_terraform_names_is_read_through_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Terraform file that names `${path.module}/values.yaml` consumes that file, not every
    file called values.yaml in the repository."""
    values = "worker:\n  resources: {limits: {nvidia.com/gpu: 8}}\n  replicas: 4\n"
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "main.tf").write_text(
        'resource "helm_release" "r" {\n  name = "r"\n  chart = "ray-cluster"\n'
        '  repository = "https://ray-project.github.io/kuberay-helm/"\n'
        '  values = [file("${path.module}/values.yaml")]\n}\n')
    (tmp_path / "ray" / "values.yaml").write_text(values)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "values.yaml").write_text(values)
    from gpulint.report import coverage

    monkeypatch.setattr(coverage, "_outcome", lambda item, end, tree, result: item)
    by_file = {Path(i.path).parent.name: i.outcome for i in coverage.measure([str(tmp_path)]).items}
    assert by_file == {"ray": coverage.THROUGH, "elsewhere": UNACCOUNTED}
