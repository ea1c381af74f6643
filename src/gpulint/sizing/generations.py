"""GPU generations and the datasheet figures that say whether a newer GPU does the same work.

The table is `gpulint/data/gpu_generations.csv` (one row per GPU model of the price catalog);
docs/sizing.md explains which GPUs count as previous-generation and why.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["GpuGeneration", "lookup", "relative_throughput", "table"]


@dataclass(frozen=True)
class GpuGeneration:
    gpu: str
    vendor: str
    architecture: str
    year: int
    status: str  # "current" | "previous"
    mem_bandwidth_gbs: float | None
    fp16_tflops: float | None
    source: str

    @property
    def previous(self) -> bool:
        return self.status == "previous"

    @property
    def rated(self) -> bool:
        """Whether both throughput figures are known."""
        return self.mem_bandwidth_gbs is not None and self.fp16_tflops is not None


def _float(text: str) -> float | None:
    return float(text) if text.strip() else None


@lru_cache(maxsize=1)
def table() -> dict[str, GpuGeneration]:
    """GPU model (catalog spelling) -> its row."""
    text = resources.files("gpulint.data").joinpath("gpu_generations.csv").read_text("utf-8")
    rows = csv.DictReader(io.StringIO("".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("#"))))
    out = {}
    for row in rows:
        out[row["gpu"]] = GpuGeneration(
            gpu=row["gpu"], vendor=row["vendor"], architecture=row["architecture"],
            year=int(row["year"]), status=row["status"],
            mem_bandwidth_gbs=_float(row["mem_bandwidth_gbs"]),
            fp16_tflops=_float(row["fp16_tflops"]), source=row["source"])
    return out


def lookup(gpu_model: str | None) -> GpuGeneration | None:
    return table().get(gpu_model) if gpu_model else None


def vendor(gpu_model: str | None) -> str | None:
    row = lookup(gpu_model)
    return row.vendor if row else None


def relative_throughput(current: GpuGeneration, current_count: float,
                        other: GpuGeneration, other_count: float) -> float | None:
    """How much of the current GPUs' work the other GPUs do per hour, as the smaller of the two
    ratios of summed memory bandwidth (token generation) and summed 16-bit tensor throughput
    (prefill, training). None when a figure is unknown."""
    if not (current.rated and other.rated) or current_count <= 0 or other_count <= 0:
        return None
    bandwidth = ((other.mem_bandwidth_gbs or 0.0) * other_count
                 / ((current.mem_bandwidth_gbs or 1.0) * current_count))
    compute = ((other.fp16_tflops or 0.0) * other_count
               / ((current.fp16_tflops or 1.0) * current_count))
    return min(bandwidth, compute)
