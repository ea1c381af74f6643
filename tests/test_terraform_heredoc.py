"""Heredocs whose interpolations hold quoted strings, and the line of a syntax error in one."""

from __future__ import annotations

import pytest

from gpulint.terraform import heredoc
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.parser import parse_hcl
from gpulint.terraform.syntax import HclSyntaxError


def _value(text: str, **names: object) -> object:
    return evaluate(parse_hcl(text).attributes["x"].expr, Scope(dict(names)))


def test_nested_quotes_in_a_heredoc_interpolation() -> None:
    text = 'x = <<EOT\nNODES=${join(",", [for n in l : "\\"${n}\\""])}\nEOT\n'
    assert _value(text, l=["a", "b"]) == 'NODES="a","b"\n'


def test_escapes_and_literal_text_are_kept() -> None:
    text = 'x = <<-EOT\n  a $${literal} "q" \\n ${v}\n  EOT\n'
    assert _value(text, v="V") == 'a ${literal} "q" \\n V\n'


def test_a_syntax_error_in_an_interpolation_has_its_line() -> None:
    text = 'locals {\n  a = 1\n}\n\nx = <<EOT\nfirst\nsecond ${join(",", [)}\nEOT\n'
    with pytest.raises(HclSyntaxError) as err:
        parse_hcl(text)
    assert err.value.line == 7


def test_deep_nesting_is_refused_not_recursed() -> None:
    deep = "${" + '"${' * 500 + "x" + '}"' * 500 + "}"
    reason, line = heredoc.split(deep)
    assert "nested too deeply" in reason and line == 0
