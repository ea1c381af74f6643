"""Nothing outside the scanned tree is read: symbolic links that lead out of it (files, tfvars,
directories, module sources) are reported and not followed, and every variables file goes
through the one reader (regular files only, size limit)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpulint.files import containment

pytestmark = pytest.mark.slow

SECRET = "ghp_0123456789abcdefSECRET"

MAIN_TF = """\
# Inference fleet of one team: the instance type and owner come from the tfvars.
variable "instance_type" {
  type    = string
  default = "g5.xlarge"
}

variable "owner" {
  type    = string
  default = "ml-platform"
}

resource "aws_instance" "inference" {
  ami           = "ami-0123456789abcdef0"
  instance_type = var.instance_type
  tags = {
    owner = var.owner
  }
}
"""

GPU_MODULE = """\
resource "aws_instance" "vendored" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "p4d.24xlarge"
  tags          = { owner = "SECRET" }
}
""".replace("SECRET", SECRET)


def _scan(path: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    # A child process: the /dev/zero and FIFO cases must be bounded by the limits set there.
    code = ("import resource,sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30));"
            "from gpulint.cli import cli; cli(sys.argv[1:])")
    proc = subprocess.run([sys.executable, "-c", code, "scan", "--format", "json", "--fail-on",
                           "never", "--no-cache", *extra, str(path)],
                          capture_output=True, text=True, timeout=60, cwd=path)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stdout + proc.stderr


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    out = tmp_path / "host"
    out.mkdir()
    (out / "secret.tfvars").write_text(f'owner = "{SECRET}"\n')
    (out / "secret.tfvars.json").write_text(json.dumps({"owner": SECRET}))
    (out / "gpu-module").mkdir()
    (out / "gpu-module" / "main.tf").write_text(GPU_MODULE)
    (out / "leak.tf").write_text(GPU_MODULE.replace("vendored", "leak"))
    return out


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "infra"
    (root / "envs" / "prod").mkdir(parents=True)
    (root / "envs" / "prod" / "main.tf").write_text(MAIN_TF)
    return root


def _diagnostics(report: dict[str, Any]) -> list[str]:
    return [f"{d['path']}: {d['message']}" for d in report["diagnostics"]]


def _resources(report: dict[str, Any]) -> list[str]:
    return sorted(r["address"] for r in report.get("resources", []))


def test_tfvars_links_out_of_the_tree_are_reported_not_read(repo: Path, outside: Path) -> None:
    prod = repo / "envs" / "prod"
    (prod / "secret.auto.tfvars").symlink_to(outside / "secret.tfvars")
    (prod / "secret.auto.tfvars.json").symlink_to(outside / "secret.tfvars.json")
    _, report, text = _scan(repo)
    assert SECRET not in text
    diags = _diagnostics(report)
    assert any("secret.auto.tfvars:" in d and containment.OUTSIDE in d for d in diags), diags
    assert any("secret.auto.tfvars.json:" in d and containment.OUTSIDE in d for d in diags)
    assert "aws_instance.inference" in text  # the rest of the directory is still scanned


def test_directory_and_file_links_out_of_the_tree_are_not_walked(repo: Path,
                                                                  outside: Path) -> None:
    (repo / "envs" / "host").symlink_to(outside)
    (repo / "envs" / "prod" / "leak.tf").symlink_to(outside / "leak.tf")
    (repo / "inside").symlink_to(repo / "envs")  # a link within the tree is still followed
    _, report, text = _scan(repo)
    assert SECRET not in text
    diags = _diagnostics(report)
    assert any("envs/host:" in d and containment.OUTSIDE in d for d in diags), diags
    assert any("leak.tf:" in d and containment.OUTSIDE in d for d in diags), diags
    assert "aws_instance.inference" in text


def test_module_source_through_a_link_out_of_the_tree_is_a_note(repo: Path,
                                                                 outside: Path) -> None:
    prod = repo / "envs" / "prod"
    (prod / "vendored").symlink_to(outside / "gpu-module")
    with (prod / "main.tf").open("a") as fh:
        fh.write('\nmodule "vendored" {\n  source = "./vendored"\n}\n')
    _, _, text = _scan(prod)
    assert SECRET not in text
    assert "module source: " + containment.OUTSIDE in text


def test_modules_of_the_same_repository_are_read(repo: Path, outside: Path) -> None:
    """The root of a scan is its repository: `../../modules` of a scanned environment is in."""
    (repo / ".git").mkdir()
    (repo / "modules" / "gpu").mkdir(parents=True)
    (repo / "modules" / "gpu" / "main.tf").write_text(GPU_MODULE.replace(SECRET, "team-a"))
    prod = repo / "envs" / "prod"
    with (prod / "main.tf").open("a") as fh:
        fh.write('\nmodule "gpu" {\n  source = "../../modules/gpu"\n}\n')
    _, _, text = _scan(prod)
    assert "module.gpu.aws_instance.vendored" in text
    assert containment.OUTSIDE not in text


@pytest.mark.parametrize("name", ["zero.auto.tfvars.json", "zero.auto.tfvars"])
def test_device_fifo_and_huge_tfvars_are_skipped_in_bounded_memory(repo: Path,
                                                                   name: str) -> None:
    prod = repo / "envs" / "prod"
    (prod / name).symlink_to("/dev/zero")
    os.mkfifo(prod / ("fifo." + name.split(".", 1)[1]))
    with (prod / ("big." + name.split(".", 1)[1])).open("wb") as fh:
        fh.truncate(200 * 1024 * 1024)  # sparse: 200 MB without writing them
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    _, report, text = _scan(repo)
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before < 30
    diags = _diagnostics(report)
    assert sum("not a regular file" in d or containment.OUTSIDE in d for d in diags) == 2, diags
    assert any("envs/prod/big." in d and "larger than" in d for d in diags), diags
    assert "aws_instance.inference" in text


def test_tfvars_json_with_a_5000_digit_number_is_a_diagnostic(repo: Path) -> None:
    prod = repo / "envs" / "prod"
    (prod / "n.auto.tfvars.json").write_text('{"owner": ' + "9" * 5000 + "}")
    code, report, _ = _scan(repo)
    assert code == 0
    assert any("n.auto.tfvars.json" in d and "invalid JSON" in d for d in _diagnostics(report))
