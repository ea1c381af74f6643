"""Parsers keep line numbers and turn bad input into diagnostics, never exceptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpulint.load.kubernetes import load_documents
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.parser import parse_hcl, parse_tf_json
from gpulint.terraform.syntax import HclSyntaxError

TF = '''# header comment
variable "x" {
  default = "p4d.24xlarge"
}

resource "aws_instance" "a" {
  instance_type = var.x
  tags = {
    team = "ml"
  }
  instance_market_options {
    market_type = "spot"
  }
}
'''


def test_terraform_block_and_attribute_lines() -> None:
    root = parse_hcl(TF)
    var, res = root.blocks
    assert (var.type, var.labels, var.line) == ("variable", ["x"], 2)
    assert (res.type, res.labels, res.line, res.end_line) == (
        "resource", ["aws_instance", "a"], 6, 14)
    assert res.attributes["instance_type"].line == 7
    assert res.children("instance_market_options")[0].line == 11


def test_crlf_and_bom_free_text_parse_the_same() -> None:
    assert parse_hcl(TF.replace("\n", "\r\n")).blocks[1].line == 6


@pytest.mark.parametrize("text,line", [
    ('resource "a" "b" {\n  x = \n}\n', 2),
    ('resource "a" "b" {\n  x = "unterminated\n}\n', 2),
    ('resource "a" "b" {\n  x = 1\n', None),
    ("}}}", 1),
])
def test_terraform_syntax_errors_carry_a_line(text: str, line: int | None) -> None:
    with pytest.raises(HclSyntaxError) as exc:
        parse_hcl(text)
    if line is not None:
        assert exc.value.line == line
    assert str(exc.value)


def test_tf_json_resources_and_templates() -> None:
    text = '{\n  "resource": {\n    "aws_instance": {\n      "gpu": {\n' \
           '        "instance_type": "${var.t}",\n        "tags": {"team": "ml"}\n' \
           '      }\n    }\n  }\n}\n'
    root = parse_tf_json(text)
    block = root.blocks[0]
    assert block.labels == ["aws_instance", "gpu"] and block.line == 4
    value = evaluate(block.attributes["instance_type"].expr, Scope({"var": {"t": "g5.xlarge"}}))
    assert value == "g5.xlarge"


def test_tf_json_invalid_reports_line() -> None:
    with pytest.raises(HclSyntaxError) as exc:
        parse_tf_json('{\n  "resource": {\n    oops\n}')
    assert exc.value.line == 3


YAML = """# leading comment
apiVersion: v1
kind: Pod
metadata:
  name: a
---
---
# a comment before the second object
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: b}
  - apiVersion: v1
    kind: Pod
    metadata: {name: c}
---
just: data
"""


def test_kubernetes_document_lines_and_lists() -> None:
    objs, diags = load_documents("x.yaml", YAML)
    assert not diags
    assert [(o.doc["metadata"]["name"], o.line) for o in objs] == [("a", 2), ("b", 12), ("c", 15)]


def test_kubernetes_parse_error_keeps_earlier_documents() -> None:
    objs, diags = load_documents("x.yaml", "apiVersion: v1\nkind: Pod\n---\nkey: [unclosed\n")
    assert len(objs) == 1
    assert diags and diags[0].line == 5 and "YAML parse error" in diags[0].message


def test_kubernetes_empty_and_lone_separator() -> None:
    for text in ("", "---\n", "---\n---\n", "# only a comment\n"):
        objs, diags = load_documents("x.yaml", text)
        assert objs == [] and diags == []


# The same resources in native and JSON syntax: nested blocks the Terraform layer has no
# schema for (market options, tag specifications, accelerators, scheduling) read the same.
_SAME_IN_JSON = {
    "main.tf": '''
resource "aws_launch_template" "trainer" {
  instance_type = "p4d.24xlarge"
  instance_market_options {
    market_type = "spot"
  }
  tag_specifications {
    resource_type = "instance"
    tags          = { team = "research", Name = "llm-finetune" }
  }
}

resource "aws_autoscaling_group" "trainer" {
  min_size         = 0
  max_size         = 4
  desired_capacity = 2
  launch_template {
    id = aws_launch_template.trainer.id
  }
}

resource "google_compute_instance" "notebook" {
  name         = "notebook"
  zone         = "us-central1-a"
  machine_type = "n1-standard-8"
  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 2
  }
  scheduling {
    preemptible       = true
    automatic_restart = false
  }
}
''',
    "main.tf.json": '''{
  "resource": {
    "aws_launch_template": {
      "trainer": {
        "instance_type": "p4d.24xlarge",
        "instance_market_options": {"market_type": "spot"},
        "tag_specifications": [
          {"resource_type": "instance",
           "tags": {"team": "research", "Name": "llm-finetune"}}
        ]
      }
    },
    "aws_autoscaling_group": {
      "trainer": {
        "min_size": 0,
        "max_size": 4,
        "desired_capacity": 2,
        "launch_template": {"id": "${aws_launch_template.trainer.id}"}
      }
    },
    "google_compute_instance": {
      "notebook": {
        "name": "notebook",
        "zone": "us-central1-a",
        "machine_type": "n1-standard-8",
        "guest_accelerator": [{"type": "nvidia-tesla-t4", "count": 2}],
        "scheduling": {"preemptible": true, "automatic_restart": false}
      }
    }
  }
}
''',
}


def test_tf_json_nested_blocks_read_like_hcl(tmp_path: Path) -> None:
    from gpulint import pipeline

    found = {}
    for name, text in _SAME_IN_JSON.items():
        folder = tmp_path / name.replace(".", "_")
        folder.mkdir()
        (folder / name).write_text(text, encoding="utf-8")
        result = pipeline.run([str(folder)], [])
        assert not result.diagnostics
        found[name] = {r.address: {k: v for k, v in r.facts.items() if not k.startswith("cost")}
                       for r in result.resources}
    assert sorted(found["main.tf"]) == ["aws_autoscaling_group.trainer",
                                        "google_compute_instance.notebook"]
    assert found["main.tf"]["aws_autoscaling_group.trainer"]["capacity"] == "spot"
    assert found["main.tf.json"] == found["main.tf"]
