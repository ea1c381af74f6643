"""Plain-text and Markdown tables for the cost and diff commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def option_gpus(row: dict[str, Any]) -> str:
    """`2× H100` for an option (a report's or a cost breakdown's), `unknown GPU` without one."""
    count = f"{row['gpu_count']:g}× " if isinstance(row.get("gpu_count"), (int, float)) else ""
    return count + (row.get("gpu_model") or "unknown GPU")


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
               right: frozenset[int] = frozenset()) -> list[str]:
    """Columns padded to their widest cell; ``right`` holds the indexes of numeric columns."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=False))).rstrip()

    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                   right: frozenset[int] = frozenset()) -> list[str]:
    align = ["---:" if i in right else "---" for i in range(len(headers))]
    return (["| " + " | ".join(_md_cell(h) for h in headers) + " |",
             "|" + "|".join(align) + "|"]
            + ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows])
