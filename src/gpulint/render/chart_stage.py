"""A chart as gpulint hands it to a renderer: a copy made of files gpulint read itself.

Helm follows symbolic links: `.Files.Get "leak"` of `leak -> /proc/self/environ` or of
`leak -> ../../secret` would put the runner's environment or a file outside the repository into a
rendered name, then into the report and the pull-request comment. So a renderer never sees the
chart in the tree: it sees a staged copy of regular files, each read through the confined reader
(files/reader.py). A link that leaves the repository, leads into /proc, /dev or /sys, or into
version-control metadata, a file that is not regular, and a packaged subchart (`charts/*.tgz`)
holding a link, a device or a path that climbs out (`..`, `/`) are refused: the chart is not
rendered and a diagnostic says which file and why. `.git/`, `.hg/` and `.svn/` are not copied.

The copy's content digest (every path and byte, in order) is the chart's part of the render's
cache key.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import tarfile
from dataclasses import dataclass, field

from gpulint.files import containment, reader

MAX_CHART_FILES = 5_000
MAX_CHART_BYTES = 64 * 1024 * 1024  # a chart's files together, packaged subcharts unpacked
MAX_DEPTH = 32  # directories nested in one chart (links to directories included)
_SYSTEM = ("/proc", "/dev", "/sys")


class Refused(Exception):
    """A chart that is not handed to a renderer; the message names the file and why."""


@dataclass
class StagedChart:
    root: str  # the chart directory as the scan names it
    files: dict[str, bytes] = field(default_factory=dict)  # path relative to root -> bytes
    size: int = 0

    def digest(self) -> str:
        h = hashlib.sha256()
        for rel in sorted(self.files):
            data = self.files[rel]
            # A file name that is not UTF-8 holds surrogate escapes: hash its bytes.
            h.update(os.fsencode(rel) + f"\0{len(data)}\0".encode())
            h.update(data)
        return h.hexdigest()

    def write(self, into: str) -> str:
        """Write the copy under `into` (private to this user); the copy's chart directory."""
        top = os.path.join(into, os.path.basename(os.path.abspath(self.root)) or "chart")
        for rel, data in self.files.items():
            target = os.path.join(top, rel)
            os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        os.makedirs(top, mode=0o700, exist_ok=True)
        return top


def _system(real: str) -> bool:
    return any(real == s or real.startswith(s + os.sep) for s in _SYSTEM)


def _repository(root: str) -> str:
    """The tree the chart may read from: the scan's confinement when there is one (its roots,
    checked by containment), else the chart's repository or, outside one, the chart itself."""
    return containment.root_of(os.path.abspath(root))


def _check_link(path: str, shown: str, top: str) -> str:
    """The real path a link leads to, or Refused."""
    real = os.path.realpath(path)
    if _system(real):
        raise Refused(f"{shown} is a symbolic link into /{real.split(os.sep)[1]}, refused")
    if containment.escapes(path) or not (real == top or real.startswith(top + os.sep)):
        raise Refused(f"{shown}: {containment.OUTSIDE}")
    if containment.in_vcs(real, [top]):
        raise Refused(f"{shown} leads into version-control metadata, refused")
    return real


def stage(root: str, limit: int = reader.DEFAULT_LIMIT) -> StagedChart:
    """The chart under `root` read into memory, or Refused."""
    chart = StagedChart(root)
    top = _repository(root)
    start = os.path.abspath(root)
    if os.path.islink(start.rstrip(os.sep)) or containment.escapes(start):
        _check_link(start, os.path.basename(start), top)
    _walk(chart, start, "", top, limit, set(), 0)
    return chart


def _walk(chart: StagedChart, directory: str, rel: str, top: str, limit: int,
          seen: set[str], depth: int) -> None:
    real_dir = os.path.realpath(directory)
    if real_dir in seen or depth > MAX_DEPTH:
        raise Refused(f"{rel or '.'}: directories nested or linked into each other deeper "
                      f"than {MAX_DEPTH} levels, refused")
    seen = seen | {real_dir}
    try:
        names = sorted(os.listdir(directory))
    except OSError as e:
        raise Refused(f"{rel or '.'}: cannot list the directory ({e.strerror})") from None
    for name in names:
        if name.lower() in containment.VCS_DIRS:
            continue  # never input, never copied
        path = os.path.join(directory, name)
        shown = f"{rel}/{name}" if rel else name
        if os.path.islink(path):
            _check_link(path, shown, top)
        try:
            st = os.stat(path)
        except OSError as e:
            raise Refused(f"{shown}: {e.strerror}") from None
        if stat.S_ISDIR(st.st_mode):
            _walk(chart, path, shown, top, limit, seen, depth + 1)
        elif stat.S_ISREG(st.st_mode):
            _add(chart, path, shown, limit)
        else:
            raise Refused(f"{shown} is not a regular file, refused")


def _add(chart: StagedChart, path: str, shown: str, limit: int) -> None:
    if len(chart.files) >= MAX_CHART_FILES:
        raise Refused(f"more than {MAX_CHART_FILES} files, refused")
    try:
        data = reader.read_file(path, limit, scanned=True)
    except reader.Unreadable as e:
        raise Refused(f"{shown}: {e.strerror}, refused") from None
    chart.size += len(data)
    if name_is_package(shown):
        chart.size += check_package(data, shown)
    if chart.size > MAX_CHART_BYTES:
        raise Refused(f"larger than {MAX_CHART_BYTES // (1024 * 1024)} MiB (packaged "
                      "subcharts unpacked), refused")
    chart.files[shown] = data


def name_is_package(rel: str) -> bool:
    return rel.endswith((".tgz", ".tar.gz")) and "/charts/" in f"/{rel}"


def check_package(data: bytes, shown: str) -> int:
    """A packaged subchart's unpacked size; Refused when a member is a link, a device, or a
    path that climbs out, or when it unpacks beyond the chart's bound."""
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r|*") as tar:
            for count, member in enumerate(tar):
                name = member.name
                parts = name.replace("\\", "/").split("/")
                if name.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
                    raise Refused(f"{shown}: member {name!r} climbs out of the chart, refused")
                if member.issym() or member.islnk():
                    raise Refused(f"{shown}: member {name!r} is a link, refused")
                if not (member.isfile() or member.isdir()):
                    raise Refused(f"{shown}: member {name!r} is not a regular file, refused")
                if any(p.lower() in containment.VCS_DIRS for p in parts):
                    raise Refused(f"{shown}: member {name!r} is version-control metadata, "
                                  "refused")
                total += member.size
                if total > MAX_CHART_BYTES or count >= MAX_CHART_FILES:
                    raise Refused(f"{shown}: unpacks beyond {MAX_CHART_FILES} files or "
                                  f"{MAX_CHART_BYTES // (1024 * 1024)} MiB, refused")
    except (tarfile.TarError, EOFError, OSError, ValueError) as e:
        raise Refused(f"{shown}: not a readable chart package ({e}), refused") from None
    return total
