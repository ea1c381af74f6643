"""The documented `.gitlab-ci.yml` job runs as written (its `script`, in bash with the
runner's `set -eo pipefail`) on a merge-request checkout, against the loopback GitLab: it
writes the Code Quality report and one note, and takes the scan's verdict after commenting."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gitlab_fake import FakeGitLab
from test_action_steps import checkout  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "glpat-jobTOKEN000000000000001"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None,
                                reason="needs bash and git")


def _job() -> dict[str, object]:
    return yaml.safe_load((ROOT / "docs" / "examples" / "gitlab-ci.yml").read_text())["gpulint"]


def test_the_documented_job_is_the_example_file() -> None:
    doc = (ROOT / "docs" / "gitlab.md").read_text()
    block = re.search(r"```yaml\n(.*?)```", doc, re.S)
    assert block is not None
    assert yaml.safe_load(block.group(1)) == {"gpulint": _job()}
    job = _job()
    assert job["artifacts"]["reports"]["codequality"] == "gl-code-quality.json"  # type: ignore[index]


def _run(work: Path, gl: FakeGitLab, fail_on: str) -> tuple[int, str]:
    bin_dir = work.parent / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "gpulint"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m gpulint "$@"\n')
    shim.chmod(0o755)
    (work / ".gpulint.yaml").write_text(f"fail_on: {fail_on}\n")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("CI_", "GITLAB_"))},
           "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ROOT / "src"),
           "CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "3",
           "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_PROJECT_ID": "11",
           "CI_API_V4_URL": gl.api_url, "CI_COMMIT_SHA": "b" * 40,
           "CI_PROJECT_URL": "https://gitlab.example/acme/inference", "GITLAB_TOKEN": TOKEN}
    script = "set -eo pipefail\n" + "\n".join(_job()["script"])  # type: ignore[arg-type]
    proc = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def test_the_job_writes_the_report_and_one_note_then_fails_on_findings(
        checkout: Path) -> None:  # noqa: F811
    with FakeGitLab() as gl:
        gl.add_token(TOKEN, 5, "project_11_bot")
        gl.add_project(11, "acme/inference")
        code, log = _run(checkout, gl, "never")
        assert code == 0, log
        issues = json.loads((checkout / "gl-code-quality.json").read_text())
        assert [i["location"]["path"] for i in issues] == ["deploy/reranker.yaml"]
        [note] = gl.mr_notes(11, 3)
        assert "→" in note["body"]  # the cost diff against the target branch
        code, log = _run(checkout, gl, "warning")
        assert code == 1, log
        assert len(gl.mr_notes(11, 3)) == 1  # the same note, written before failing
