from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "rules")

WORKFLOW_MODULE = os.path.join(ROOT, "tests", "workflow", "module")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with the Terraform module tests/workflow/module in infra/, as the working
    directory (for configuration discovery, baselines and pre-commit style runs)."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(WORKFLOW_MODULE, tmp_path / "infra")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(autouse=True, scope="session")
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """CLI runs in tests cache parses in a temporary directory, never in the user's cache."""
    old = os.environ.get("GPULINT_CACHE_DIR")
    os.environ["GPULINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("gpulint-cache"))
    yield
    if old is None:
        os.environ.pop("GPULINT_CACHE_DIR", None)
    else:
        os.environ["GPULINT_CACHE_DIR"] = old


@pytest.fixture(autouse=True, scope="session")
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Tests never see a catalog the user installed with `gpulint catalog update`: an empty
    private data directory keeps the bundled catalog the default, and the staleness age is
    the documented default, so golden reports do not depend on the machine."""
    saved = {k: os.environ.get(k) for k in ("GPULINT_DATA_DIR", "GPULINT_CATALOG_MAX_AGE_DAYS",
                                            "GPULINT_CATALOG_SOURCE")}
    os.environ["GPULINT_DATA_DIR"] = str(tmp_path_factory.mktemp("gpulint-data"))
    os.environ.pop("GPULINT_CATALOG_MAX_AGE_DAYS", None)
    os.environ.pop("GPULINT_CATALOG_SOURCE", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(autouse=True)
def _no_configured_catalog_age():  # type: ignore[no-untyped-def]
    """A configuration's catalog.max_age_days is process state: it must not leak between
    in-process CLI runs of different tests."""
    from gpulint.pricing import catalog_store

    catalog_store.set_max_age_days(None)
    yield
    catalog_store.set_max_age_days(None)
