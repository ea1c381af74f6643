"""One wildcard dialect for addresses, instance types and paths (globs.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import globs
from gpulint.cli import cli


@pytest.mark.parametrize(("pattern", "text", "expected"), [
    ('aws_instance.gpu["a"]', 'aws_instance.gpu["a"]', True),  # `[` is literal
    ('aws_instance.gpu["a"]', "aws_instance.gpua", False),
    ("aws_instance.gpu[*]", 'aws_instance.gpu["b"]', True),
    ("module.pool[?].aws_instance.x", "module.pool[0].aws_instance.x", True),
    ("p4d.*", "p4d.24xlarge", True),
    ("p4d.*", "p5.48xlarge", False),
    ("Deployment/ml/*", "Deployment/ml/vllm", True),
])
def test_match(pattern: str, text: str, expected: bool) -> None:
    assert globs.match(pattern, text) is expected


def test_paths_match_the_file_or_a_parent_and_star_crosses_slashes(tmp_path: Path) -> None:
    root = str(tmp_path)
    assert globs.path_match(os.path.join(root, "legacy"), os.path.join(root, "legacy/a/b.tf"))
    assert globs.path_match(os.path.join(root, "*.tf"), os.path.join(root, "a/b/c.tf"))
    assert not globs.path_match(os.path.join(root, "legacy"), os.path.join(root, "legacy2/b.tf"))
    assert globs.excluded(os.path.join(root, "k8s/[x]/p.yaml"), [os.path.join(root, "k8s/[x]")])


POOL = '''\
resource "aws_instance" "gpu" {
  for_each      = toset(["a", "b"])
  ami           = "ami-0a1b2c3d4e5f67890"
  instance_type = "g5.xlarge"
  tags = {
    team    = "ml"
    project = "serving"
  }
}
'''


def test_configured_model_matches_a_bracketed_address(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: `models[].address` used fnmatch, where `["a"]` is a character class, so an
    exact for_each address never matched while the same address worked in usage_hours."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "main.tf").write_text(POOL)
    (tmp_path / ".gpulint.yaml").write_text(
        "models:\n  - address: 'aws_instance.gpu[\"a\"]'\n    model: meta-llama/Llama-3.1-8B\n"
        "usage_hours:\n  by_resource: {'aws_instance.gpu[\"a\"]': 100}\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["scan", "--format", "json", "--no-cache", "."])
    assert result.exit_code in (0, 1), result.output
    res = {r["address"]: r for r in json.loads(result.stdout)["resources"]}
    assert res['aws_instance.gpu["a"]']["model"]["id"] == "meta-llama/Llama-3.1-8B"
    assert res['aws_instance.gpu["b"]']["model"] is None
    assert "× 100 h" in res['aws_instance.gpu["a"]']["price_basis"]
