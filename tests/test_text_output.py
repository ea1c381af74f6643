"""The default text report through the real CLI: findings first, most severe and largest
saving first; overlapping savings marked; "could not evaluate" grouped by root cause; the
resource table only with -v; the verdict last."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from gpulint.cli import cli

ROOT = Path(__file__).resolve().parents[1]

# A GPU Deployment without a node selector, as teams write them before pinning a node pool.
PLAIN = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker-{i}
spec:
  replicas: 1
  selector:
    matchLabels: {{app: worker-{i}}}
  template:
    metadata:
      labels: {{app: worker-{i}}}
    spec:
      containers:
        - name: app
          image: ghcr.io/acme/worker:1.0
          resources:
            limits:
              nvidia.com/gpu: 1
"""


def _scan(*args: str) -> list[str]:
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "--no-color", "--fail-on", "never",
                                      *args])
    return str(result.stdout).splitlines()


def test_forty_plain_deployments_give_one_cause_line(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"worker-{i}.yaml").write_text(PLAIN.format(i=i))
    lines = _scan(str(tmp_path))
    assert len(lines) == 40 + 7  # one finding each, the grouped cause, totals, price, verdict
    cause = [line for line in lines if line.startswith("  40× ")]
    assert len(cause) == 1 and "no node selector" in cause[0] and "and 39 more" in cause[0]
    assert "Could not evaluate 40 GPU resources (-v lists them)" in lines
    assert lines[-1] == "0 errors, 40 warnings, 0 info: pass (--fail-on never)"
    assert len(_scan(str(tmp_path), "-v")) > 200


def test_examples_sorted_by_saving_with_alternatives_marked() -> None:
    lines = _scan(str(ROOT / "examples"))
    findings = [line for line in lines if ": warning " in line]
    savings = [int(line.rsplit("$", 1)[1].split("/")[0].replace(",", ""))
               for line in findings if "saves $" in line]
    assert savings == sorted(savings, reverse=True) and len(savings) == 8
    assert "[alternative: saves $35,064/mo]" in findings[1]
    assert "GPU resources" not in lines  # the table is -v (and gpulint cost)
    assert lines[-3].startswith("7 GPU resources in 5 files: $")
    assert lines[-1].endswith(": pass (--fail-on never)")
