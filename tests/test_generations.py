"""The GPU generations table: complete for the price catalog, consistent, and used as documented."""

from __future__ import annotations

import pytest

from gpulint.pricing import catalog
from gpulint.sizing import generations


def test_every_catalog_gpu_has_a_row() -> None:
    missing = set(catalog.gpu_models()) - set(generations.table())
    assert not missing


def test_rows_are_consistent() -> None:
    for row in generations.table().values():
        assert row.status in {"current", "previous"}
        assert row.vendor in {"nvidia", "amd"}
        assert 2010 <= row.year <= 2026
        assert row.source
        # Current generations are the newest architectures: none older than 2022.
        if row.status == "current":
            assert row.year >= 2022, row


@pytest.mark.parametrize("gpu,bandwidth,tflops", [
    # Datasheet figures (dense 16-bit tensor TFLOPS), as the CSV's source column names them.
    ("V100", 900, 125), ("T4", 320, 65), ("A100", 1555, 312), ("A100-80GB", 2039, 312),
    ("L4", 300, 121), ("L40S", 864, 362), ("H100", 3350, 989), ("H200", 4800, 989),
])
def test_datasheet_figures(gpu: str, bandwidth: float, tflops: float) -> None:
    row = generations.lookup(gpu)
    assert row is not None
    assert (row.mem_bandwidth_gbs, row.fp16_tflops) == (bandwidth, tflops)


def test_relative_throughput_is_the_weaker_of_bandwidth_and_compute() -> None:
    v100, l40s, h100 = (generations.lookup(g) for g in ("V100", "L40S", "H100"))
    assert v100 and l40s and h100
    # One L40S for one V100: 864/900 of the bandwidth, far more compute.
    assert generations.relative_throughput(v100, 1, l40s, 1) == pytest.approx(0.96)
    # One H100 for four V100s: 3350/3600 of the bandwidth.
    assert generations.relative_throughput(v100, 4, h100, 1) == pytest.approx(3350 / 3600)
    # Unknown figures give no answer rather than a guess.
    rtx = generations.lookup("RTX-PRO-6000")
    assert rtx is not None and generations.relative_throughput(v100, 1, rtx, 1) is None


def test_l4_is_not_the_same_work_as_t4_or_a10g() -> None:
    # L4 is newer but has less memory bandwidth: the documented reason T4 and A10G hosts are
    # not flagged for L4s.
    l4 = generations.lookup("L4")
    for old in ("T4", "A10G"):
        row = generations.lookup(old)
        assert row and l4
        rel = generations.relative_throughput(row, 1, l4, 1)
        assert rel is not None and rel < 0.95
