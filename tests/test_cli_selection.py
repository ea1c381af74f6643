"""Everyday controls through the real command line: --select/--ignore by rule id or prefix,
-q, `scan -` for a manifest stream on standard input, and `rules --format json`."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from conftest import ROOT
from gpulint.cli import cli

EXAMPLES = os.path.join(ROOT, "examples")


def _scan(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["scan", "--no-cache", "--no-color", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def _rules(report: str) -> list[str]:
    return [f["rule"] for f in json.loads(report)["findings"]]


def test_select_and_ignore_take_ids_and_prefixes() -> None:
    _, out, _ = _scan(EXAMPLES, "--format", "json")
    everything = _rules(out)
    assert len(set(everything)) == 5
    _, out, _ = _scan(EXAMPLES, "--format", "json", "--select", "gpu-training,gpu-missing")
    assert set(_rules(out)) == {"gpu-training-on-demand", "gpu-missing-cost-tags"}
    report = json.loads(out)
    # The totals still cover every resource; the saving only what is reported.
    assert report["summary"]["gpu_resources"] == 7
    assert report["summary"]["findings"]["warning"] == 5
    _, out, _ = _scan(EXAMPLES, "--format", "json", "--ignore", "gpu-oversized-for-model",
                      "--ignore", "gpu-notebook")
    assert sorted(_rules(out)) == sorted(r for r in everything if r not in (
        "gpu-oversized-for-model", "gpu-notebook-without-shutdown"))
    code, _, _ = _scan(EXAMPLES, "--select", "ALL", "--ignore", "gpu")
    assert code == 0  # nothing reported, nothing fails


def test_a_selector_that_matches_no_rule_is_a_usage_error() -> None:
    code, out, err = _scan(EXAMPLES, "--ignore", "gpu-trainig-on-demand")
    assert code == 2 and out == ""
    assert ("--ignore gpu-trainig-on-demand: no rule id is or starts with "
            "'gpu-trainig-on-demand' (did you mean 'gpu-training-on-demand'?)") in err


def test_select_and_ignore_in_the_configuration_and_flags_replacing_them(tmp_path: Path) -> None:
    config = tmp_path / ".gpulint.yaml"
    config.write_text("fail_on: warning\nignore:\n  - gpu-missing-cost-tags\n  - gpu-notebook\n")
    _, out, _ = _scan(EXAMPLES, "--format", "json", "--config", str(config))
    _, everything, _ = _scan(EXAMPLES, "--format", "json")
    assert sorted(_rules(out)) == sorted(r for r in _rules(everything) if r not in (
        "gpu-missing-cost-tags", "gpu-notebook-without-shutdown"))
    # --ignore replaces the file's list rather than adding to it.
    _, out, _ = _scan(EXAMPLES, "--format", "json", "--config", str(config), "--ignore",
                      "gpu-oversized-for-model")
    assert "gpu-missing-cost-tags" in _rules(out) and "gpu-oversized-for-model" not in _rules(out)
    config.write_text("select: [gpu-training]\n")
    _, out, _ = _scan(EXAMPLES, "--format", "json", "--config", str(config))
    assert set(_rules(out)) == {"gpu-training-on-demand"}


def test_a_configured_selector_that_matches_no_rule_names_its_line(tmp_path: Path) -> None:
    config = tmp_path / ".gpulint.yaml"
    config.write_text("fail_on: warning\nignore:\n  - gpu-notebook\n  - gpu-mising-cost-tags\n")
    code, out, err = _scan(EXAMPLES, "--config", str(config))
    assert code == 2 and out == ""
    assert (".gpulint.yaml:4: ignore[1]: no rule id is or starts with 'gpu-mising-cost-tags' "
            "(did you mean 'gpu-missing-cost-tags'?)") in err


def test_quiet_prints_the_findings_only() -> None:
    code, out, err = _scan(EXAMPLES, "-q")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("examples/") or lines[0].startswith(ROOT)
    assert not any(line.startswith(("Could not evaluate", "Prices:", "0 errors")) for line in lines)
    assert sum(1 for line in lines if not line.startswith(" ")) == 10


# What `helm template` writes: documents headed by `# Source:` comments.
STREAM = """---
# Source: llm/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat
  namespace: llm
  labels: {team: ml, project: chat, env: prod}
spec:
  replicas: 1
  selector:
    matchLabels: {app: chat}
  template:
    metadata:
      labels: {app: chat}
    spec:
      nodeSelector:
        node.kubernetes.io/instance-type: g5.xlarge
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.3
          resources:
            limits:
              nvidia.com/gpu: 1
---
# Source: llm/templates/job.yaml
apiVersion: batch/v1
kind: Job
metadata:
  name: finetune
  namespace: llm
  labels: {team: ml, project: chat, env: prod}
spec:
  template:
    spec:
      restartPolicy: Never
      nodeSelector:
        node.kubernetes.io/instance-type: g5.12xlarge
      containers:
        - name: train
          image: ghcr.io/acme/train:1.0
          resources:
            limits:
              nvidia.com/gpu: 4
"""


def test_scan_reads_a_manifest_stream_from_stdin() -> None:
    code, out, _ = _scan("-", "--format", "json", stdin=STREAM)
    report = json.loads(out)
    assert code == 1 and report["summary"]["gpu_resources"] == 2
    assert {r["path"] for r in report["resources"]} == {"<stdin>"}
    job = next(f for f in report["findings"] if f["rule"] == "gpu-training-on-demand")
    assert job["path"] == "<stdin>" and job["line"] == 27 and job["address"] == "Job/llm/finetune"
    code, out, _ = _scan("-", stdin=STREAM)
    assert out.startswith("<stdin>:27: warning gpu-training-on-demand Job/llm/finetune:")
    code, _, err = _scan("-", EXAMPLES, stdin=STREAM)
    assert code == 2 and "cannot be combined with other paths" in err


def test_rules_as_json() -> None:
    result = CliRunner().invoke(cli, ["rules", "--format", "json"])
    assert result.exit_code == 0
    listed = json.loads(result.stdout)
    ids = [r["id"] for r in listed]
    shipped = os.listdir(os.path.join(ROOT, "rules"))
    assert ids == sorted(n[:-5] for n in shipped if n.endswith(".yaml"))
    oversized = next(r for r in listed if r["id"] == "gpu-oversized-for-model")
    assert oversized["enabled"] is True and oversized["severity"] == "warning"
    assert oversized["options"] == {"min_saving_fraction": 0.25}
    assert oversized["applies_to"] == ["terraform", "kubernetes"]
    assert set(oversized["docs"]) == {"why", "bad", "good"}
