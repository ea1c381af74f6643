"""Property: any nesting of Terraform functions and operators over hostile values (huge and
non-finite numbers, long strings, catastrophic patterns) evaluates to a value or an Unknown,
within gpulint's bounds: never an exception, never a value past the size limits."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpulint.model import Unknown
from gpulint.terraform import bounds
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.parser import parse_expression
from gpulint.terraform.syntax import HclSyntaxError

pytestmark = pytest.mark.slow

ATOMS = ['"x"', '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"', '"(a|aa)+$"', '"/(a|aa)+$/"', '"("',
         '"%.999999999f"', '"%s%s"', "1e999", "-1e999", "0", "3", "99999999999999999999",
         '"2020-13-45"', "[1, 2, 3]", '{a = "b"}', "range(100000)", "local.big", "local.list",
         "local.n"]
CALLS = ["join(\"\", [{0}, {1}])", "format(\"%s%s\", {0}, {1})", "replace({0}, \"a\", {1})",
         "replace({0}, {1}, \"xx\")", "concat([{0}], [{1}])", "regex({1}, {0})",
         "try({0}, {1})", "can({0})", "{0} * {1}", "{0} / {1}", "{0} + {1}", "{0} % {1}",
         "tonumber({0})", "tostring({0})", "ceil({0})", "floor({0})", "max({0}, {1})",
         "jsonencode([{0}, {1}])", "flatten([{0}, [{1}]])", "distinct([{0}, {1}])",
         "length({0})", "upper({0})", "split({1}, {0})", "substr({0}, 0, {1})",
         "element({0}, {1})", "[for x in {0} : {1}]", "{0} == {1} ? {0} : {1}",
         "format({0}, {1})", "formatlist({0}, [{1}])", "sum([{0}, {1}])", "abs({0})",
         "\"${{{0}}}${{{1}}}\"", "lookup({{a = {0}}}, \"a\", {1})", "toset([{0}, {1}])"]


@st.composite
def expressions(draw: st.DrawFn, depth: int = 0) -> str:
    if depth >= 4 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(ATOMS))
    template = draw(st.sampled_from(CALLS))
    return template.format(draw(expressions(depth + 1)), draw(expressions(depth + 1)))


def _scope() -> Scope:
    big = "x" * (bounds.MAX_STRING // 2)
    return Scope({"local": {"big": big, "list": list(range(50_000)), "n": 10 ** 3000}})


def _within_bounds(value: Any) -> bool:
    if isinstance(value, Unknown):
        return True
    return bounds.check(value) is value or isinstance(value, bool)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_hostile_expressions_evaluate_within_bounds(text: str) -> None:
    try:
        expr = parse_expression(text)
    except HclSyntaxError:
        return
    start = time.process_time()
    value = evaluate(expr, _scope())
    assert time.process_time() - start < 10, text
    assert _within_bounds(value), (text, type(value))
