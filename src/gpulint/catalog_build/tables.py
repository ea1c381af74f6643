"""Read price tables in the SkyPilot catalog format (``vms.csv``), columns by name.

One row per instance type (or bare accelerator) and availability zone. Only the columns named
in ``COLUMNS`` are read; others (``Generation``, ``QuotaGroup``, ...) are ignored, and their
order does not matter. A missing column, a short row (a truncated download) or a cell that is
not a number is a ``TableError`` naming the file and line, never a half-read table.
"""

from __future__ import annotations

import ast
import csv
import io
import math
from collections import defaultdict
from dataclasses import dataclass

from gpulint import providers

# The tables a catalog is derived from, relative to a source base (directory or URL): the big
# three's, then each further cloud's own (providers.CLOUDS).
_OTHER_TABLES = tuple(c.table for c in providers.CLOUDS if c.table)
TABLES = ("aws/vms.csv", "gcp/vms.csv", "gcp/accelerators.csv", "azure/vms.csv", *_OTHER_TABLES)
# gcp/accelerators.csv is optional: SkyPilot's own GCP table lists accelerators in vms.csv. The
# further clouds' tables are optional too: a source without one keeps that cloud's prices from
# the catalog in use (SkyPilot's has no CoreWeave table).
OPTIONAL_TABLES = frozenset({"gcp/accelerators.csv", *_OTHER_TABLES})

COLUMNS = ("InstanceType", "AcceleratorName", "AcceleratorCount", "vCPUs", "MemoryGiB",
           "GpuInfo", "Price", "SpotPrice", "Region")


class TableError(ValueError):
    """A table that cannot be read as a price table."""


@dataclass(frozen=True)
class Row:
    """One row: an instance type (``name``) or a bare accelerator (``name`` empty)."""

    name: str
    accelerator: str
    count: float | None
    vcpus: float | None
    ram: float | None
    mem_mib: float | None  # per device, as GpuInfo reports it
    price: float | None
    spot: float | None
    region: str
    line: int


def _num(text: str | None, table: str, line: int, column: str) -> float | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise TableError(f"{table} line {line}: {column} is not a number: {text[:40]!r}") from None
    if not math.isfinite(value) or value < 0:
        raise TableError(f"{table} line {line}: {column} must be a finite number >= 0, "
                         f"got {text[:40]!r}")
    return value


def gpu_memory_mib(info: str) -> float | None:
    """SizeInMiB of the first GPU in a GpuInfo cell (a Python-literal dict), else None.

    GCP tables write just the GPU name there; that carries no memory figure."""
    info = info.strip()
    if not info.startswith("{"):
        return None
    try:
        data = ast.literal_eval(info)
        size = data["Gpus"][0]["MemoryInfo"]["SizeInMiB"]
    except (ValueError, SyntaxError, KeyError, IndexError, TypeError, MemoryError,
            RecursionError):
        return None
    return float(size) if isinstance(size, (int, float)) and size > 0 else None


def parse(table: str, text: str) -> list[Row]:
    """Every row of one table; raises TableError when the file is not a usable table."""
    if text.lstrip()[:1] == "<":
        raise TableError(f"{table}: got an HTML or XML page, not a CSV table")
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise TableError(f"{table}: empty file") from None
    except csv.Error as e:
        raise TableError(f"{table}: not a CSV table ({e})") from None
    index = {name.strip(): i for i, name in enumerate(header)}
    missing = [c for c in COLUMNS if c not in index]
    if missing:
        raise TableError(f"{table}: missing column(s) {', '.join(missing)} "
                         f"(has {', '.join(header[:12])[:200]})")
    rows = []
    try:
        for cells in reader:
            line = reader.line_num
            if not cells:
                continue
            if len(cells) != len(header):
                raise TableError(f"{table} line {line}: {len(cells)} fields, expected "
                                 f"{len(header)} (truncated or malformed file)")
            get = {c: cells[index[c]] for c in COLUMNS}
            rows.append(Row(
                name=get["InstanceType"].strip(), accelerator=get["AcceleratorName"].strip(),
                count=_num(get["AcceleratorCount"], table, line, "AcceleratorCount"),
                vcpus=_num(get["vCPUs"], table, line, "vCPUs"),
                ram=_num(get["MemoryGiB"], table, line, "MemoryGiB"),
                mem_mib=gpu_memory_mib(get["GpuInfo"]),
                price=_num(get["Price"], table, line, "Price"),
                spot=_num(get["SpotPrice"], table, line, "SpotPrice"),
                region=get["Region"].strip(), line=line))
    except csv.Error as e:
        raise TableError(f"{table} line {reader.line_num}: {e}") from None
    if not text.endswith("\n") and rows:
        # A complete download ends with a newline; a cut one usually does not.
        raise TableError(f"{table}: file ends in the middle of line {rows[-1].line} "
                         "(truncated download?)")
    return rows


def merge_zones(rows: list[Row]) -> dict[tuple[str, str, float | None, str], list[Row]]:
    """Rows grouped by (type, accelerator, count, region): one entry per zone otherwise."""
    grouped: dict[tuple[str, str, float | None, str], list[Row]] = defaultdict(list)
    for row in rows:
        grouped[(row.name, row.accelerator, row.count, row.region)].append(row)
    return grouped


def lowest(values: list[float | None]) -> float | None:
    """The lowest figure over the zones of a region (they normally agree)."""
    known = [v for v in values if v is not None]
    return min(known) if known else None
