from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "rules")

import shutil
from pathlib import Path

import pytest

WORKFLOW_MODULE = os.path.join(ROOT, "tests", "workflow", "module")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository with the Terraform module tests/workflow/module in infra/, as the working
    directory (for configuration discovery, baselines and pre-commit style runs)."""
    (tmp_path / ".git").mkdir()
    shutil.copytree(WORKFLOW_MODULE, tmp_path / "infra")
    monkeypatch.chdir(tmp_path)
    return tmp_path
