"""Parsers keep line numbers and turn bad input into diagnostics, never exceptions."""

from __future__ import annotations

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
    assert (res.type, res.labels, res.line, res.end_line) == ("resource", ["aws_instance", "a"], 6, 14)
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
           '        "instance_type": "${var.t}",\n        "tags": {"team": "ml"}\n      }\n    }\n  }\n}\n'
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
