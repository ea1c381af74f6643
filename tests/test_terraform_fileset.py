"""fileset(path, pattern) in Terraform: Terraform's glob syntax, regular files only, sorted
forward-slash paths relative to `path`, listed inside the scanned tree only and bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.model import Unknown
from gpulint.terraform import fileset as fileset_module
from gpulint.terraform.fileset import GlobError, expand_braces, fileset


def _tree(root: Path, *files: str) -> None:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x: 1\n")


def _glob(root: Path, pattern: str) -> list[str]:
    real = os.path.realpath(root)
    return fileset(real, pattern, lambda p: p == real or p.startswith(real + os.sep))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    _tree(tmp_path, "a.yaml", "b.yml", "c.json", ".hidden.yaml", "sub/d.yaml",
          "sub/deep/e.yaml", "sub/deep/f.txt", "gpu-1.yaml", "gpu-2.yaml", "gpu-x.yaml")
    (tmp_path / "emptydir").mkdir()
    return tmp_path


@pytest.mark.parametrize(("pattern", "expected"), [
    ("*.yaml", [".hidden.yaml", "a.yaml", "gpu-1.yaml", "gpu-2.yaml", "gpu-x.yaml"]),
    ("*.{yaml,yml}", [".hidden.yaml", "a.yaml", "b.yml", "gpu-1.yaml", "gpu-2.yaml",
                      "gpu-x.yaml"]),
    ("gpu-?.yaml", ["gpu-1.yaml", "gpu-2.yaml", "gpu-x.yaml"]),
    ("gpu-[0-9].yaml", ["gpu-1.yaml", "gpu-2.yaml"]),
    ("gpu-[^0-9].yaml", ["gpu-x.yaml"]),
    ("gpu-[!12].yaml", ["gpu-x.yaml"]),
    ("sub/*", ["sub/d.yaml"]),  # `*` stops at a separator; directories are not files
    ("sub/**", ["sub/d.yaml", "sub/deep/e.yaml", "sub/deep/f.txt"]),
    ("**/*.yaml", [".hidden.yaml", "a.yaml", "gpu-1.yaml", "gpu-2.yaml", "gpu-x.yaml",
                   "sub/d.yaml", "sub/deep/e.yaml"]),  # `**` is zero or more directories
    ("sub/**/e.yaml", ["sub/deep/e.yaml"]),
    ("sub**", []),  # `**` inside a component is `*`: matches the directory name only
    ("*", [".hidden.yaml", "a.yaml", "b.yml", "c.json", "gpu-1.yaml", "gpu-2.yaml",
           "gpu-x.yaml"]),
    ("a.yaml", ["a.yaml"]),
    (r"\a.yaml", ["a.yaml"]),
    ("missing/*", []),
])
def test_terraform_patterns(tree: Path, pattern: str, expected: list[str]) -> None:
    assert _glob(tree, pattern) == expected


def test_brace_alternatives_nest_and_are_bounded() -> None:
    assert expand_braces("x{a,b{c,d}}y") == ["xay", "xbcy", "xbdy"]
    with pytest.raises(GlobError, match="alternatives"):
        expand_braces("{a,b}" * 10)  # 1,024 patterns
    with pytest.raises(GlobError, match="unclosed"):
        expand_braces("{a,b")


def test_bad_patterns_are_errors_not_crashes(tree: Path) -> None:
    for bad in ("[a", "../../*", "/etc/*", "sub/../../*"):
        with pytest.raises(GlobError):
            _glob(tree, bad)


def test_a_directory_link_back_up_the_tree_is_walked_once(tree: Path) -> None:
    os.symlink("..", tree / "sub" / "up")
    assert "sub/deep/e.yaml" in _glob(tree, "**/*.yaml")  # ends, and lists each file once
    assert len(_glob(tree, "**")) == len(set(_glob(tree, "**")))


def test_the_number_of_files_is_bounded(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fileset_module, "MAX_FILESET_FILES", 3)
    with pytest.raises(GlobError, match="more than 3 files"):
        _glob(tree, "**")
    monkeypatch.setattr(fileset_module, "MAX_FILESET_ENTRIES", 5)
    with pytest.raises(GlobError, match="directory entries"):
        _glob(tree, "sub/**")


MANIFESTS = '''
resource "aws_instance" "gpu" {
  for_each      = fileset("${path.module}/pools", "*.type")
  instance_type = trimspace(file("${path.module}/pools/${each.value}"))
}
'''


def _scan(root: Path) -> scan.ScanResult:
    return scan.run([str(root)], [], Settings(scan=ScanSettings()))


def test_fileset_feeds_for_each_in_a_scan(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(MANIFESTS)
    (tmp_path / "pools").mkdir()
    (tmp_path / "pools" / "a10.type").write_text("g5.xlarge\n")
    (tmp_path / "pools" / "cpu.type").write_text("m6i.large\n")
    result = _scan(tmp_path)
    assert [r.address for r in result.resources] == ['aws_instance.gpu["a10.type"]']


def test_links_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "h100.type").write_text("p5.48xlarge\n")
    root = tmp_path / "repo"
    (root / "pools").mkdir(parents=True)
    (root / "main.tf").write_text(MANIFESTS)
    (root / "pools" / "a10.type").write_text("g5.xlarge\n")
    os.symlink(outside / "h100.type", root / "pools" / "h100.type")
    os.symlink(outside, root / "pools" / "more")
    result = _scan(root)
    assert [r.address for r in result.resources] == ['aws_instance.gpu["a10.type"]']


def test_a_directory_outside_the_tree_is_unknown(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (tmp_path / "pools").mkdir()
    (tmp_path / "pools" / "h100.type").write_text("p5.48xlarge\n")
    (root / "main.tf").write_text(MANIFESTS.replace("${path.module}/pools", "../pools", 1))
    result = _scan(root)
    [res] = result.resources  # reported once, its expansion unknown: never dropped
    assert isinstance(res.facts["count"], Unknown)
    assert "outside the scanned tree" in res.facts["count"].reason


def test_the_functions_modules_use_on_fileset_results() -> None:
    from gpulint.terraform.expressions import Scope, evaluate
    from gpulint.terraform.parser import parse_hcl

    def value(hcl: str) -> object:
        return evaluate(parse_hcl(f"x = {hcl}\n").attributes["x"].expr, Scope({}))

    assert value('{ for f in ["jobs/b.yaml", "jobs/a.yaml"] : '
                 'trimsuffix(basename(f), ".yaml") => dirname(f) }') == \
        {"b": "jobs", "a": "jobs"}
    assert value('sort(["b.yaml", "a.yaml", 10])') == ["10", "a.yaml", "b.yaml"]
    assert value('trimprefix("manifests/gpu.yaml", "manifests/")') == "gpu.yaml"
    assert [value(f'basename("{p}")') for p in ("a/b/", "", "/")] == ["b", ".", "/"]
    assert [value(f'dirname("{p}")') for p in ("a/b/c", "c", "/a", "")] == ["a/b", ".", "/", "."]
