"""YAML read outside the manifest loader (helmfiles, chart values, Chart.yaml, kustomizations,
values written in Terraform) is held to the same depth bound, checked before libyaml's composer
recurses: 30,000 levels in a helmfile killed the scan with a segmentation fault, in a
kustomization with a RecursionError. Each runs in a child process, since a regression would
kill the test process too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEEP = "x: " + "[" * 30_000 + "]" * 30_000 + "\n"
POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n  containers:\n  - name: c\n"
       "    image: x\n    resources:\n      limits:\n        nvidia.com/gpu: 1\n")
CHART = "apiVersion: v2\nname: app\nversion: 0.1.0\n"


def _scan(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "GPULINT_CACHE_DIR": "",
           "PATH": os.defpath}  # no helm or kubectl: the readers, not the renderers
    return subprocess.run([sys.executable, "-m", "gpulint", "scan", "--no-cache", "--format",
                           "json", "--fail-on", "never", str(tree)], env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("files, message", [
    ({"helmfile.yaml": DEEP}, "values not read: nested deeper than 200 levels"),
    ({"kustomization.yaml": "resources: [pod.yaml]\n" + DEEP},
     "kustomization is not valid YAML: nested deeper than 200 levels"),
    ({"chart/Chart.yaml": CHART, "chart/values.yaml": DEEP,
      "chart/templates/pod.yaml": POD.replace("gpu: 1", "gpu: {{ .Values.gpus }}")},
     "nested deeper than 200 levels"),
    ({"release.tf": 'resource "helm_release" "r" {\n  chart = "x"\n  values = [<<EOT\n'
                    + DEEP + "EOT\n  ]\n}\n"}, None),
])
def test_deep_yaml_outside_manifests_is_a_diagnostic(tmp_path: Path, files: dict[str, str],
                                                     message: str | None) -> None:
    for rel, text in {**files, "pod.yaml": POD}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    done = _scan(tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "internal error" not in done.stdout + done.stderr
    if message:
        assert message in done.stdout, done.stdout[-3000:]
    assert '"gpu_resources": 1' in done.stdout or '"gpu_resources": 2' in done.stdout
