"""Typos a user makes in code and on the command line, through the real command line: an
instance type the catalog lacks gets a did-you-mean and the fix in "could not evaluate", and a
--var no root module declares is a warning on standard error, as Terraform warns."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gpulint.cli import cli

# A training box whose type arrives through a variable, as in most root modules.
MAIN_TF = """variable "trainer_type" {
  type    = string
  default = "p4d.24xlarge"
}

resource "aws_instance" "trainer" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = var.trainer_type
  tags = { workload = "training", team = "ml", project = "llm", env = "prod" }
}

resource "aws_instance" "typo" {
  ami           = "ami-0c55b159cbfafe1f0"
  instance_type = "p4d.24xlarg"
  tags = { workload = "training", team = "ml", project = "llm", env = "prod" }
}
"""

# A pod pinned to a node type with a typo in the well-known label.
POD = """apiVersion: v1
kind: Pod
metadata:
  name: embed
  namespace: search
  labels: {team: search, project: embed, env: prod}
spec:
  nodeSelector:
    node.kubernetes.io/instance-type: g5.xlarg
  containers:
    - name: server
      image: ghcr.io/acme/embed:2.1
      resources:
        limits:
          nvidia.com/gpu: 1
"""


def _scan(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "--no-color", "--fail-on", "never",
                                      str(root), *args])
    return result.exit_code, result.stdout, result.stderr


def test_instance_type_typos_get_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(MAIN_TF)
    (tmp_path / "pod.yaml").write_text(POD)
    code, out, _ = _scan(tmp_path, "-v")
    flat = " ".join(out.split())
    assert code == 0
    assert ("instance type 'p4d.24xlarg' is not in the aws catalog (did you mean "
            "'p4d.24xlarge' or 'p4de.24xlarge'?)") in flat
    assert "instance type 'g5.xlarg' is not in the catalog (did you mean 'g5.xlarge'" in flat
    code, out, _ = _scan(tmp_path)
    flat = " ".join(out.split())
    # The fix is the spelling, not a made-up price.
    assert "fix: correct the instance type as suggested" in flat
    assert "pricing-overrides" not in flat
    code, out, _ = _scan(tmp_path, "--format", "json")
    reasons = [u["reason"] for r in json.loads(out)["resources"] for u in r["unknowns"]]
    assert any("did you mean 'p4d.24xlarge'" in reason for reason in reasons)


def test_an_undeclared_var_is_a_warning_with_a_did_you_mean(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(MAIN_TF)
    code, out, err = _scan(tmp_path, "--var", "trainer_typ=g5.xlarge")
    assert code == 0
    assert ("<command line>: warning --var trainer_typ: no root module declares a variable "
            "named 'trainer_typ' (did you mean 'trainer_type'?); the value is ignored") in err
    assert "warning --var" not in out
    # A declared one is used and not warned about.
    code, out, err = _scan(tmp_path, "--var", "trainer_type=g5.xlarge", "--format", "json")
    report = json.loads(out)
    assert "--var" not in err and not any("--var" in d["message"] for d in report["diagnostics"])
    trainer = next(r for r in report["resources"] if r["address"] == "aws_instance.trainer")
    assert trainer["instance_type"] == "g5.xlarge"
    # In the JSON report it is a tool warning (gating with --strict, like every one).
    code, out, _ = _scan(tmp_path, "--var", "trainer_typ=g5.xlarge", "--format", "json")
    diagnostic = next(d for d in json.loads(out)["diagnostics"] if "trainer_typ" in d["message"])
    assert diagnostic["severity"] == "warning" and diagnostic["path"] == "<command line>"
