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


def _entries(lines: list[str]) -> list[str]:
    """Each finding or grouped cause as one string: the report wraps them at 80 columns,
    continuation lines indented by four spaces more than the first."""
    out: list[str] = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if out and line.strip() and indent >= 4 and not line.lstrip().startswith("fix:"):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def test_forty_plain_deployments_give_one_cause_line(tmp_path: Path) -> None:
    for i in range(40):
        (tmp_path / f"worker-{i}.yaml").write_text(PLAIN.format(i=i))
    lines = _scan(str(tmp_path))
    entries = _entries(lines)
    findings = [e for e in entries if ": warning gpu-missing-cost-tags " in e]
    assert len(findings) == 40
    cause = [e for e in entries if e.startswith("  40× ")]
    assert len(cause) == 1 and "no node selector" in cause[0] and "and 39 more" in cause[0]
    # The cause says what fixes it.
    fix = entries[entries.index(cause[0]) + 1]
    assert fix.strip().startswith("fix: declare the cluster and its GPU node pools under "
                                  "`clusters:`")
    assert "Could not evaluate 40 GPU resources (-v lists them)" in lines
    assert lines[-1] == "0 errors, 40 warnings, 0 info: pass (--fail-on never)"
    assert len(lines) < 40 * 2 + 15
    assert len(_scan(str(tmp_path), "-v")) > 200


def test_examples_sorted_by_saving_with_alternatives_marked() -> None:
    lines = _scan(str(ROOT / "examples"))
    findings = [e for e in _entries(lines) if ": warning " in e]
    savings = [int(e.rsplit("$", 1)[1].split("/")[0].replace(",", ""))
               for e in findings if "saves $" in e]
    assert savings == sorted(savings, reverse=True) and len(savings) == 8
    assert findings[1].endswith("[alternative: saves $35,064/mo]")
    assert "GPU resources" not in lines  # the table is -v (and gpulint cost)
    summary = next(i for i, line in enumerate(lines) if line.startswith("7 GPU resources in "))
    assert lines[summary + 1].startswith("Prices: aws ")  # the clouds it priced, with dates
    assert lines[-1].endswith(": pass (--fail-on never)")


def test_examples_fit_an_80_column_terminal() -> None:
    """Only a location longer than a line may overflow, and then it stands alone with its
    severity and rule; the default line carries the rule's short message, -v the whole one."""
    for verbose in ((), ("-v",)):
        for line in _scan(str(ROOT / "examples"), *verbose):
            if len(line) > 80:
                location, severity, rule = line.split(" ")
                assert location.endswith(":") and severity == "warning" and rule.startswith("gpu-")
    entries = _entries(_scan(str(ROOT / "examples")))
    assert any(e.endswith("Deployment/llm/chat-api: 8× A100-80GB; g6e.xlarge fits the model "
                          "[saves $37,356/mo]") for e in entries)
    long = _entries(_scan(str(ROOT / "examples"), "-v"))
    assert any("runs mistralai/Mistral-7B-Instruct-v0.3 on 8× A100-80GB (640 GiB)" in e
               for e in long)
    assert any(e.strip().startswith("fix: Move the workload") for e in long)
