"""The size bound on Terraform files (--max-hcl-size): a .tf or .tf.json file above it is not
parsed, as parsing and evaluating it would take longer than the scan's time budget (about
20 µs a byte, docs/performance.md). The refusal is never silent: a warning at the file's first
line names the flag that raises the bound, and each block of the file whose text shows
accelerator evidence is reported as "could not evaluate".

The outcome depends on the bound, not on the bytes alone, so it is never cached.
"""

from __future__ import annotations

import os
import re

from gpulint.load.evidence import MARKER, EvidenceNote, is_gpu_instance
from gpulint.load.source import Parsed

TERRAFORM_KINDS = frozenset({"terraform", "terraform-json"})
# Past this many blocks with evidence in one file, one more note counts the rest.
MAX_NOTES_PER_FILE = 100

# A top-level block's header in native syntax (`resource "aws_instance" "gpu" {`); for
# .tf.json the key lines of resources (`"gpu": {` under a type) are not told apart, so the
# file itself is the address there.
_HEADER = re.compile(r'^\s*(resource|data|module|variable|output|locals)\b((?:\s+"[^"\n]*")*)'
                     r'\s*\{')
_QUOTED = re.compile(r'"([^"\\\n]{1,80})"')


def refused(kind: str, size: int, limit: int) -> Parsed | None:
    """The outcome of a Terraform file above the bound, or None when it is to be parsed."""
    if kind not in TERRAFORM_KINDS or size <= limit:
        return None
    return Parsed(kind, diags=[(1, f"Terraform file larger than {limit // 1024} KiB "
                                   f"({size // 1024} KiB), not parsed: its resources are not "
                                   "evaluated (raise the bound with --max-hcl-size KIB)",
                                "warning")], transient=True)


def _evidence(line: str) -> str | None:
    """The text on a line that says accelerators: a marker word or a GPU instance type."""
    m = MARKER.search(line)
    if m:
        return line.strip()[:80]
    for q in _QUOTED.finditer(line):
        if is_gpu_instance(q.group(1)):
            return line.strip()[:80]
    return None


def _address(kind: str, labels: list[str], fallback: str) -> str:
    if kind == "resource" and len(labels) >= 2:
        return f"{labels[0]}.{labels[1]}"
    if kind == "data" and len(labels) >= 2:
        return f"data.{labels[0]}.{labels[1]}"
    names = {"module": "module", "variable": "var", "output": "output"}
    if kind in names and labels:
        return f"{names[kind]}.{labels[0]}"
    return "locals" if kind == "locals" else fallback


def notes(path: str, text: str, limit: int) -> list[EvidenceNote]:
    """A "could not evaluate" note per block of a refused file whose text shows accelerators,
    at the first such line of the block; one pass over the lines."""
    fallback = os.path.basename(path)
    reason = (f"accelerators in a Terraform file not parsed (larger than {limit // 1024} KiB); "
              "raise the bound with --max-hcl-size KIB")
    out: list[EvidenceNote] = []
    seen: set[str] = set()
    address, extra = fallback, 0
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line) if path.endswith(".tf") else None
        if header:
            labels = re.findall(r'"([^"\n]*)"', header.group(2))
            address = _address(header.group(1), labels, fallback)
        if address in seen:
            continue
        snippet = _evidence(line)
        if snippet is None:
            continue
        seen.add(address)
        if len(out) >= MAX_NOTES_PER_FILE:
            extra += 1
            continue
        out.append(EvidenceNote(address, path, number, f"{snippet}: {reason}"))
    if extra:
        out.append(EvidenceNote(fallback, path, 1, f"{extra} more blocks: {reason}"))
    return out
