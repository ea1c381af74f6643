"""Version-control metadata is never input (issue 30): `actions/checkout` leaves the job's token
in `.git/config`, so neither discovery, Terraform's file functions, a kustomization nor a chart
may read `.git/`, `.hg/` or `.svn/`, whatever the spelling or the link that leads there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli
from gpulint.files import containment

TOKEN = "ghs_c0ffeeTOKENfromTheCheckout"
CONFIG = f'[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic {TOKEN}\n'


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "config").write_text(CONFIG)
    (root / ".hg").mkdir()
    (root / ".hg" / "hgrc").write_text(CONFIG)
    return root


def _scan(path: Path) -> str:
    out = CliRunner().invoke(cli, ["scan", str(path), "--format", "json", "--fail-on", "never",
                                   "--no-cache"])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    return out.output


# A regex pulls the header out of the file and puts it into a resource's key and a tag.
_TF = """
locals {
  config = file("${path.module}/%s")
  token  = regex("basic (\\\\S+)", local.config)[0]
}
resource "aws_instance" "gpu" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "g5.xlarge"
  tags          = { leak = local.token }
}
resource "aws_instance" "keyed" {
  for_each      = toset([local.token])
  ami           = "ami-0123456789abcdef0"
  instance_type = "g5.xlarge"
}
"""


@pytest.mark.parametrize("spelling", [".git/config", "./.git/../.git/config", ".hg/hgrc",
                                      "linked/config"])
def test_terraform_file_functions_never_read_vcs_metadata(repo: Path, spelling: str) -> None:
    (repo / "linked").symlink_to(repo / ".git")
    (repo / "main.tf").write_text(_TF % spelling)
    report = _scan(repo)
    assert "aws_instance.gpu" in report and TOKEN not in report
    assert "outside the scanned tree" in report


def test_terraform_fileset_lists_nothing_in_vcs_metadata(repo: Path) -> None:
    (repo / "main.tf").write_text(
        'resource "aws_instance" "gpu" {\n  for_each = fileset(path.module, "**/config")\n'
        '  ami = "ami-0123456789abcdef0"\n  instance_type = "g5.xlarge"\n}\n')
    report = _scan(repo)
    assert ".git" not in report.replace('"configuration"', "")


def test_links_into_vcs_metadata_are_not_read(repo: Path) -> None:
    (repo / "prod.auto.tfvars").symlink_to(repo / ".git" / "config")
    (repo / "manifest.yaml").symlink_to(repo / ".git" / "config")
    (repo / "main.tf").write_text('resource "aws_instance" "gpu" {\n  ami = "ami-1"\n'
                                  '  instance_type = "g5.xlarge"\n}\n')
    report = _scan(repo)
    assert TOKEN not in report and report.count("symbolic link leads outside") == 2


@pytest.mark.skipif(shutil.which("kubectl") is None and shutil.which("kustomize") is None,
                    reason="needs kubectl or kustomize")
@pytest.mark.parametrize("how", ["link", "direct"])
def test_kustomize_generator_never_reads_vcs_metadata(repo: Path, how: str) -> None:
    app = repo / "app"
    app.mkdir()
    if how == "link":
        (app / "settings.env").symlink_to(repo / ".git" / "config")
        source = "settings.env"
    else:
        source = "../.git/config"
    (app / "kustomization.yaml").write_text(
        "resources: [deployment.yaml]\nconfigMapGenerator:\n  - name: settings\n"
        f"    files: [{source}]\n")
    (app / "deployment.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: gpu}\nspec:\n  template:\n"
        "    spec:\n      containers: [{name: c, image: x, resources: {limits: "
        "{nvidia.com/gpu: 1}}}]\n")
    report = _scan(repo)
    assert "Deployment/gpu" in report and TOKEN not in report


def test_in_vcs_checks_every_component_case_folded(tmp_path: Path) -> None:
    root = str(tmp_path)
    assert containment.in_vcs(f"{root}/.git/config", [root])
    assert containment.in_vcs(f"{root}/sub/.SVN/entries", [root])
    assert not containment.in_vcs(f"{root}/.github/workflows/ci.yaml", [root])
    assert not containment.in_vcs(f"{root}/gitops/config", [root])
