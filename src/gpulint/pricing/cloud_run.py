"""Cloud Run GPU services at Cloud Run's own per-second rates (data/cloud_run_gpu_rates.csv,
whose header names the source): a GPU service uses instance-based billing, so an instance
costs its GPU (dearer with zonal redundancy, the default) plus its vCPUs and memory for every
second it is up, idle or not. The instance counts (min_instance_count the always-on floor,
max_instance_count the worst case) come from the scaling facts like any other pool's."""

from __future__ import annotations

import csv
import io
from functools import lru_cache
from importlib import resources
from typing import Any

from gpulint.model import Unknown
from gpulint.pricing.price_types import HourlyPrice

SOURCE = "Cloud Run GPU rates (Cloud Billing Catalog SKUs, us-central1, 2026-08)"
# A GPU service must ask for at least this much (cloud.google.com/run/docs/configuring/
# services/gpu): the floor used when the code's limits cannot be read.
L4_MINIMUM = (4.0, 16.0)
SECONDS_PER_HOUR = 3600


@lru_cache(maxsize=1)
def _rates() -> dict[tuple[str, str], dict[str, float]]:
    text = resources.files("gpulint.data").joinpath("cloud_run_gpu_rates.csv").read_text("utf-8")
    rows = csv.DictReader(io.StringIO("".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("#"))))
    return {(r["region"], r["accelerator"]): {k: float(v) for k, v in r.items()
                                              if k not in ("region", "accelerator")}
            for r in rows}


def regions(accelerator: str) -> list[str]:
    return sorted(r for r, a in _rates() if a == accelerator)


def instance_price(shape: dict[str, Any], region: str, how: str) -> HourlyPrice | Unknown:
    """The hourly price of one instance of the service ``shape`` describes (its accelerator,
    GPUs, vCPUs, memory GiB and zonal redundancy) in ``region``, or why it has none."""
    accelerator = str(shape.get("accelerator"))
    rate = _rates().get((region, accelerator))
    if rate is None:
        where = ", ".join(regions(accelerator)) or "no region"
        return Unknown(f"Cloud Run's {accelerator} rate in {region} is not in the bundled "
                       f"table ({where}); {SOURCE}")
    gpus, vcpu, gib = shape.get("gpus"), shape.get("vcpu"), shape.get("memory_gib")
    if isinstance(gpus, Unknown):
        return Unknown(f"GPUs per instance: {gpus.reason}")
    if not isinstance(gpus, (int, float)):
        return Unknown("GPUs per instance not read")
    floor = ""
    if not isinstance(vcpu, (int, float)) or not isinstance(gib, (int, float)):
        vcpu, gib = L4_MINIMUM
        floor = (f"; cpu/memory limits not read, priced at the GPU minimum of {vcpu:g} vCPU "
                 f"and {gib:g} GiB, a lower bound")
    zonal = shape.get("zonal_redundancy") is not False  # Cloud Run's default is on
    gpu = rate["gpu_zonal_redundancy_usd_s" if zonal else "gpu_no_zonal_redundancy_usd_s"]
    per_second = gpus * gpu + vcpu * rate["vcpu_usd_s"] + gib * rate["gib_usd_s"]
    hourly = round(per_second * SECONDS_PER_HOUR, 6)
    redundancy = "with" if zonal else "without"
    basis = (f"gcp Cloud Run {gpus:g}× {accelerator} {redundancy} zonal redundancy + "
             f"{vcpu:g} vCPU + {gib:g} GiB {region} ({how}; {SOURCE}{floor})")
    return HourlyPrice(hourly, None, basis)
