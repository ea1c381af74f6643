"""Repository shapes that made a scan hang or lose resources: module cycles and fan-out,
a heredoc over a long run of spaces, .tf.json with 60,000 blocks, 100,000 suppression comments.
Each scan runs in a child process under CPU and memory limits, with a time bound."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

import pytest

import bounded
from gpulint import globs
from gpulint.files import containment

pytestmark = pytest.mark.slow

HERE = os.path.dirname(os.path.abspath(__file__))
CYCLES = os.path.join(HERE, "hostile", "module-cycles")


def scan(*args: str, cwd: str | None = None, seconds: float = 30) -> dict[str, Any]:
    run = bounded.gpulint("scan", "--no-cache", "--jobs", "1", "--format", "json",
                          "--fail-on", "never", *args, cwd=cwd, cpu_seconds=120)
    assert run.code == 0, run.stderr
    assert run.seconds < seconds, run.seconds
    assert run.peak_mib < 512, run.peak_mib
    report: dict[str, Any] = json.loads(run.stdout)
    return report


def diags(report: dict[str, Any]) -> list[tuple[str, int | None, str]]:
    return [(d["path"], d["line"], d["message"]) for d in report["diagnostics"]]


def test_module_cycles_self_calls_and_duplicates_are_diagnostics_with_resources_kept() -> None:
    report = scan(".", cwd=CYCLES)
    # Report paths are relative to the repository root: gpulint's checkout, when it is one.
    top = os.path.relpath(CYCLES, containment.report_root([CYCLES])).replace(os.sep, "/")
    at = "" if top == "." else top + "/"
    found = {r["address"]: (r["path"], r["line"]) for r in report["resources"]}
    assert found == {
        "module.gpu_pool.aws_instance.trainer": (f"{at}gpu-pool/main.tf", 6),
        "aws_instance.inference": (f"{at}self-contained/main.tf", 7),  # was dropped silently
        "aws_instance.batch": (f"{at}duplicate/pools.tf", 1),
        "module.gpu_nodes.aws_instance.node": (f"{at}shared-nodes/main.tf", 5),
    }
    assert sorted(diags(report)) == [
        (f"{at}duplicate/pools.tf", 7, 'duplicate module call "gpu_nodes": also declared at '
         "duplicate/main.tf:1 (Terraform refuses this directory); only the first is evaluated"),
        (f"{at}node-group/main.tf", 1, 'module "pool" calls a module above it (a cycle): not '
         "followed"),
        (f"{at}self-contained/main.tf", 3, 'module "inference" calls its own directory: not '
         "followed"),
    ]


def test_a_cycle_alone_is_still_scanned(tmp_path: Any) -> None:
    """Two directories calling each other and nothing else: neither is 'only a child'."""
    for name in ("gpu-pool", "node-group"):
        shutil.copytree(os.path.join(CYCLES, name), tmp_path / name)
    report = scan(".", cwd=str(tmp_path))
    assert [r["address"] for r in report["resources"]] == ["aws_instance.trainer"]
    assert [d[:2] for d in diags(report)] == [("node-group/main.tf", 1)]


def test_module_fan_out_without_resources_stops_at_the_instance_cap(tmp_path: Any) -> None:
    # 3^13 (1.6 million) module instances, none with a resource: hours before the cap.
    for i in range(14):
        d = tmp_path / f"m{i:02d}"
        d.mkdir()
        body = (f'module "next" {{\n  source = "../m{i + 1:02d}"\n  count  = 3\n}}\n'
                if i < 13 else 'variable "x" {\n  default = 1\n}\n')
        (d / "main.tf").write_text(body)
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / "main.tf").write_text(
        'resource "aws_instance" "gpu" {\n  instance_type = "g5.xlarge"\n}\n')
    report = scan(".", cwd=str(tmp_path))
    assert [r["address"] for r in report["resources"]] == ["aws_instance.gpu"]
    [(path, line, message)] = diags(report)
    assert message.startswith("stopped expanding modules at 20,000 module instances")
    assert line == 1 and path.endswith("main.tf")


def test_heredoc_over_a_long_run_of_spaces_parses_in_linear_time(tmp_path: Any) -> None:
    # Valid HCL: the old heredoc regex took ~13 s for 60,000 spaces and grew quadratically.
    (tmp_path / "main.tf").write_text(
        'resource "aws_instance" "gpu" {\n  instance_type = "g5.xlarge"\n  user_data = <<EOF\n'
        + " " * 400_000 + "\nEOF\n}\n")
    # 400 KB: above --max-hcl-size's default, raised so that the heredoc is parsed at all.
    report = scan("--max-hcl-size", "512", str(tmp_path), seconds=15)
    assert [(r["address"], r["line"]) for r in report["resources"]] == [("aws_instance.gpu", 1)]
    assert not report["diagnostics"]


def test_tf_json_line_numbers_in_linear_time(tmp_path: Any) -> None:
    n = 60_000  # under the 5 MiB limit; numbering them took minutes
    blocks = {f"r{i}": {"instance_type": "t3.micro"} for i in range(n)}
    blocks[f"r{n}"] = {"instance_type": "g5.xlarge"}
    doc = {"resource": {"aws_instance": blocks}}
    (tmp_path / "main.tf.json").write_text(json.dumps(doc, indent=1))
    # 3.2 MB: above --max-hcl-size's default, raised so that the file is read at all.
    report = scan("--max-hcl-size", "5120", str(tmp_path), seconds=30)
    # indent=1: "{", "resource", "aws_instance", then three lines per block
    assert [(r["address"], r["line"]) for r in report["resources"]] == \
        [(f"aws_instance.r{n}", 4 + 3 * n)]


def test_suppression_comments_in_linear_time(tmp_path: Any) -> None:
    lines = ['resource "aws_instance" "gpu" {', '  instance_type = "p4d.24xlarge"']
    lines += ["  # gpulint:ignore gpu-missing-cost-tags -- p"] * 100_000
    lines += ["}"]
    (tmp_path / "main.tf").write_text("\n".join(lines) + "\n")
    # 4.6 MB: above --max-hcl-size's default, raised so that the comments are read at all.
    report = scan("--max-hcl-size", "5120", str(tmp_path), seconds=30)  # was over 300 s
    assert [r["address"] for r in report["resources"]] == ["aws_instance.gpu"]
    assert "gpu-missing-cost-tags" not in {f["rule"] for f in report["findings"]}
    assert not report["diagnostics"]


@pytest.mark.parametrize(("pattern", "text", "expected"), [
    ("*a*a*a*a*a*a*a*a*a*a*b", "a" * 20_000, False),
    ("*a*a*a*a*a*a*a*a*a*a*a", "a" * 20_000, True),
    ("module.*.aws_instance.gpu[?]", "module.x.aws_instance.gpu[0]", True),
])
def test_wildcards_match_in_linear_time(pattern: str, text: str, expected: bool) -> None:
    import time

    start = time.process_time()
    assert globs.match(pattern, text) is expected
    assert time.process_time() - start < 0.5  # one .*a.*a… regex: hours for the first one



def test_string_pieces_are_joined_in_linear_time() -> None:
    # A string literal of 400,000 escape pieces (\n, $${, %%{): joining them one by one
    # copied the string so far each time (quadratic: 5 s for 100,000 pieces).
    import time

    from gpulint.terraform import template

    start = time.process_time()
    expr = template.build(["ab"] * 400_000)
    assert time.process_time() - start < 1
    assert getattr(expr, "value", None) == "ab" * 400_000
