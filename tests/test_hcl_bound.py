"""The size bound on Terraform files (--max-hcl-size, load/hcl_bound.py): issue 30's dense
1.8 MB `.tf` ends in a diagnostic at its first line, its GPU resource is "could not evaluate",
and the rest of the scan is reported. Timing is measured in benchmarks/bench_dense_tf.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner

import hostile_inputs
from gpulint.cli import cli
from gpulint.files.text import DEFAULT_MAX_HCL_BYTES
from gpulint.load import hcl_bound, parallel, source
from gpulint.load.cache import ParseCache
from gpulint.model import SourceFile

GPU_TF = 'resource "aws_instance" "train" {\n  instance_type = "p4d.24xlarge"\n}\n'


def scan(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["scan", "--format", "json", "--fail-on", "never",
                                      "--no-cache", *args])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_dense_tf_is_refused_with_a_diagnostic_and_the_rest_is_reported(tmp_path: Path) -> None:
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "main.tf").write_text(hostile_inputs.dense_tf(1_800_000))
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / "main.tf").write_text(GPU_TF)
    alone = scan(str(tmp_path / "gpu"))
    assert alone["findings"]  # an on-demand p4d.24xlarge draws findings of its own

    report = scan(str(tmp_path))
    big = str(tmp_path / "big" / "main.tf")
    diags = [d for d in report["diagnostics"] if d["path"].endswith("big/main.tf")]
    assert [(d["line"], d["severity"]) for d in diags] == [(1, "warning")]
    assert "larger than 256 KiB" in diags[0]["message"]
    assert "--max-hcl-size" in diags[0]["message"]
    # The file's GPU instance is named, with the line of its evidence and the way out.
    notes = [n for n in report["not_evaluated"] if n["path"].endswith("big/main.tf")]
    assert [(n["address"], n["line"]) for n in notes] == [("aws_instance.trainer", 11)]
    assert "--max-hcl-size" in notes[0]["reason"]
    assert os.path.getsize(big) > DEFAULT_MAX_HCL_BYTES
    # The other directory's findings are all there.
    assert [(f["rule"], f["address"]) for f in report["findings"]] == \
        [(f["rule"], f["address"]) for f in alone["findings"]]


def test_the_bound_is_raised_with_the_flag(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(hostile_inputs.dense_tf(3_000))
    refused = scan("--max-hcl-size", "1", str(tmp_path))
    assert any("larger than 1 KiB" in d["message"] for d in refused["diagnostics"])
    assert [n["address"] for n in refused["not_evaluated"]] == ["aws_instance.trainer"]
    parsed = scan(str(tmp_path))
    assert parsed["diagnostics"] == []
    assert [r["address"] for r in parsed["resources"]] == ["aws_instance.trainer"]


def test_tf_json_is_bounded_too(tmp_path: Path) -> None:
    blocks = {f"r{i}": {"instance_type": "t3.micro"} for i in range(100)}
    blocks["gpu"] = {"instance_type": "g5.xlarge"}
    (tmp_path / "main.tf.json").write_text(json.dumps({"resource": {"aws_instance": blocks}}))
    report = scan("--max-hcl-size", "1", str(tmp_path))
    assert any("--max-hcl-size" in d["message"] and d["line"] == 1
               for d in report["diagnostics"])
    # JSON keys are not block headers: the file itself is the address.
    assert [n["address"] for n in report["not_evaluated"]] == ["main.tf.json"]


def test_a_refusal_is_not_cached(tmp_path: Path) -> None:
    path = tmp_path / "main.tf"
    path.write_text(hostile_inputs.dense_tf(3_000))
    cache = ParseCache(str(tmp_path / "cache"))
    files = [SourceFile(str(path), "terraform")]
    first = parallel.parse_files(files, 1 << 20, 1, cache, max_hcl_bytes=1024)[0]
    assert first.parsed is not None and first.parsed.root is None and first.notes
    again = parallel.parse_files(files, 1 << 20, 1, ParseCache(str(tmp_path / "cache")))[0]
    assert again.parsed is not None and again.parsed.root is not None and not again.notes


def test_notes_name_each_block_with_evidence_once() -> None:
    text = ('data "aws_ec2_instance_type" "train" {\n  instance_type = "g5.xlarge"\n}\n'
            'module "nodes" {\n  source = "./nodes"\n  gpu_count = 2\n  accelerator = "a"\n}\n'
            'resource "aws_instance" "cpu" {\n  instance_type = "t3.micro"\n}\n'
            'locals {\n  family = "p5.48xlarge"\n}\n')
    notes = hcl_bound.notes("dir/main.tf", text, 1024)
    assert [(n.address, n.line) for n in notes] == [
        ("data.aws_ec2_instance_type.train", 2), ("module.nodes", 6), ("locals", 13)]
    assert notes[0].reason.startswith('instance_type = "g5.xlarge": ')


def test_notes_are_bounded_per_file() -> None:
    text = "".join(f'resource "aws_instance" "g{i}" {{\n  instance_type = "g5.xlarge"\n}}\n'
                   for i in range(hcl_bound.MAX_NOTES_PER_FILE + 7))
    notes = hcl_bound.notes("main.tf", text, 1024)
    assert len(notes) == hcl_bound.MAX_NOTES_PER_FILE + 1
    assert notes[-1].address == "main.tf"
    assert notes[-1].reason.startswith("7 more blocks: ")


def test_files_under_the_bound_and_other_kinds_are_parsed() -> None:
    assert hcl_bound.refused("terraform", DEFAULT_MAX_HCL_BYTES, DEFAULT_MAX_HCL_BYTES) is None
    assert hcl_bound.refused("kubernetes", 10 * DEFAULT_MAX_HCL_BYTES,
                             DEFAULT_MAX_HCL_BYTES) is None
    refused = hcl_bound.refused("terraform-json", DEFAULT_MAX_HCL_BYTES + 1,
                                DEFAULT_MAX_HCL_BYTES)
    assert refused is not None and refused.transient


def test_nesting_beyond_the_parse_is_refused_before_parsing() -> None:
    # The mutation run's 0765-nesting case: 30,000 levels in 180 KB took 7.5 s of CPU to parse,
    # only to fail converting the tree; counted first, it fails at once, at the line.
    deep = "locals {\n  x = " + "{a = " * 30_000 + "1" + "}" * 30_000 + "\n}\n"
    parsed = source.parse("terraform", deep.encode())
    assert parsed.diags == [(2, "nesting too deep to parse, skipped", "error")]
    assert source.too_deep_line(deep) == 2
    # Depths the parse handles are parsed, brackets in strings included.
    fine = ('locals {\n  x = ' + "(" * 300 + "1" + ")" * 300 + '\n  s = "' + "{" * 500 + '"\n}\n')
    assert source.too_deep_line(fine) is None
    # Brackets inside a quoted string are text, however deep (yamldecode's input, say).
    assert source.too_deep_line('x = "' + "[" * 40_000 + "]" * 40_000 + '"\n') is None
    assert source.parse("terraform", fine.encode()).root is not None
