"""Time `gpulint cost` and `gpulint diff --base` on a generated repository.

    PYTHONPATH=src python benchmarks/bench_cost_diff.py [FILES] [RESOURCES_PER_FILE]

Builds a git repository of Terraform files with GPU instances, commits it, resizes every
tenth instance in the work tree, then runs each command in-process and prints wall times.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from click.testing import CliRunner

from gpulint.cli import cli

TYPES = ("g5.xlarge", "g5.2xlarge", "p4d.24xlarge", "g6e.xlarge", "p5.48xlarge")


def _files(n_files: int, per_file: int, resized: bool) -> dict[str, str]:
    out = {}
    for f in range(n_files):
        blocks = ['provider "aws" {\n  region = "us-east-1"\n}\n']
        for r in range(per_file):
            itype = TYPES[(f + r) % len(TYPES)]
            if resized and r % 10 == 0:
                itype = TYPES[(f + r + 1) % len(TYPES)]
            blocks.append(f'resource "aws_instance" "gpu_{r}" {{\n  instance_type = "{itype}"\n'
                          f'  tags = {{ team = "t{f % 7}" }}\n}}\n')
        out[os.path.join(f"stack{f}", "main.tf")] = "\n".join(blocks)
    return out


def _write(root: str, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)


def main() -> None:
    n_files = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    per_file = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as root:
        def git(*args: str) -> None:
            subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

        git("init", "-q")
        git("config", "user.email", "b@example.com")
        git("config", "user.name", "bench")
        _write(root, _files(n_files, per_file, resized=False))
        git("add", ".")
        git("commit", "-qm", "base")
        _write(root, _files(n_files, per_file, resized=True))
        os.chdir(root)
        runner = CliRunner()
        print(f"{n_files} files × {per_file} GPU instances = {n_files * per_file} resources")
        for name, args in (("cost", ["cost", ".", "--format", "json"]),
                           ("diff --base HEAD", ["diff", "--base", "HEAD", ".", "--format",
                                                 "json"])):
            start = time.perf_counter()
            result = runner.invoke(cli, args)
            elapsed = time.perf_counter() - start
            assert result.exit_code == 0, result.output
            print(f"  {name:<18} {elapsed:6.2f} s")


if __name__ == "__main__":
    main()
