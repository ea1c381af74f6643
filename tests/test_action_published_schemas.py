"""action.yml and the example workflow against SchemaStore's published schemas.

check-jsonschema ships SchemaStore's github-actions and github-workflows schemas inside the
package (its "vendor" builtins), so this runs offline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _check(schema: str, path: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("check-jsonschema") or os.path.join(os.path.dirname(sys.executable),
                                                           "check-jsonschema")
    if not os.path.exists(exe):
        pytest.skip("check-jsonschema is not installed (pip install '.[test]')")
    return subprocess.run([exe, "--builtin-schema", schema, path], capture_output=True,
                          text=True, check=False)


def test_action_yml_matches_the_published_schema() -> None:
    proc = _check("vendor.github-actions", os.path.join(ROOT, "action.yml"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_example_workflow_matches_the_published_schema() -> None:
    proc = _check("vendor.github-workflows",
                  os.path.join(ROOT, "docs", "examples", "gpulint-workflow.yml"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_check_rejects_a_broken_action(tmp_path: os.PathLike[str]) -> None:
    broken = os.path.join(tmp_path, "action.yml")
    with open(broken, "w") as fh:
        fh.write("name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n"
                 "    - run: echo hi\n")  # a composite run step needs a shell
    proc = _check("vendor.github-actions", broken)
    assert proc.returncode != 0
