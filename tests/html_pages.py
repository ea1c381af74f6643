"""The HTML reports the structural and visual tests look at, and a parser that reads back
what a page says: its headline figures, chart tables, tags, attributes and text.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from click.testing import CliRunner

from gpulint.cli import cli
from html_fleet import write_fleet

ROOT = Path(__file__).resolve().parent.parent

# Strings a scanned repository controls (names, labels, file names), meant to break out of
# text, attributes, <style> and <script>, or to reverse the reading order.
HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_TEAM = "\"><img src=x onerror=alert(2)>'"
HOSTILE_PROJECT = "</style><svg onload=alert(3)>"
HOSTILE_NAMESPACE = "ops\u202etxt.exe"
HOSTILE_FILE = "x'\"><iframe src=https:evil.example>.yaml"


def run(args: list[str], cwd: Path) -> str:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, [*args, "--no-cache"], catch_exceptions=False)
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    return result.output


def scan_pair(tree: Path, *paths: str, cmd: str = "scan") -> tuple[str, dict]:
    """(HTML page, JSON report) of the same scan; `cost` gives the cost breakdown JSON."""
    extra = ["--fail-on", "never"] if cmd == "scan" else []
    page = run([cmd, *paths, "--format", "html", *extra], tree)
    data = json.loads(run([cmd, *paths, "--format", "json", *extra], tree))
    return page, data


def write_hostile(root: Path) -> None:
    """A Deployment and a Terraform VM whose names, labels and file name are hostile."""
    k8s = root / "k8s"
    k8s.mkdir(parents=True)
    (k8s / HOSTILE_FILE).write_text(f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: {json.dumps(HOSTILE_NAME)}
  namespace: {json.dumps(HOSTILE_NAMESPACE)}
  labels:
    team: {json.dumps(HOSTILE_TEAM)}
    project: {json.dumps(HOSTILE_PROJECT)}
spec:
  replicas: 1
  template:
    spec:
      nodeSelector:
        node.kubernetes.io/instance-type: g5.xlarge
      containers:
        - name: server
          image: vllm/vllm-openai:v0.6.3
          resources:
            limits:
              nvidia.com/gpu: 1
""", encoding="utf-8")
    tf = root / "terraform"
    tf.mkdir()
    (tf / "main.tf").write_text(f"""provider "aws" {{
  region = "us-east-1"
}}

resource "aws_instance" "trainer" {{
  ami           = "ami-0abcdef1234567890"
  instance_type = "g5.xlarge"
  tags = {{
    team     = {json.dumps(HOSTILE_PROJECT)}
    workload = "training"
  }}
}}
""", encoding="utf-8")


def write_pages(out: Path) -> dict[str, Path]:
    """Every page the tests read: examples (scan and cost), 500 resources, hostile, a diff."""
    pages: dict[str, Path] = {}
    out.mkdir(parents=True, exist_ok=True)
    pages["examples"] = out / "examples.html"
    pages["examples"].write_text(run(["cost", "examples", "--format", "html"], ROOT))
    fleet = out / "fleet"
    write_fleet(str(fleet))
    pages["fleet-500"] = out / "fleet-500.html"
    pages["fleet-500"].write_text(run(["cost", ".", "--format", "html"], fleet))
    hostile = out / "hostile"
    write_hostile(hostile)
    pages["hostile"] = out / "hostile.html"
    pages["hostile"].write_text(run(["scan", ".", "--format", "html", "--fail-on", "never"],
                                    hostile))
    pages["diff"] = out / "diff.html"
    pages["diff"].write_text(diff_page(out / "diff-tree")[0])
    return pages


def diff_page(tree: Path) -> tuple[str, dict]:
    """A fleet of 40, then a change: one VM resized, one added, one Deployment removed."""
    write_fleet(str(tree), 40)
    base = tree.parent / "base.json"
    base.write_text(run(["scan", ".", "--format", "json", "--fail-on", "never"], tree))
    main = tree / "terraform" / "search" / "aws" / "main.tf"
    text = main.read_text(encoding="utf-8").replace('"p4d.24xlarge"', '"p5.48xlarge"', 1)
    main.write_text(text + '\nresource "aws_instance" "added" {\n  instance_type = "g5.xlarge"'
                    '\n  tags = { team = "search" }\n}\n', encoding="utf-8")
    next(iter((tree / "k8s").glob("*/llm-0/deployment.yaml"))).unlink()
    args = ["diff", ".", "--compare-to", str(base), "--base", "main"]
    page = run([*args, "--format", "html"], tree)
    return page, json.loads(run([*args, "--format", "json"], tree))


@dataclass
class Page(HTMLParser):
    """What a page holds: its tags with attributes, its text, and the <data> values by the
    id of the nearest enclosing element that has one."""

    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    values: dict[str, list[float]] = field(default_factory=dict)
    rows: dict[str, list[list[str]]] = field(default_factory=dict)
    _ids: list[str | None] = field(default_factory=list)
    _cell: list[str] | None = None

    def __post_init__(self) -> None:
        HTMLParser.__init__(self, convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag in ("section", "figure", "div", "table", "details", "p"):
            self._ids.append(a.get("id"))
        scope = next((i for i in reversed(self._ids) if i), "")
        if tag == "data":
            self.values.setdefault(scope, []).append(float(a["value"] or "nan"))
        elif tag == "tr":
            self.rows.setdefault(scope, []).append([])
        elif tag == "td":
            self.rows[scope][-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("section", "figure", "div", "table", "details", "p") and self._ids:
            self._ids.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        scope = next((i for i in reversed(self._ids) if i), "")
        cells = self.rows.get(scope)
        if cells and cells[-1]:
            cells[-1][-1] += data


def parse(page: str) -> Page:
    p = Page()
    p.feed(page)
    p.close()
    return p
