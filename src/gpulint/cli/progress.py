"""A one-line progress bar on standard error for long scans, shown only to a person watching.

Never in CI logs (the CI variable is set by GitHub Actions, GitLab, CircleCI, Travis, Buildkite…)
and never when standard error is piped or redirected.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

MIN_FILES = 200  # smaller scans finish before a bar would be useful
MIN_INTERVAL_S = 0.1
WIDTH = 30


def wanted(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    if os.environ.get("CI") or os.environ.get("GPULINT_NO_PROGRESS"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class ProgressBar:
    def __init__(self, stream: TextIO | None = None, min_files: int = MIN_FILES) -> None:
        self.stream = stream or sys.stderr
        self.min_files = min_files
        self._last = 0.0
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        if total < self.min_files:
            return
        now = time.monotonic()
        if done < total and now - self._last < MIN_INTERVAL_S:
            return
        self._last = now
        filled = WIDTH * done // max(total, 1)
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\rparsing [{bar}] {done}/{total} files")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar so the report starts on a clean line."""
        if self._drawn:
            self.stream.write("\r" + " " * (WIDTH + 40) + "\r")
            self.stream.flush()
            self._drawn = False
