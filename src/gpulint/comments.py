"""One scanner for `# key: value` comments that refer to the next line of code.

Used by the rule-fixture tests (`# ruleid:` / `# ok:`) and by inline suppressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `# key: value`, or `# tool:word value` (e.g. `# gpulint:ignore rule -- reason`).
_COMMENT = re.compile(r"^\s*(?:#|//)\s*(?P<key>[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)?)(?::\s*|\s+)"
                      r"(?P<value>.*?)\s*$")


@dataclass(frozen=True)
class Directive:
    key: str
    value: str
    comment_line: int  # 1-based line of the comment
    target_line: int  # 1-based line of the next non-blank, non-comment line (0 if none)


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(("#", "//")) and stripped != "---"


def directives(text: str, keys: set[str]) -> list[Directive]:
    lines = text.splitlines()
    out: list[Directive] = []
    for i, line in enumerate(lines):
        m = _COMMENT.match(line)
        if not m or m.group("key") not in keys:
            continue
        target = next((j + 1 for j in range(i + 1, len(lines)) if _is_code(lines[j])), 0)
        out.append(Directive(m.group("key"), m.group("value"), i + 1, target))
    return out
