"""A scanned file's bytes and text: read through the confined reader (reader.py), decoded as
UTF-8 or as UTF-16/32 with a byte order mark, or a diagnostic saying why it was not."""

from __future__ import annotations

from gpulint.files import containment, reader
from gpulint.model import Diagnostic

DEFAULT_MAX_FILE_BYTES = reader.DEFAULT_LIMIT
# Terraform files (.tf, .tf.json) above this are not parsed (--max-hcl-size): parsing and
# evaluating dense HCL costs about 20 µs a byte on one core of the 2-core CI machine, so a file
# at the bound scans in about 6 s, where a 1.8 MB file took 41 s and 436 MiB
# (docs/performance.md). Hand-written files stay far below it: the largest of
# terraform-aws-modules/terraform-aws-vpc, a module of 200 variables, is 63 KB.
DEFAULT_MAX_HCL_BYTES = 256 * 1024
_Diag = tuple["int | None", str, str]  # line, message, severity


def read_bytes(path: str, limit: int = DEFAULT_MAX_FILE_BYTES) -> tuple[bytes | None,
                                                                        Diagnostic | None]:
    """A scanned file's content, or a diagnostic saying why it was not read (reader.py)."""
    try:
        return reader.read_file(path, limit, scanned=True), None
    except reader.Unreadable as e:
        if e.kind == "outside":
            return None, Diagnostic(path, None, containment.OUTSIDE, "warning")
        if e.kind == "not-regular":
            return None, Diagnostic(path, None, "not a regular file, skipped", "warning")
        if e.kind == "too-large":
            return None, Diagnostic(path, None, f"file larger than {limit // 1024} KiB, skipped "
                                                "(raise the limit with --max-file-size)",
                                    "warning")
        return None, Diagnostic(path, None, f"cannot read file: {e.strerror}")


# Byte order marks of the encodings Windows editors save in besides UTF-8 (PowerShell's `>`
# writes UTF-16 LE): longest first, as UTF-32 LE's starts with UTF-16 LE's.
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def decode(data: bytes) -> tuple[str | None, _Diag | None]:
    """UTF-8 text (a BOM is dropped), UTF-16 or UTF-32 text with its BOM, or why the bytes are
    not text."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None)
    if encoding is not None:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as e:
            return None, (None, f"file is not valid {encoding.upper()} text ({e.reason}), "
                                "skipped", "error")
        return (text, None) if "\x00" not in text else \
            (None, (None, "binary file, skipped", "warning"))
    if b"\x00" in data:
        return None, (None, "binary file, skipped", "warning")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as e:
        return None, (data[: e.start].count(b"\n") + 1, "file is not UTF-8 text, skipped", "error")


def read_text(path: str, limit: int = DEFAULT_MAX_FILE_BYTES) -> tuple[str | None,
                                                                       Diagnostic | None]:
    """File text, or a diagnostic saying why it was not read."""
    data, diag = read_bytes(path, limit)
    if data is None:
        return None, diag
    text, problem = decode(data)
    if problem is not None:
        return None, Diagnostic(path, *problem)
    return text, None
