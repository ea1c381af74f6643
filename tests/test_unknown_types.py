"""Pools of unknown machine type that nothing else marks as GPU pools are one grouped
"could not evaluate" cause with its fix, never a line each in the GPU table."""

from __future__ import annotations

import os
from typing import Any

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.report.build import build
from gpulint.reporters import text

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "terraform", "unknown_types")


def test_unknown_pools_are_one_cause_with_its_fix() -> None:
    result = pipeline.run([os.path.relpath(FIXTURE)], [], Settings())
    addresses = {r.address for r in result.resources}
    assert not [a for a in addresses if a.startswith("google_container_node_pool.general")]
    assert addresses == {"google_container_node_pool.named",
                         "google_container_node_pool.with_accelerator",
                         "google_container_node_pool.tainted",
                         "google_container_node_pool.either"}
    [pools] = [n for n in result.module_notes if "node pools of unknown" in n.reason]
    assert {m[0] for m in pools.members} == {f'google_container_node_pool.general["{k}"]'
                                             for k in ("batch", "default", "web")}
    out = text.render(build(result, 730.0))
    line = next(ln for ln in out.splitlines() if "3 node pools of unknown machine type" in ln)
    assert line.lstrip().startswith("1×")  # one cause, not a line per pool
    assert "--var machine_type=VALUE" in out


def test_a_var_file_that_sets_the_type_is_the_fix(tmp_path: Any) -> None:
    root = tmp_path
    (root / "main.tf").write_text(
        'variable "machine_type" {}\n'
        'resource "google_container_node_pool" "p" {\n  for_each = toset(["a", "b"])\n'
        '  name = each.key\n  cluster = "c"\n  location = "us-central1"\n'
        '  node_config {\n    machine_type = var.machine_type\n  }\n}\n')
    (root / "prod.tfvars").write_text('machine_type = "n2-standard-8"\n')
    result = pipeline.run([str(root)], [], Settings())
    assert result.resources == []
    [note] = result.module_notes
    assert note.reason.startswith("2 node pools of unknown machine type")
    out = text.render(build(result, 730.0))
    assert "fix: pass --var-file" in out and "prod.tfvars" in out
