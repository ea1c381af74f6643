"""read_bytes reads what is in the file when it is read, up to the limit, whatever the earlier
stat said (a file that grows between the two is read on, and still held to the limit)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint.parse import source


def _stat_says(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    real = os.stat

    def stale(path: str) -> os.stat_result:
        st = real(path)
        fields = list(st)
        fields[6] = size  # st_size
        return os.stat_result(fields)

    monkeypatch.setattr(source.os, "stat", stale)


def test_reads_the_whole_file(tmp_path: Path) -> None:
    f = tmp_path / "a.tf"
    f.write_bytes(b"x" * 3000)
    assert source.read_bytes(str(f), 5000) == (b"x" * 3000, None)


def test_a_file_that_grew_after_the_stat_is_read_to_its_end(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "a.tf"
    f.write_bytes(b"y" * 3000)
    _stat_says(monkeypatch, 10)
    assert source.read_bytes(str(f), 5000) == (b"y" * 3000, None)


def test_a_file_that_grew_past_the_limit_is_skipped(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "a.tf"
    f.write_bytes(b"z" * 3000)
    _stat_says(monkeypatch, 10)
    data, diag = source.read_bytes(str(f), 2048)
    assert data is None and diag is not None and "larger than 2 KiB" in diag.message
