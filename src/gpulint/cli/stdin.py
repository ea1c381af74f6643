"""`gpulint scan -`: a manifest stream on standard input (`helm template … | gpulint scan -`),
scanned as one YAML file shown as `<stdin>`."""

from __future__ import annotations

import dataclasses
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from gpulint.cli.common import fail_usage

if TYPE_CHECKING:
    from gpulint.pipeline import ScanResult

NAME = "<stdin>"


@contextmanager
def as_file(paths: list[str]) -> Iterator[tuple[list[str], str | None]]:
    """``paths``, with `-` replaced by a private temporary file holding standard input; the
    file's path (None without `-`). `-` goes alone: a stream has no directory to share."""
    if "-" not in paths:
        yield paths, None
        return
    if paths != ["-"]:
        fail_usage("- (standard input) cannot be combined with other paths")
    data = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory(prefix="gpulint-stdin-") as directory:
        path = os.path.join(directory, "stdin.yaml")
        with open(path, "wb") as fh:
            fh.write(data)
        yield [path], path


def rename(result: ScanResult, path: str) -> None:
    """Everything located in the temporary file is shown as `<stdin>`."""
    shown = {path, os.path.relpath(path)}

    def name(p: str) -> str:
        return NAME if p in shown else p

    for r in result.resources:
        r.path = name(r.path)
    result.findings = [dataclasses.replace(f, path=name(f.path)) for f in result.findings]
    result.not_evaluated = [dataclasses.replace(n, path=name(n.path))
                            for n in result.not_evaluated]
    result.diagnostics = [dataclasses.replace(d, path=name(d.path)) for d in result.diagnostics]
    result.suppressed = [(dataclasses.replace(f, path=name(f.path)), s)
                         for f, s in result.suppressed]
