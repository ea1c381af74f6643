"""Parse Terraform text (HCL native syntax or JSON syntax) into our syntax tree."""

from __future__ import annotations

import json
import re
from typing import Any

from gpulint.files.json_input import load_json
from gpulint.terraform.lark_tree import body, parse_tree
from gpulint.terraform.syntax import (
    Attribute,
    Block,
    Expr,
    HclSyntaxError,
    Literal,
    ObjectExpr,
    TupleExpr,
)

# Top-level blocks and how many labels each has; everything else in a .tf.json is ignored.
_JSON_LABELS = {"resource": 2, "data": 2, "variable": 1, "module": 1, "output": 1,
                "provider": 1, "locals": 0, "terraform": 0}


def parse_hcl(text: str) -> Block:
    """Parse native-syntax HCL into a root Block. Raises HclSyntaxError with a line."""
    tree = parse_tree(text)
    try:
        return body(tree)
    except HclSyntaxError:
        raise
    except (IndexError, ValueError, KeyError, AttributeError):
        raise HclSyntaxError("unsupported HCL construct", None) from None


def parse_expression(text: str) -> Expr:
    """Parse one HCL expression (used for JSON-syntax templates and heredocs)."""
    root = parse_hcl(f"x = {text}\n")
    return root.attributes["x"].expr


# ---- JSON syntax (.tf.json) --------------------------------------------------------------

def _json_expr(value: Any) -> Expr:
    if isinstance(value, str):
        if "${" in value or "%{" in value:
            try:
                return parse_expression(json.dumps(value))
            except HclSyntaxError:
                return Literal(value)
        return Literal(value)
    if isinstance(value, list):
        return TupleExpr(tuple(_json_expr(v) for v in value))
    if isinstance(value, dict):
        return ObjectExpr(tuple((Literal(k), _json_expr(v)) for k, v in value.items()))
    return Literal(value)


class _Lines:
    """Best-effort lines of JSON keys (JSON parsers do not keep positions), found in document
    order: each search starts where the last one ended and newlines are counted only over the
    text in between, so 200,000 blocks take linear time (counting from the start each time
    took minutes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1

    def of(self, key: str) -> int:
        idx = self.text.find(json.dumps(key), self.pos)
        if idx < 0:
            return 1
        self.line += self.text.count("\n", self.pos, idx)
        self.pos = idx
        return self.line


def _json_block(type_: str, labels: list[str], content: Any, line: int) -> Block:
    block = Block(type_, labels, line, line)
    items = content if isinstance(content, list) else [content]
    for item in items:
        if not isinstance(item, dict):
            continue
        for key, value in item.items():
            # In JSON syntax a nested block is an object or a list of objects, as an attribute
            # holding a map may be; only the provider's schema tells them apart. So an object
            # is kept both ways: nested blocks for a reader asking for blocks, the attribute's
            # value for one asking for a value.
            block.attributes[key] = Attribute(key, _json_expr(value), line)
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, dict):
                    block.blocks.append(_json_block(key, [], v, line))
    return block


def parse_tf_json(text: str) -> Block:
    try:
        data = load_json(text)
    except json.JSONDecodeError as e:
        raise HclSyntaxError(f"invalid JSON: {e.msg}", e.lineno) from None
    if not isinstance(data, dict):
        raise HclSyntaxError("a .tf.json file must hold a JSON object", 1)
    root = Block("", [], 1, 0)
    lines = _Lines(text)
    for top, content in data.items():
        nlabels = _JSON_LABELS.get(top)
        if nlabels is None:
            continue
        if nlabels == 0:
            line = lines.of(top)
            root.blocks.append(_json_block(top, [], content, line))
            continue
        groups = content if isinstance(content, list) else [content]
        for group in groups:
            if not isinstance(group, dict):
                continue
            for first, inner in group.items():
                if nlabels == 1:
                    line = lines.of(first)
                    root.blocks.append(_json_block(top, [first], inner, line))
                    continue
                for inner_group in inner if isinstance(inner, list) else [inner]:
                    if not isinstance(inner_group, dict):
                        continue
                    for second, body_ in inner_group.items():
                        line = lines.of(second)
                        root.blocks.append(_json_block(top, [first, second], body_, line))
    return root


_TFVARS_LINE = re.compile(r"^\s*$")
