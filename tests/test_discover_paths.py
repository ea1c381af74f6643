"""Discovery shows each walked file as `_display` would (relative to the working directory when
under it, else as given), though it computes one relative path per directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint.discover import _display, discover


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_walked_files_are_shown_as_display_shows_them(tmp_path: Path, where: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    for rel in ["main.tf", "..odd.tf", "mod/a.tf", "mod/deep/b.yaml", "k8s/x.yml"]:
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text("# x\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(repo if where == "inside" else elsewhere)
    for root in [str(repo), "." if where == "inside" else str(repo),
                 "mod" if where == "inside" else str(repo / "mod")]:
        found = discover([root])
        expected = sorted(_display(os.path.join(d, n)) for d, _, names in os.walk(root)
                          for n in names)
        assert sorted(f.path for f in found.files) == expected
        assert len(found.files) == len(expected) > 0
