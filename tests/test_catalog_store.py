"""Installed catalogs: where they live, which one scans use, and when they are called stale."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpulint.pricing import catalog, catalog_store

BUNDLED = Path(catalog.__file__).resolve().parent.parent / "data" / "gpu_catalog.json"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("GPULINT_DATA_DIR", str(tmp_path))
    catalog.forget_installed()
    catalog.use_catalog_file(None)
    yield tmp_path
    catalog.forget_installed()


def _variant(date: str, p4d_price: float) -> bytes:
    data = json.loads(BUNDLED.read_text(encoding="utf-8"))
    data["snapshot_date"] = date
    data["providers"]["aws"]["prices"]["p4d.24xlarge"]["us-east-1"][0] = p4d_price
    return json.dumps(data).encode()


def test_newest_valid_installed_catalog_is_used(data_dir: Path) -> None:
    assert catalog.kind() == "bundled"
    catalog_store.install(_variant("2026-11-01", 11.0),
                          dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc))
    newest = catalog_store.install(_variant("2026-11-20", 10.0),
                                   dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc))
    catalog.forget_installed()
    assert catalog.kind() == "installed"
    assert catalog.active_origin() == str(newest.resolve())
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1").ondemand == 10.0
    # A damaged newest file is skipped: the next one is used, never a crash.
    (data_dir / "catalogs" / "catalog-29991231T000000000000Z.json").write_text("{not json")
    catalog.forget_installed()
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1").ondemand == 10.0


def test_installed_catalog_older_than_the_bundled_one_is_not_used(data_dir: Path) -> None:
    catalog_store.install(_variant("2025-01-01", 1.0))
    catalog.forget_installed()
    assert catalog.kind() == "bundled"
    assert catalog.price("aws", "p4d.24xlarge", "us-east-1").ondemand != 1.0


def test_install_keeps_the_newest_few_and_leaves_no_temporary_file(data_dir: Path) -> None:
    for day in range(1, 6):
        catalog_store.install(b"{}", dt.datetime(2026, 11, day, tzinfo=dt.timezone.utc))
    names = sorted(p.name for p in (data_dir / "catalogs").iterdir())
    assert len(names) == catalog_store.KEEP_INSTALLED
    assert names[-1].startswith("catalog-20261105")


def test_platform_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GPULINT_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(catalog_store.sys, "platform", "linux")
    assert catalog_store.data_dir() == tmp_path / "gpulint"


def test_staleness(monkeypatch: pytest.MonkeyPatch) -> None:
    today = dt.datetime.now(dt.timezone.utc).date()
    recent = (today - dt.timedelta(days=89)).isoformat()
    old = (today - dt.timedelta(days=91)).isoformat()
    assert catalog_store.staleness(recent) is None
    assert "more than 90 days old" in (catalog_store.staleness(old) or "")
    monkeypatch.setenv("GPULINT_CATALOG_MAX_AGE_DAYS", "30")
    assert "more than 30 days old" in (catalog_store.staleness(recent) or "")
    assert catalog_store.staleness("not a date") is None
