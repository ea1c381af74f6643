"""read_bytes reads what is in the file when it is read, up to the limit, whatever the earlier
stat said (a file that grows between the two is read on, and still held to the limit)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint.files import reader
from gpulint.files import text as source


def _stat_says(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    real = os.fstat

    def stale(fd: int) -> os.stat_result:
        st = real(fd)
        fields = list(st)
        fields[6] = size  # st_size
        return os.stat_result(fields)

    monkeypatch.setattr(reader.os, "fstat", stale)


def test_reads_the_whole_file(tmp_path: Path) -> None:
    f = tmp_path / "a.tf"
    f.write_bytes(b"x" * 3000)
    assert source.read_bytes(str(f), 5000) == (b"x" * 3000, None)


@pytest.mark.parametrize("limit, read_whole", [(5000, True), (2048, False)])
def test_a_file_that_grew_after_the_stat_is_read_on_to_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int, read_whole: bool) -> None:
    f = tmp_path / "a.tf"
    f.write_bytes(b"y" * 3000)
    _stat_says(monkeypatch, 10)  # the stat saw 10 bytes; 3,000 are there when it is read
    data, diag = source.read_bytes(str(f), limit)
    if read_whole:
        assert (data, diag) == (b"y" * 3000, None)
    else:
        assert data is None and diag is not None and "larger than 2 KiB" in diag.message
