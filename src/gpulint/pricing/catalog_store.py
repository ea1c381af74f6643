"""Where updated catalogs live, which one is active, and how old it is.

``gpulint catalog update`` installs catalogs in ``<data dir>/catalogs/`` as
``catalog-<UTC time>.json``: ``$GPULINT_DATA_DIR``, else the platform's user data directory
(``$XDG_DATA_HOME/gpulint`` or ``~/.local/share/gpulint`` on Linux,
``~/Library/Application Support/gpulint`` on macOS, ``%LOCALAPPDATA%\\gpulint`` on Windows).
A file is written next to its final name and renamed into place, so a reader sees a whole
catalog or none. Scans use the newest installed catalog that loads and is at least as new as
the bundled one; a broken file is skipped, never fatal.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import tempfile
from pathlib import Path

from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text

ENV_DATA_DIR = "GPULINT_DATA_DIR"
ENV_MAX_AGE = "GPULINT_CATALOG_MAX_AGE_DAYS"
DEFAULT_MAX_AGE_DAYS = 90
KEEP_INSTALLED = 3  # the newest few, so a bad update can be undone by deleting one file
PREFIX, SUFFIX = "catalog-", ".json"


def data_dir() -> Path:
    if os.environ.get(ENV_DATA_DIR):
        return Path(os.environ[ENV_DATA_DIR])
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "gpulint"


def catalogs_dir() -> Path:
    return data_dir() / "catalogs"


def installed() -> list[Path]:
    """Installed catalog files, newest first (the name carries the install time)."""
    try:
        names = [p for p in catalogs_dir().iterdir()
                 if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX)]
    except OSError:
        return []
    return sorted(names, key=lambda p: p.name, reverse=True)


def install(data: bytes, now: dt.datetime | None = None) -> Path:
    """Write ``data`` as the newest installed catalog, atomically; prune old ones."""
    folder = catalogs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or dt.datetime.now(dt.timezone.utc)).strftime("%Y%m%dT%H%M%S%fZ")
    target = folder / f"{PREFIX}{stamp}{SUFFIX}"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".incoming-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    for old in installed()[KEEP_INSTALLED:]:
        old.unlink(missing_ok=True)
    return target


def read_date(path: Path) -> str | None:
    """The snapshot date of an installed file, or None when it cannot be read."""
    try:
        data = json.loads(read_file_text(str(path), TOOL_FILE_LIMIT))
    except (OSError, ValueError):
        return None
    date = data.get("snapshot_date") if isinstance(data, dict) else None
    return date if isinstance(date, str) else None


_configured_max_age: int | None = None


def set_max_age_days(days: int | None) -> None:
    """The configuration's catalog.max_age_days (None: not set)."""
    global _configured_max_age
    _configured_max_age = days


def max_age_days() -> int:
    """Age after which a catalog is called stale: $GPULINT_CATALOG_MAX_AGE_DAYS, else the
    configuration's catalog.max_age_days, else 90."""
    raw = os.environ.get(ENV_MAX_AGE, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return int(raw)
    return _configured_max_age or DEFAULT_MAX_AGE_DAYS


def age_days(snapshot_date: str | None, today: dt.date | None = None) -> int | None:
    try:
        date = dt.date.fromisoformat(str(snapshot_date))
    except ValueError:
        return None
    return ((today or dt.datetime.now(dt.timezone.utc).date()) - date).days


def staleness(snapshot_date: str | None, max_age: int | None = None) -> str | None:
    """A one-line note when the prices are older than the allowed age, else None. No day
    count: the note must not change from one day to the next while it applies."""
    limit = max_age or max_age_days()
    age = age_days(snapshot_date)
    if age is None or age <= limit:
        return None
    return (f"prices are more than {limit} days old ({snapshot_date}); "
            "run `gpulint catalog update` for fresh ones")
