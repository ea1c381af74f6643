"""file(), fileexists(), yamldecode() and jsondecode() in Terraform: read inside the scanned
tree only (symlinks resolved), through the scan's reader and its size limit."""

from __future__ import annotations

import os
from pathlib import Path

from gpulint import pipeline as scan
from gpulint.config.settings import ScanSettings, Settings
from gpulint.model import Unknown
from gpulint.terraform.files import yaml_decode

POOL = '''
locals {
  pools = yamldecode(file("${path.module}/pools.yaml"))
}
resource "aws_instance" "gpu" {
  for_each      = local.pools
  instance_type = each.value
}
'''


def _scan(root: Path, **scan_settings: object) -> scan.ScanResult:
    return scan.run([str(root)], [], Settings(scan=ScanSettings(**scan_settings)))  # type: ignore[arg-type]


def test_yaml_file_feeds_for_each(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(POOL)
    (tmp_path / "pools.yaml").write_text("a10: g5.xlarge\ncpu: m6i.large\n")
    result = _scan(tmp_path)
    assert [r.address for r in result.resources] == ['aws_instance.gpu["a10"]']


def test_a_symlink_out_of_the_tree_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "outside.yaml"
    secret.write_text("a10: g5.xlarge\n")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "main.tf").write_text(POOL)
    os.symlink(secret, root / "pools.yaml")
    result = _scan(root)
    [res] = result.resources  # reported once, its expansion unknown: never dropped
    assert isinstance(res.facts["count"], Unknown)
    assert "outside the scanned tree" in res.facts["count"].reason


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(POOL)
    (tmp_path / "pools.yaml").write_text("a10: g5.xlarge\n" + "# padding\n" * 2000)
    result = _scan(tmp_path, max_file_bytes=4096)
    [res] = result.resources
    assert "could not be read" in res.facts["count"].reason


def test_yaml_decode_bounds() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n"
        for p, c in zip("abcdefg", "bcdefgh", strict=True))
    assert isinstance(yaml_decode(bomb), Unknown)
    assert isinstance(yaml_decode("a: [1\n"), Unknown)
    assert yaml_decode("d: 2024-01-02\n") == {"d": "2024-01-02"}
