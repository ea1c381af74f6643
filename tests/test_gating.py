"""The exit status through the real CLI: findings and files that cannot be parsed set it; tool
notices go to standard error and gate only in strict mode; the last line of the text report
counts exactly what set the status (report/exit.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

# An application repository's infra/ directory: a web server whose suppression no longer hides
# anything, a binary file with a .tf name, and a chart template committed outside its chart.
NOTICES_ONLY = {
    "infra/main.tf": 'resource "aws_instance" "web" {\n'
                     "  # gpulint:ignore gpu-training-on-demand -- spot is kept for batch\n"
                     '  ami           = "ami-0c55b159cbfafe1f0"\n'
                     '  instance_type = "m5.large"\n'
                     "}\n",
    "deploy/web.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                       "  name: {{ .Release.Name }}-web\n",
}

# A GPU Deployment without a node selector: its GPU model (so its price) cannot be known.
UNPRICED_GPU = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: embedder
  namespace: search
spec:
  replicas: 1
  selector:
    matchLabels: {app: embedder}
  template:
    metadata:
      labels: {app: embedder}
    spec:
      containers:
        - name: server
          image: ghcr.io/huggingface/text-embeddings-inference:1.5
          resources:
            limits:
              nvidia.com/gpu: 1
"""


def _tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def _scan(root: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", str(root), "--no-cache", "--no-color", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def notices_only(tmp_path: Path) -> Path:
    return _tree(tmp_path, {**NOTICES_ONLY, "infra/blob.tf": b'resource "x" {\x00\x01}'})


def test_tool_notices_go_to_stderr_and_do_not_fail(notices_only: Path) -> None:
    code, out, err = _scan(notices_only)
    assert code == 0
    assert "unused suppression" in err and "binary file, skipped" in err
    assert "skipped a template" in err
    assert "unused suppression" not in out and "binary file" not in out
    assert out.splitlines()[-1] == ("0 errors, 0 warnings, 0 info; 2 tool warnings "
                                    "(not gating): pass (--fail-on warning)")


def test_strict_fails_on_tool_warnings_and_says_so(notices_only: Path) -> None:
    code, out, _ = _scan(notices_only, "--strict")
    assert code == 1
    assert out.splitlines()[-1] == ("0 errors, 0 warnings, 0 info; 2 tool warnings (strict): "
                                    "fail (--fail-on warning)")


def test_strict_from_the_configuration_and_no_strict_flag(notices_only: Path) -> None:
    (notices_only / ".gpulint.yaml").write_text("strict: true\n", encoding="utf-8")
    assert _scan(notices_only, "--config", str(notices_only / ".gpulint.yaml"))[0] == 1
    assert _scan(notices_only, "--config", str(notices_only / ".gpulint.yaml"),
                 "--no-strict")[0] == 0


def test_a_file_that_does_not_parse_fails_and_is_counted(tmp_path: Path) -> None:
    _tree(tmp_path, {"k8s/broken.yaml": "apiVersion: v1\nkind: ConfigMap\ndata: [unclosed\n"})
    code, out, err = _scan(tmp_path)
    assert code == 1
    assert "k8s/broken.yaml:" in out and "YAML parse error" in out and not err
    assert out.splitlines()[-1] == ("0 errors, 0 warnings, 0 info; 1 file not parsed: "
                                    "fail (--fail-on warning)")
    # Even with --fail-on error: a broken file must not pass CI.
    assert _scan(tmp_path, "--fail-on", "error")[0] == 1
    assert _scan(tmp_path, "--fail-on", "never")[0] == 0


def test_strict_fails_on_a_gpu_resource_that_cannot_be_priced(tmp_path: Path) -> None:
    _tree(tmp_path, {"deploy/embedder.yaml": UNPRICED_GPU})
    code, out, _ = _scan(tmp_path, "--fail-on", "error")
    assert code == 0
    code, out, _ = _scan(tmp_path, "--fail-on", "error", "--strict")
    assert code == 1
    assert "1 GPU resource not evaluated (strict): fail (--fail-on error)" in out.splitlines()[-1]


def test_the_json_report_records_the_gate(notices_only: Path) -> None:
    code, out, err = _scan(notices_only, "--format", "json", "--strict")
    gate = json.loads(out)["summary"]["gate"]
    assert code == 1 and not err
    assert gate == {"fail_on": "warning", "strict": True, "findings": 0, "broken_files": 0,
                    "notices": 2, "unevaluated": 0, "failed": True}
