"""What is written from the fact registry: the Facts TypedDict (gpulint/fact_types.py), the rule
schema's fact enum and the reference table of docs/facts.md.

`python -m gpulint.facts.registry` writes all three; tests fail when one is stale. The registry
hands its lists in (this module imports it only for types), so the two do not import each other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpulint.facts.registry import Fact


@dataclass(frozen=True)
class Lists:
    """What the registry lists: the facts, the stages that set them, the short placeholders."""

    facts: Sequence[Fact]
    stages: Mapping[str, str]
    aliases: Mapping[str, tuple[str, ...]]
    placeholder_name: Callable[[str], str]


DOCS_BEGIN = "<!-- fact reference: generated from gpulint/facts/registry.py -->"
DOCS_END = "<!-- end of fact reference -->"
FACT_TYPES = "src/gpulint/fact_types.py"

_FACT_TYPES_HEAD = '''"""The type of Resource.facts, and Resource over it.

Generated from gpulint/facts/registry.py by `python -m gpulint.facts.registry`: edit the
registry, not this file. On the ground floor because pricing, below the registry, writes facts
too, and model.py imports nothing of the project.
"""

from __future__ import annotations

from typing import Any, TypedDict

from gpulint import model
from gpulint.model import Alternative, Unknown

# mypy checks every literal fact name and the type of its value. The functional form because
# names are dotted; total=False because a fact is absent where it does not apply. Names known
# only at run time (a rule's condition, a loop over names) go through Resource.facts_by_name.
Facts = TypedDict("Facts", {
'''
_FACT_TYPES_TAIL = '''}, total=False)

# Every module but model.py names resources this way, so their facts are checked.
Resource = model.Resource[Facts]
'''


def fact_types_source(lists: Lists) -> str:
    """The text of gpulint/fact_types.py."""
    rows = [f'    "{f.name}": {f.python},\n' for f in lists.facts]
    return _FACT_TYPES_HEAD + "".join(rows) + _FACT_TYPES_TAIL


def schema_enum_block(lists: Lists) -> str:
    """The `fact` definition of rule.schema.json, one wrapped line per few names."""
    lines, line = [], ""
    for fact in lists.facts:
        item = f'"{fact.name}", '
        if len(line) + len(item) > 84:
            lines.append(line.rstrip())
            line = ""
        line += item
    lines.append(line.rstrip().rstrip(","))
    body = ("\n" + " " * 15).join(lines)
    return ('    "fact": {\n      "enum": [' + body + '],\n'
            '      "description": "A fact from the fact registry (docs/facts.md)."\n    },')


def with_schema_enum(schema_text: str, lists: Lists) -> str:
    return re.sub(r'    "fact": \{\n.*?\n    \},', lambda _: schema_enum_block(lists), schema_text,
                  count=1, flags=re.DOTALL)


def docs_table(lists: Lists) -> str:
    rows = [DOCS_BEGIN, "", "| Fact | Type | Meaning | Set by | Placeholder |",
            "| --- | --- | --- | --- | --- |"]
    for f in lists.facts:
        meaning = f.meaning.replace("|", "\\|")
        rows.append(f"| `{f.name}` | {f.type} | {meaning} | {lists.stages[f.set_by]} "
                    f"| `{{{lists.placeholder_name(f.name)}}}` |")
    rows += ["", "Short placeholder names (kept for existing rules): " + ", ".join(
        f"`{{{a}}}` = `{n[0]}`" for a, n in lists.aliases.items()) + "; `{alternative_monthly}` is "
        "the monthly price of `alternative.sizing`; `{cost_per_month}` is `$2,921/month`, or "
        "`not priced` (an amount that is not known shows as `not priced`, never `?`); "
        "`{address}`, `{type}` and `{path}` are the resource's own.", "", DOCS_END]
    return "\n".join(rows)


def with_docs_table(doc: str, lists: Lists) -> str:
    start, end = doc.find(DOCS_BEGIN), doc.find(DOCS_END)
    if start < 0 or end < 0:
        return doc.rstrip("\n") + "\n\n## Fact reference\n\n" + docs_table(lists) + "\n"
    return doc[:start] + docs_table(lists) + doc[end + len(DOCS_END):]


def write(root: str, lists: Lists) -> None:
    """Rewrite the three generated texts under the repository root."""
    import os

    from gpulint.files.reader import read_file_text

    updates: tuple[tuple[str, Callable[[str], str]], ...] = (
        ("src/gpulint/schemas/rule.schema.json", lambda text: with_schema_enum(text, lists)),
        ("docs/facts.md", lambda text: with_docs_table(text, lists)),
        (FACT_TYPES, lambda _: fact_types_source(lists)))
    for rel, update in updates:
        path = os.path.join(root, rel)
        text = read_file_text(path)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(update(text))
