#!/usr/bin/env python3
"""Build src/gpulint/data/gpu_catalog.json from SkyPilot-format price tables.

The derivation lives in the package (gpulint.catalog_build.build), so the bundled catalog and
the one `gpulint catalog update` installs come from the same code. The tables, their
provenance (sources.json) and the GPU memory they leave blank (memory_fill.csv) are checked in
under tests/data/catalog_tables/.

Usage: python scripts/build_catalog.py [--tables DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "src"))

from gpulint.catalog_build.build import from_directory, render
from gpulint.catalog_build.common import BuildError
from gpulint.catalog_build.consistency import with_markdown
from gpulint.catalog_build.tables import TableError

DEFAULT_TABLES = REPO_ROOT / "tests" / "data" / "catalog_tables"
DEFAULT_OUT = REPO_ROOT / "src" / "gpulint" / "data" / "gpu_catalog.json"
DOC = REPO_ROOT / "docs" / "catalog.md"  # lists the adjustment record of the bundled catalog


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=Path, default=DEFAULT_TABLES,
                        help="directory with aws/vms.csv, gcp/vms.csv, gcp/accelerators.csv, "
                             "azure/vms.csv and sources.json (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="where to write the catalog (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        catalog = from_directory(str(args.tables))
        data = render(catalog)
    except (OSError, ValueError, KeyError) as e:  # BuildError and TableError are ValueErrors
        kind = "refusing to build" if isinstance(e, (BuildError, TableError)) else "cannot build"
        print(f"build_catalog: {kind}: {e}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes)")
    if args.out.resolve() == DEFAULT_OUT.resolve():
        DOC.write_text(with_markdown(DOC.read_text(encoding="utf-8"),
                                     catalog["adjustment_rows"]), encoding="utf-8")
        print(f"listed {len(catalog['adjustment_rows'])} adjustments in {DOC}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
