"""Append Markdown to the GitHub Actions job summary (``$GITHUB_STEP_SUMMARY``)."""

from __future__ import annotations

import os
from pathlib import Path

# GitHub rejects step summaries over 1 MiB.
SUMMARY_LIMIT_BYTES = 1024 * 1024


def write_job_summary(markdown: str, path: str | os.PathLike[str] | None = None) -> bool:
    """Append ``markdown`` to the job summary file.

    ``path`` defaults to ``$GITHUB_STEP_SUMMARY``.  Returns ``False`` (and writes nothing)
    when there is no summary file, e.g. outside GitHub Actions.
    """
    target = path if path is not None else os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return False
    data = markdown if markdown.endswith("\n") else markdown + "\n"
    encoded = data.encode("utf-8")
    if len(encoded) > SUMMARY_LIMIT_BYTES:
        note = b"\n\n_(gpulint summary truncated to fit the job summary limit)_\n"
        kept = encoded[: SUMMARY_LIMIT_BYTES - len(note)].decode("utf-8", "ignore")
        encoded = kept.encode() + note
    with Path(target).open("ab") as fh:
        fh.write(encoded)
    return True
