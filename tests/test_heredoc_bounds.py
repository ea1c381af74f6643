"""Heredocs of blank lines parse in linear time (issue 30): python-hcl2's heredoc terminal
ends in `\\s*MARKER` after a lazy body, which ran over every following blank line at each line
(80 KB of blank lines and a word: 34 s; 0.5 MB unterminated: no end)."""

from __future__ import annotations

import time

import pytest

from gpulint.terraform.parser import parse_hcl
from gpulint.terraform.syntax import HclSyntaxError, Literal


def _parse_within(text: str, seconds: float) -> object:
    start = time.monotonic()
    try:
        return parse_hcl(text)
    finally:
        assert time.monotonic() - start < seconds


@pytest.mark.parametrize("blank", ["\n", "   \n", "\t \r\n"])
def test_long_run_of_blank_lines_in_a_heredoc_is_linear_and_kept(blank: str) -> None:
    body = blank * (80_000 // len(blank)) + "word\n"
    root = _parse_within(f"locals {{\n  x = <<EOT\n{body}EOT\n  y = 1\n}}\n", 10)
    x = root.blocks[0].attributes["x"].expr  # type: ignore[attr-defined]
    assert isinstance(x, Literal) and x.value == body


def test_indented_heredoc_of_blank_lines_keeps_its_text() -> None:
    body = "\n" * 5_000 + "    a\n      b\n"
    root = _parse_within(f"locals {{\n  x = <<-EOT\n{body}  EOT\n}}\n", 10)
    x = root.blocks[0].attributes["x"].expr  # type: ignore[attr-defined]
    assert isinstance(x, Literal) and x.value == "\n" * 5_000 + "a\n  b\n"


def test_unterminated_heredoc_is_a_syntax_error_at_its_line() -> None:
    with pytest.raises(HclSyntaxError) as e:
        _parse_within('resource "a" "b" {\n}\nlocals {\n  x = <<EOT\n' + "\n" * 500_000, 10)
    assert e.value.line == 4 and "never closed" in str(e.value)


def test_heredoc_marker_in_a_comment_is_not_an_opener() -> None:
    root = parse_hcl('# cat <<EOF\n// <<EOT\nlocals {\n  x = "a <<EOT"\n}\n')
    assert root.blocks[0].attributes["x"].expr.value == "a <<EOT"  # type: ignore[attr-defined]
