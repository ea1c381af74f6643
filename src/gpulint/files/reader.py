"""The one way gpulint reads a file: scanned sources, tfvars, var files, configuration, rules,
baselines, catalogs, pricing overrides and reports all come through `read_file`.

It opens without blocking and checks the open file, not the name (a FIFO swapped in after a
check would otherwise block the scan forever): only a regular file is read, never more than
`limit` bytes (a link to /dev/zero or a 200 MB file costs nothing), and while a scan is confined
(containment.py) never a file of the tree through a symbolic link that leads out of it. Every
refusal is an `Unreadable`, an OSError whose `strerror` says why, so callers report it as they
report any other I/O error. tests/test_architecture.py checks that no other module opens a file to
read it.
"""

from __future__ import annotations

import errno
import os
import stat

from gpulint.files import containment

DEFAULT_LIMIT = 5 * 1024 * 1024  # the scan's --max-file-size default
# Files the person running gpulint names (catalogs, reports, baselines) can be larger than any
# source file, but not unbounded.
TOOL_FILE_LIMIT = 64 * 1024 * 1024

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class Unreadable(OSError):
    """A file that was not read; `kind` is outside, not-regular, too-large or os."""

    def __init__(self, path: str, kind: str, reason: str, code: int = errno.EINVAL) -> None:
        super().__init__(code, reason, path)
        self.kind = kind

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def read_file(path: str, limit: int = DEFAULT_LIMIT, scanned: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; raises Unreadable otherwise.
    `scanned`: a file of the scanned tree, not read through a link that leaves it."""
    if scanned and containment.escapes(path):
        raise Unreadable(path, "outside", containment.OUTSIDE, errno.EACCES)
    try:
        fd = os.open(path, _FLAGS)
    except OSError as e:
        raise Unreadable(path, "os", e.strerror or str(e), e.errno or errno.EIO) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end
            raise Unreadable(path, "not-regular", "not a regular file")
        if st.st_size > limit:
            raise _too_large(path, limit)
        # Ask for the stat size, not the limit: that spares a 5 MiB buffer per file (a third
        # of the reading time); a file that grew since the stat is read on to the limit.
        data = _read_up_to(fd, st.st_size + 1)
        if len(data) > st.st_size:
            data += _read_up_to(fd, limit + 1 - len(data))
    except Unreadable:
        raise
    except OSError as e:
        raise Unreadable(path, "os", e.strerror or str(e), e.errno or errno.EIO) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise _too_large(path, limit)
    return data


def read_file_text(path: str, limit: int = DEFAULT_LIMIT) -> str:
    """`read_file` decoded as UTF-8 (a BOM dropped); text that is not UTF-8 is Unreadable."""
    data = read_file(path, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise Unreadable(path, "os", f"not UTF-8 text (line {line})") from None


def _too_large(path: str, limit: int) -> Unreadable:
    return Unreadable(path, "too-large", f"larger than {limit // 1024} KiB", errno.EFBIG)


def _read_up_to(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size > 0:
        chunk = os.read(fd, min(size, 1 << 24))
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
