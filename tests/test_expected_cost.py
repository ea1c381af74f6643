"""Whatever scales is priced at its declared desired/initial size with the range beside it, and a
change of that size moves the diff. Reference prices are public list prices written here, not
read back from gpulint's catalog:

- AWS EC2 On-Demand, Linux, us-east-1 (aws.amazon.com/ec2/pricing/on-demand/, as recorded by
  instances.vantage.sh data, tsaol/aws-gpu snapshot 2026-01-21): g5.xlarge $1.006/h,
  g5.12xlarge $5.672/h, p4d.24xlarge $21.957642/h.
- GCE, us-central1 (cloud.google.com/compute/vm-instance-pricing, G2 machine types, as recorded
  by the anycloud-sh/catalog snapshot 2026-05-20): g2-standard-4 $0.70683/h, g2-standard-8
  $0.85362/h.
- Azure Linux VMs, East US (azure.microsoft.com/pricing/details/virtual-machines/linux/, as
  recorded by the anycloud-sh/catalog snapshot 2026-05-20): Standard_NC24ads_A100_v4 $3.673/h.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

HOURS = 730
G5_XLARGE, G5_12XLARGE, P4D = 1.006, 5.672, 21.957642
G2_4, G2_8 = 0.70683, 0.85362
NC24ADS_A100_V4 = 3.673

POOLS = """
provider "aws" { region = "us-east-1" }
provider "google" { region = "us-central1" }
provider "azurerm" { features {} }

resource "aws_eks_node_group" "gpu" {
  cluster_name   = "ml"
  instance_types = ["g5.12xlarge"]
  scaling_config {
    min_size     = 0
    desired_size = 2
    max_size     = 6
  }
}

resource "aws_launch_template" "g5" {
  instance_type = "g5.xlarge"
}

resource "aws_autoscaling_group" "workers" {
  min_size         = 1
  desired_capacity = 3
  max_size         = 5
  launch_template {
    id = aws_launch_template.g5.id
  }
}

resource "google_compute_instance_template" "l4" {
  machine_type = "g2-standard-8"
  region       = "us-central1"
  disk {
    source_image = "debian-cloud/debian-12"
  }
}

resource "google_compute_instance_group_manager" "l4" {
  zone               = "us-central1-a"
  base_instance_name = "l4"
  target_size        = 2
  version {
    instance_template = google_compute_instance_template.l4.id
  }
}

resource "google_compute_autoscaler" "l4" {
  zone   = "us-central1-a"
  target = google_compute_instance_group_manager.l4.id
  autoscaling_policy {
    min_replicas = 1
    max_replicas = 8
  }
}

resource "google_container_node_pool" "l4" {
  cluster            = "ml"
  location           = "us-central1-a"
  initial_node_count = 2
  autoscaling {
    min_node_count = 0
    max_node_count = 4
  }
  node_config {
    machine_type = "g2-standard-4"
  }
}

resource "azurerm_kubernetes_cluster_node_pool" "a100" {
  name                  = "gpu"
  kubernetes_cluster_id = "id"
  vm_size               = "Standard_NC24ads_A100_v4"
  auto_scaling_enabled  = true
  min_count             = 0
  node_count            = 1
  max_count             = 3
}
"""


def _month(hourly: float, count: int) -> float:
    return round(hourly * count * HOURS, 2)


def _scan(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["scan", str(path), "--format", "json", "--fail-on", "never",
                                      "--no-cache"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("address,hourly,expected,low,high", [
    ("aws_eks_node_group.gpu", G5_12XLARGE, 2, 0, 6),
    ("aws_autoscaling_group.workers", G5_XLARGE, 3, 1, 5),
    ("google_compute_instance_group_manager.l4", G2_8, 2, 1, 8),
    ("google_container_node_pool.l4", G2_4, 2, 0, 4),
    ("azurerm_kubernetes_cluster_node_pool.a100", NC24ADS_A100_V4, 1, 0, 3),
])
def test_pools_are_priced_at_their_desired_size_with_the_range(
        tmp_path: Path, address: str, hourly: float, expected: int, low: int,
        high: int) -> None:
    (tmp_path / "main.tf").write_text(POOLS)
    report = _scan(tmp_path)
    r = next(r for r in report["resources"] if r["address"] == address)
    assert r["count"] == expected
    assert r["monthly_cost_usd"] == pytest.approx(_month(hourly, expected), abs=0.02)
    assert r["monthly_cost_min_usd"] == pytest.approx(_month(hourly, low), abs=0.02)
    assert r["monthly_cost_max_usd"] == pytest.approx(_month(hourly, high), abs=0.02)
    assert f"autoscaling {low}–{high} nodes, priced at the desired count" in r["price_basis"]


def test_text_shows_the_range_beside_the_expected_cost(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(POOLS)
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "-v", "--fail-on", "never",
                                   "--no-cache"])
    expected = f"${_month(G5_12XLARGE, 2):,.0f}/month expected, range $0–" \
               f"${_month(G5_12XLARGE, 6):,.0f}/month"
    assert expected in " ".join(out.stdout.split())


def test_the_minimum_when_no_size_is_declared(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(POOLS.replace("  node_count            = 1\n", ""))
    r = next(r for r in _scan(tmp_path)["resources"]
             if r["address"] == "azurerm_kubernetes_cluster_node_pool.a100")
    assert r["monthly_cost_usd"] == 0.0 and "priced at the minimum" in r["price_basis"]
    assert r["monthly_cost_max_usd"] == pytest.approx(_month(NC24ADS_A100_V4, 3), abs=0.02)


GROUP = """provider "aws" {{ region = "us-east-1" }}
resource "aws_eks_node_group" "train" {{
  cluster_name   = "ml"
  instance_types = ["p4d.24xlarge"]
  scaling_config {{
    min_size     = 0
    desired_size = {desired}
    max_size     = 8
  }}
}}
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                   capture_output=True)


def test_a_desired_size_change_moves_the_diff(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _git(tmp_path, "init")
    (tmp_path / "main.tf").write_text(GROUP.format(desired=1))
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-m", "base")
    (tmp_path / "main.tf").write_text(GROUP.format(desired=6))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["diff", "--base", "HEAD", ".", "--format", "json",
                                      "--no-cache", "--max-increase", "1000"])
    d = json.loads(result.stdout)
    (entry,) = d["resources"]
    assert entry["change"] == "changed"
    assert entry["changes"]["replicas"]["after"]["desired"] == 6
    assert d["delta_usd"] == pytest.approx(_month(P4D, 6) - _month(P4D, 1), abs=0.05)
    assert d["delta_max_usd"] == 0.0  # the maximum did not move
    assert result.exit_code == 1 and d["budget"]["status"] == "over"
    # The worst-case basis: the maximum is unchanged, so the same change is within budget. The
    # budget is a gating setting, read from the base commit: commit it there.
    (tmp_path / ".gpulint.yaml").write_text(
        "thresholds:\n  max_increase_usd: 1000\n  basis: max\n")
    _git(tmp_path, "add", ".gpulint.yaml")
    _git(tmp_path, "commit", "-qm", "budget")
    result = CliRunner().invoke(cli, ["diff", "--base", "HEAD", ".", "--format", "json",
                                      "--no-cache"])
    assert result.exit_code == 0 and json.loads(result.stdout)["budget"]["status"] == "within"
    os.remove(tmp_path / ".gpulint.yaml")
