"""Accelerator evidence found, named and unaccounted for in a directory.

    PYTHONPATH=src python benchmarks/coverage.py DIR [-v]

Every YAML/JSON document that asks for accelerators (an extended resource, a bare `gpu` field,
a GPU node selector, a profile string) is matched with the scan's GPU resources (found), its
"could not evaluate" items and diagnostics (named, with a breakdown by cause) and the kinds
documented to run nothing (non-workload). Unaccounted evidence is a silent miss; -v lists each.
"""

from __future__ import annotations

import sys

from gpulint.report.coverage import NAMED, UNACCOUNTED, measure


def main(argv: list[str]) -> int:
    paths = [a for a in argv if not a.startswith("-")]
    verbose = "-v" in argv
    if not paths:
        print(__doc__)
        return 2
    cov = measure(paths)
    counts = cov.counts()
    total = sum(counts.values())
    print(f"documents with accelerator evidence: {total}")
    for outcome in ("found", "through-release", "named", "non-workload", "unaccounted"):
        print(f"  {outcome:13} {counts.get(outcome, 0)}")
    if cov.templates:
        print(f"  (chart templates read through their chart: {cov.templates} files)")
    if counts.get(NAMED):
        print("named, by cause:")
        for cause, n in cov.causes().most_common():
            print(f"  {n:4}× {cause}")
    for item in cov.items:
        if item.outcome == UNACCOUNTED or verbose:
            ev = ", ".join(e.describe() for e in item.evidence[:2])
            print(f"{item.outcome.upper()} {item.path}:{item.line} {item.what}: {ev}")
    return 1 if counts.get(UNACCOUNTED) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
