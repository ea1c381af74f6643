"""Nested helmfiles that fan out (issue 30): 17 helmfiles each naming the next six times were
6^16 reads and hung the scan; each (helmfile, environment, passed values) is now read once and
the nested visits under one top-level helmfile are bounded, the excess a warning."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.render import helmfile_tree

RELEASE = """releases:
  - name: chat-{i}
    chart: oci://registry.example/vllm
    values:
      - resources:
          limits:
            nvidia.com/gpu: 1
"""


def _chain(root: Path, count: int, fan: int) -> None:
    for i in range(count):
        body = RELEASE.format(i=i)
        if i + 1 < count:
            body += "helmfiles:\n" + f"  - path: h{i + 1}/helmfile.yaml\n" * fan
        folder = root.joinpath(*[f"h{j}" for j in range(1, i + 1)])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "helmfile.yaml").write_text(body)


def test_seventeen_helmfiles_naming_the_next_six_times_finish_fast(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _chain(repo, 17, 6)
    start = time.monotonic()
    result = scan.run([str(repo)], [], Settings(scan=ScanSettings(cache_dir=None)))
    assert time.monotonic() - start < 20
    # Each helmfile's release once, not once per path that leads to it.
    names = sorted(r.address for r in result.resources)
    assert len(names) == 17 and len(set(names)) == 17, names


def test_nested_visits_beyond_the_bound_are_a_warning(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helmfile_tree, "MAX_VISITS", 5)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _chain(repo, 10, 2)
    result = scan.run([str(repo)], [], Settings(scan=ScanSettings(cache_dir=None)))
    (warning,) = [d for d in result.diagnostics if "nested helmfiles under this one" in d.message]
    assert warning.severity == "warning" and warning.path.endswith("helmfile.yaml")
    # The helmfiles left out under the first one are read as top-level helmfiles of their own
    # (each bounded again): every release still once.
    names = [r.address for r in result.resources]
    assert sorted(names) == sorted(f"HelmValues/chat-{i}" for i in range(10))
