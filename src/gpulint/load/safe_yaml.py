"""One YAML document from a file gpulint does not trust (configuration, rule files): nesting
checked before libyaml's composer recurses, alias bombs and recursive structures refused before
Python objects are built, and scalars that only look like dates or huge integers kept as text."""

from __future__ import annotations

from typing import Any

import yaml

from gpulint.load.kubernetes import (
    MAX_NESTING_DEPTH,
    _Loader,
    node_graph_problem,
    too_deep_line,
)


class YamlProblem(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def load_one(text: str) -> tuple[Any, Any]:
    """(value, node) of the single document in `text` ((None, None) when empty); YamlProblem
    with the line when it cannot be read safely."""
    deep = too_deep_line(text)
    if deep is not None:
        raise YamlProblem(f"nested deeper than {MAX_NESTING_DEPTH} levels", deep)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        problem = node_graph_problem(node, "&" in text)
        if problem:
            raise YamlProblem(problem, node.start_mark.line + 1)
        return loader.construct_document(node), node
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise YamlProblem(str(e.problem or e), mark.line + 1 if mark else None) from None
    except (yaml.YAMLError, ValueError, OverflowError) as e:
        raise YamlProblem(str(e), None) from None
    finally:
        loader.dispose()
