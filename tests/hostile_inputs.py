"""Hostile inputs that cannot sit in the repository as they are (binary, huge, deep, symlinks,
unreadable, BOM + CRLF), written into a directory at test time next to tests/hostile/ copies.

Each case names the file and the diagnostic it must produce (None: it must scan cleanly).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

HOSTILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile")
HUGE_LIMIT_KIB = 1024  # the scan runs with --max-file-size of this many KiB


@dataclass(frozen=True)
class Case:
    path: str  # relative to the hostile root
    message: str | None  # a substring of the expected diagnostic
    line: int | None = None


# Committed files (tests/hostile/) and what each must yield.
COMMITTED = [
    Case("malformed.tf", "Terraform parse error", 3),
    Case("truncated.yaml", "YAML parse error"),
    Case("malformed.yaml", "YAML parse error", 5),
    Case("lone-separator.yaml", None),
    Case("empty.tf", None),
    Case("empty.yaml", None),
    Case("templated.yaml", "skipped a template", 4),
    Case("alias-bomb.yaml", "alias bomb", 2),
    Case("recursive-alias.yaml", "recursive structure"),
    Case("bad-plan.json", "invalid JSON"),
]

BOM = b"\xef\xbb\xbf"
GPU_TF = (b'# a GPU instance written on Windows\r\nresource "aws_instance" "win" {\r\n'
          b'  instance_type = "p4d.24xlarge"\r\n}\r\n')
GPU_POD = (b"# a GPU pod written on Windows\r\napiVersion: v1\r\nkind: Pod\r\nmetadata:\r\n"
           b"  name: win\r\nspec:\r\n  containers:\r\n  - name: c\r\n    image: x\r\n"
           b"    resources:\r\n      limits:\r\n        nvidia.com/gpu: 1\r\n")


def _deep_locals(n: int) -> bytes:
    """A chain of locals each naming the next: flat to parse, deep to evaluate."""
    lines = ["locals {", *(f"  l{i} = local.l{i + 1}" for i in range(n)), f'  l{n} = "g5.xlarge"',
             "}"]
    lines += ['resource "aws_instance" "chain" {', "  instance_type = local.l0", "}"]
    return ("\n".join(lines) + "\n").encode()


def dense_tf(size: int) -> str:
    """A native-syntax Terraform file of at least `size` bytes, dense as generated code is:
    thousands of resources each with an expression, a function call and a nested block, one
    GPU instance first (issue 30's 1.8 MB reproduction; benchmarks/bench_dense_tf.py)."""
    parts = ['variable "ami" {\n  type    = string\n  default = "ami-0abcdef1234567890"\n}\n'
             'locals {\n  sizes = ["t3.micro", "t3.small", "m5.large", "c5.xlarge"]\n'
             '  tags  = { team = "platform", env = "prod" }\n}\n'
             'resource "aws_instance" "trainer" {\n  ami           = var.ami\n'
             '  instance_type = "p4d.24xlarge"\n}\n']
    total, n = len(parts[0]), 0
    while total < size:
        block = (f'resource "aws_instance" "web_{n}" {{\n  ami           = var.ami\n'
                 f'  instance_type = local.sizes[{n % 4}]\n'
                 f'  tags          = merge(local.tags, {{ Name = "web-{n}", index = "{n}" }})\n'
                 f'  root_block_device {{\n    volume_size = {20 + n % 10}\n  }}\n}}\n')
        parts.append(block)
        total, n = total + len(block), n + 1
    return "".join(parts)


GENERATED: dict[str, tuple[bytes, Case]] = {
    "binary.tf": (bytes(range(256)) * 8, Case("binary.tf", "binary file")),
    "latin1.yaml": (b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n",
                    Case("latin1.yaml", "not UTF-8", 4)),
    "bom-crlf/main.tf": (BOM + GPU_TF, Case("bom-crlf/main.tf", None)),
    "bom-crlf.yaml": (BOM + GPU_POD, Case("bom-crlf.yaml", None)),
    "deep.tf": (b"locals {\n  x = " + b"[" * 3000 + b"1" + b"]" * 3000 + b"\n}\n",
                Case("deep.tf", "nesting too deep")),
    "deep.yaml": (b"apiVersion: v1\nkind: Pod\nspec: " + b"[" * 5000 + b"]" * 5000 + b"\n",
                  Case("deep.yaml", "nested deeper than")),
    "deep.json": (b'{"apiVersion": "v1", "kind": "Pod", "spec": ' + b"[" * 100_000
                  + b"]" * 100_000 + b"}", Case("deep.json", "nested too deeply")),
    "deep-locals/main.tf": (_deep_locals(3000),
                            Case("deep-locals/main.tf", "nested too deeply", 3004)),
    "long-line.yaml": (b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\ndata:\n  v: "
                       + b"x" * 1_000_000 + b"\n", Case("long-line.yaml", None)),
    "long-line.tf": (b'locals {\n  v = "' + b"y" * 100_000 + b'"\n}\n', Case("long-line.tf", None)),
    "huge.yaml": (b"# padding\n" * (HUGE_LIMIT_KIB * 1024 // 10 + 10),
                  Case("huge.yaml", "file larger than")),
}


def build(root: str) -> list[Case]:
    """Write every hostile input under `root`; return the cases that apply on this machine."""
    os.makedirs(root, exist_ok=True)
    cases = list(COMMITTED)
    for case in COMMITTED:
        shutil.copy(os.path.join(HOSTILE, case.path), os.path.join(root, case.path))
    for rel, (data, case) in GENERATED.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
        cases.append(case)
    loop = os.path.join(root, "loop")
    os.makedirs(loop)
    os.symlink("..", os.path.join(loop, "back"))
    cases.append(Case("loop/back", "symbolic link loop"))
    os.symlink("does-not-exist.tf", os.path.join(root, "dangling.tf"))
    cases.append(Case("dangling.tf", "cannot read file"))
    if hasattr(os, "mkfifo"):
        os.mkfifo(os.path.join(root, "pipe.yaml"))  # opening it for reading would block forever
        cases.append(Case("pipe.yaml", "not a regular file"))
    if hasattr(os, "geteuid") and os.geteuid() != 0:  # root reads anything: no case to test
        locked = os.path.join(root, "locked.tf")
        with open(locked, "w", encoding="utf-8") as fh:
            fh.write('resource "aws_instance" "x" {\n  instance_type = "p4d.24xlarge"\n}\n')
        os.chmod(locked, 0)
        cases.append(Case("locked.tf", "cannot read file"))
    return cases


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0
