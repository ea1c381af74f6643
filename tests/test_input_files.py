"""Files that are valid, or nearly, but once ended the scan or lost a file's other documents: a
5,000-digit JSON integer, a date-shaped scalar that is not a date, a file name that is not
UTF-8, an unreadable directory, a manifest saved as UTF-16. Each case sits next to a valid GPU
Pod that must still be reported."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

import bounded
from gpulint import discover as discover_mod

pytestmark = pytest.mark.slow

POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n"
       "  - name: trainer\n    image: nvcr.io/nvidia/pytorch:24.05-py3\n    resources:\n"
       "      limits:\n        nvidia.com/gpu: 1\n")


def scan(path: str) -> dict[str, Any]:
    run = bounded.gpulint("scan", "--no-cache", "--jobs", "1", "--format", "json",
                          "--fail-on", "never", path, cpu_seconds=60)
    assert run.code == 0, run.stderr
    assert run.seconds < 30 and run.peak_mib < 512, (run.seconds, run.peak_mib)
    report: dict[str, Any] = json.loads(run.stdout)
    return report


def pods(report: dict[str, Any]) -> list[tuple[str, str, int]]:
    return sorted((r["address"], os.path.basename(r["path"]), r["line"])
                  for r in report["resources"])


def test_json_with_a_5000_digit_integer(tmp_path: Any) -> None:
    (tmp_path / "settings.json").write_text(
        '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "limits"},\n'
        ' "data": {"max": ' + "9" * 5000 + "}}\n")
    (tmp_path / "pod.yaml").write_text(POD.format(name="a"))
    report = scan(str(tmp_path))  # was: internal error (ValueError, 4,300-digit limit)
    assert pods(report) == [("Pod/a", "pod.yaml", 1)]
    assert not report["diagnostics"]  # the number is kept as text


def test_date_shaped_scalar_that_is_not_a_date_keeps_the_other_documents(tmp_path: Any) -> None:
    (tmp_path / "all.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: release\ndata:\n"
        "  cutover: 2020-13-45\n---\n" + POD.format(name="b"))
    report = scan(str(tmp_path))  # was: internal error, every document of the file lost
    assert pods(report) == [("Pod/b", "all.yaml", 8)]
    assert not report["diagnostics"]


def test_file_name_not_utf8_is_a_diagnostic(tmp_path: Any) -> None:
    os.makedirs(os.path.join(bytes(tmp_path), b"caf\xe9"))
    with open(os.path.join(bytes(tmp_path), b"caf\xe9", b"pod.yaml"), "w") as fh:
        fh.write(POD.format(name="c"))
    (tmp_path / "pod.yaml").write_text(POD.format(name="d"))
    report = scan(str(tmp_path))  # was: internal error (UnicodeEncodeError writing the report)
    assert pods(report) == [("Pod/d", "pod.yaml", 1)]
    [diag] = report["diagnostics"]
    assert diag["path"].endswith("caf\\xe9/pod.yaml")
    assert "not valid UTF-8" in diag["message"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_a_bom_are_decoded(tmp_path: Any, encoding: str) -> None:
    bom = {"utf-16-be": b"\xfe\xff"}.get(encoding, b"")
    (tmp_path / "pod.yaml").write_bytes(bom + POD.format(name="e").encode(encoding))
    report = scan(str(tmp_path))  # was: "binary file, skipped"
    assert pods(report) == [("Pod/e", "pod.yaml", 1)]
    assert not report["diagnostics"]


def test_unreadable_directory_is_a_diagnostic(tmp_path: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "pod.yaml").write_text(POD.format(name="f"))
    (tmp_path / "pod.yaml").write_text(POD.format(name="g"))
    scandir = os.scandir

    def refuse(path: Any = ".") -> Any:  # what chmod 000 does, even when running as root
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refuse)
    found = discover_mod.discover([str(tmp_path)])
    assert [os.path.basename(f.path) for f in found.files] == ["pod.yaml"]
    [diag] = found.diagnostics  # was: skipped without a word
    assert diag.path.endswith("locked")
    assert diag.message == "cannot read directory: Permission denied, skipped"
