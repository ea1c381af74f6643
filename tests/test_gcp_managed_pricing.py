"""Google's managed GPU services at their own rates where public figures exist, "not priced"
with the reason where they do not, never $0.

Reference figures (written here, not read from gpulint's data):
- Cloud Run GPU, instance-based billing, us-central1 (Cloud Billing Catalog API SKUs read
  2026-08, as transcribed in a public Cloud Run GPU deployment guide): NVIDIA L4 without zonal
  redundancy 0.0001867 USD per GPU-second ($0.672/h), with zonal redundancy 0.0002909
  ($1.047/h); CPU 0.000018 per vCPU-second and memory 0.000002 per GiB-second
  (cloud.google.com/run/pricing, Tier 1, "Services with CPU always allocated"). The same guide
  sums one L4 + 8 vCPU + 32 GiB without zonal redundancy to $1.421 per instance-hour.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

L4_NO_ZONAL, L4_ZONAL, VCPU_S, GIB_S = 0.0001867, 0.0002909, 0.000018, 0.000002
GUIDE_HOURLY_8_VCPU_32_GIB = 1.421

SERVICE = """resource "google_cloud_run_v2_service" "llm" {{
  name     = "gemma"
  location = "{region}"
  template {{
    {redundancy}
    node_selector {{
      accelerator = "nvidia-l4"
    }}
    containers {{
      image = "us-docker.pkg.dev/cloudrun/container/gemma/gemma3-4b"
      resources {{
        limits = {{
          cpu              = "8"
          memory           = "32Gi"
          "nvidia.com/gpu" = "1"
        }}
      }}
    }}
    scaling {{
      min_instance_count = 1
      max_instance_count = 4
    }}
  }}
}}
"""


def _scan(tmp_path: Path, text: str) -> dict[str, Any]:
    (tmp_path / "main.tf").write_text(text)
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--format", "json", "--fail-on",
                                   "never", "--no-cache"]).stdout
    (res,) = json.loads(out)["resources"]
    return dict(res)


def _service(tmp_path: Path, region: str = "us-central1", zonal: bool | None = False
             ) -> dict[str, Any]:
    disabled = str(not zonal).lower()
    redundancy = "" if zonal is None else f"gpu_zonal_redundancy_disabled = {disabled}"
    return _scan(tmp_path, SERVICE.format(region=region, redundancy=redundancy))


def test_a_cloud_run_l4_service_is_priced_at_cloud_runs_own_rate(tmp_path: Path) -> None:
    res = _service(tmp_path)
    hourly = (L4_NO_ZONAL + 8 * VCPU_S + 32 * GIB_S) * 3600
    assert hourly == pytest.approx(GUIDE_HOURLY_8_VCPU_32_GIB, rel=0.01)
    assert res["hourly_cost_usd"] == pytest.approx(hourly, rel=0.01)
    # min_instance_count is the always-on floor, max_instance_count the worst case
    assert res["monthly_cost_usd"] == pytest.approx(hourly * 730, rel=0.01)
    assert res["monthly_cost_min_usd"] == pytest.approx(hourly * 730, rel=0.01)
    assert res["monthly_cost_max_usd"] == pytest.approx(4 * hourly * 730, rel=0.01)
    basis = str(res["price_basis"])
    assert "Cloud Run 1× nvidia-l4 without zonal redundancy + 8 vCPU + 32 GiB" in basis
    assert "Cloud Billing Catalog SKUs" in basis


def test_zonal_redundancy_is_the_default_and_dearer(tmp_path: Path) -> None:
    default = _service(tmp_path, zonal=None)
    assert default["hourly_cost_usd"] == pytest.approx(
        (L4_ZONAL + 8 * VCPU_S + 32 * GIB_S) * 3600, rel=0.01)
    assert "with zonal redundancy" in str(default["price_basis"])
    explicit = _service(tmp_path, zonal=True)
    assert explicit["hourly_cost_usd"] == default["hourly_cost_usd"]


def test_a_region_without_a_bundled_rate_is_not_priced_never_zero(tmp_path: Path) -> None:
    res = _service(tmp_path, region="asia-southeast1")
    assert res["monthly_cost_usd"] is None and res["hourly_cost_usd"] is None
    why = json.dumps(res["unknowns"])
    assert "rate in asia-southeast1 is not in the bundled table (us-central1)" in why


def test_a_gpu_cloud_run_rtx_pro_6000_has_no_public_rate_bundled(tmp_path: Path) -> None:
    text = SERVICE.format(region="us-central1", redundancy="").replace(
        '"nvidia-l4"', '"nvidia-rtx-pro-6000"')
    res = _scan(tmp_path, text)
    assert res["monthly_cost_usd"] is None
    assert "nvidia-rtx-pro-6000 rate in us-central1 is not in the bundled table (no region)" \
        in json.dumps(res["unknowns"])


def test_a_workbench_instance_names_its_basis_and_shuts_down_when_idle(tmp_path: Path) -> None:
    """Workbench bills its VM at Compute Engine rates; the basis says the management fee is
    not included. Idle shutdown off (0 seconds) is a notebook that never shuts down."""
    text = """resource "google_workbench_instance" "wb" {
  name     = "wb"
  location = "us-central1-a"
  gce_setup {
    machine_type = "g2-standard-8"
    metadata = { idle-timeout-seconds = "0" }
  }
}
"""
    (tmp_path / "main.tf").write_text(text)
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--format", "json", "--fail-on",
                                   "never", "--no-cache"]).stdout
    data = json.loads(out)
    (res,) = data["resources"]
    assert "Workbench management fee is not included" in str(res["price_basis"])
    assert res["monthly_cost_usd"] and res["monthly_cost_usd"] > 0
    assert "gpu-notebook-without-shutdown" in {f["rule"] for f in data["findings"]}


def test_the_report_footer_dates_cloud_run_by_its_own_rates(tmp_path: Path) -> None:
    """The footer's catalog date is the Compute Engine table's; a Cloud Run price is dated in
    its basis, and the footer says so."""
    (tmp_path / "main.tf").write_text(SERVICE.format(region="us-central1", redundancy=""))
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--fail-on", "never",
                                   "--no-cache"]).stdout
    assert "Cloud Run GPU services at Cloud Run's own rates, dated in each basis." in \
        " ".join(out.split())  # the text report wraps its footer
