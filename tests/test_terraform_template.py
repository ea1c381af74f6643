"""Template directives (`%{ if }`, `%{ for }`, strip markers) in quoted strings, heredocs and
templatefile() templates, evaluated as Terraform renders them, and bounded."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpulint.model import Unknown
from gpulint.terraform import bounds
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.files import FileAccess
from gpulint.terraform.parser import parse_hcl

VARS = {"on": True, "off": False, "types": ["g5.xlarge", "g6.xlarge"],
        "pools": {"l4": "g6.xlarge", "a10g": "g5.xlarge"}, "n": 2}


@pytest.fixture(autouse=True)
def _fresh_scan_budget() -> Iterator[None]:
    """The hostile loops below spend much of a scan's work budget: not the next test's."""
    bounds.new_scan()
    yield
    bounds.new_scan()


def _value(hcl: str, **names: object) -> object:
    return evaluate(parse_hcl(f"x = {hcl}\n").attributes["x"].expr, Scope({**VARS, **names}))


def test_if_else_in_a_quoted_string() -> None:
    assert _value('"%{ if on }g5.xlarge%{ else }m6i.large%{ endif }"') == "g5.xlarge"
    assert _value('"%{ if off }g5.xlarge%{ else }m6i.large%{ endif }"') == "m6i.large"
    assert _value('"gpu=%{ if off }yes%{ endif }"') == "gpu="
    assert _value('"%{ if n > 1 }${n} GPUs%{ endif }"') == "2 GPUs"


def test_for_over_a_list_and_over_a_map() -> None:
    assert _value('"%{ for t in types }${t},%{ endfor }"') == "g5.xlarge,g6.xlarge,"
    assert _value('"%{ for i, t in types }${i}=${t} %{ endfor }"') == "0=g5.xlarge 1=g6.xlarge "
    # A map is iterated in the lexical order of its keys, as Terraform does.
    assert _value('"%{ for k, v in pools }${k}:${v};%{ endfor }"') == \
        "a10g:g5.xlarge;l4:g6.xlarge;"
    assert _value('"%{ for t in [] }${t}%{ endfor }"') == ""


def test_nested_directives_and_escapes() -> None:
    assert _value('"%{ for t in types }%{ if t != \\"g5.xlarge\\" }${t}%{ endif }%{ endfor }"') \
        == "g6.xlarge"
    assert _value('"%%{ if on } $${x}"') == "%{ if on } ${x}"


HEREDOC = '''<<-EOT
    values:
    %{ for t in types ~}
      - ${t}
    %{ endfor ~}
    %{ if on ~}
    gpu: true
    %{ else ~}
    gpu: false
    %{ endif ~}
    done: ${~ " yes" }
  EOT
'''


def test_heredoc_with_strip_markers_keeps_the_next_lines_indentation() -> None:
    # `~}` strips to the end of its own line only; `${~` the spaces before it on its line.
    assert _value(HEREDOC) == "values:\n  - g5.xlarge\n  - g6.xlarge\ngpu: true\ndone: yes\n"


def test_strip_markers_before_a_directive_take_the_end_of_the_last_line() -> None:
    # The indentation before `%{~ for` goes; the newline ending the body's last line too.
    assert _value('<<EOT\nnodes:\n  %{~ for t in types }\n- ${t}\n%{~ endfor }\nEOT\n') == \
        "nodes:\n\n- g5.xlarge\n- g6.xlarge\n"


def test_unknown_condition_or_collection_is_unknown_with_its_reason() -> None:
    scope = Scope({"var": {}}, parent=Scope(VARS))
    expr = parse_hcl('x = "%{ if var.gpu }a%{ endif }"\n').attributes["x"].expr
    value = evaluate(expr, scope)
    assert isinstance(value, Unknown) and "attribute 'gpu' not found" in value.reason
    value = _value('"%{ for t in unset }${t}%{ endfor }"', unset=Unknown("variable t unset"))
    assert isinstance(value, Unknown) and value.reason == "variable t unset"
    value = _value('"%{ for t in types }${u}%{ endfor }"', u=Unknown("u unset"))
    assert isinstance(value, Unknown) and value.reason == "u unset"


def test_unbalanced_directives_are_unknown_with_the_reason_not_a_crash() -> None:
    for text, why in [('"%{ if on }a"', "without its %{ endif }"),
                      ('"a%{ endfor }"', "%{ endfor } without its opening directive"),
                      ('"%{ for t in types }a%{ endif }"', "without"),
                      ("<<EOT\n%{ if on }\nEOT\n", "without its %{ endif }"),
                      ("<<EOT\n%{ while on }x\nEOT\n", "unknown template directive")]:
        value = _value(text)
        assert isinstance(value, Unknown) and why in value.reason, (text, value)


def test_templatefile_renders_directives(tmp_path: Path) -> None:
    (tmp_path / "pool.tftpl").write_text(
        "types:\n%{ for t in types ~}\n  - ${t}\n%{ endfor ~}\n"
        "%{ if spot ~}\ncapacity: spot\n%{ endif ~}\n")
    files = FileAccess((str(tmp_path),), lambda p: (Path(p).read_text(), None), str(tmp_path))
    expr = parse_hcl('x = templatefile("pool.tftpl", { types = ["g6.xlarge"], spot = true })\n')
    value = evaluate(expr.attributes["x"].expr, Scope({}, files=files))
    assert value == "types:\n  - g6.xlarge\ncapacity: spot\n"


@pytest.mark.slow
def test_a_huge_or_deeply_nested_loop_stays_bounded() -> None:
    start = time.process_time()
    # 1,000 × 1,000 iterations: past the for-iteration bound, not ten seconds of work.
    nested = _value('"%{ for a in range(1000) }%{ for b in range(1000) }x%{ endfor }'
                    '%{ endfor }"')
    assert isinstance(nested, Unknown) and "iterate more than" in nested.reason
    # 50,000 × 100 characters: stops once the text passes the string bound.
    wide = _value('"%{ for a in range(50000) }${s}%{ endfor }"', s="x" * 100)
    assert isinstance(wide, Unknown) and "string longer than" in wide.reason
    deep = _value('"' + "%{ if on }" * 150 + "x" + "%{ endif }" * 150 + '"')
    assert isinstance(deep, Unknown) and "nested more than 100" in deep.reason
    assert time.process_time() - start < 10


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=6),
       st.integers(min_value=0, max_value=5000))
def test_any_nest_of_loops_is_a_bounded_string_or_unknown(sizes: list[int], width: int) -> None:
    body = "${s}"
    for i, size in enumerate(sizes):
        body = f"%{{ for v{i} in range({size}) }}{body}%{{ endfor }}"
    bounds.new_scan()
    start = time.process_time()
    value = _value(f'"{body}"', s="y" * width)
    assert time.process_time() - start < 10
    total = width
    for size in sizes:
        total *= size
    outermost_first = sizes[::-1]  # the first size is the innermost loop
    iterations = sum(_prefix_product(outermost_first, k) for k in range(1, len(sizes) + 1))
    if isinstance(value, Unknown):
        assert total > 1_000_000 or iterations > 100_000, value.reason
    else:
        assert value == "y" * total


def _prefix_product(sizes: list[int], k: int) -> int:
    out = 1
    for size in sizes[:k]:
        out *= size
    return out


def test_directives_in_json_syntax_strings() -> None:
    from gpulint.terraform.parser import parse_tf_json

    root = parse_tf_json('{"locals": {"t": "%{ if true }g5.xlarge%{ else }m6i.large%{ endif }"}}')
    [locals_] = root.children("locals")
    assert evaluate(locals_.attributes["t"].expr, Scope({})) == "g5.xlarge"
