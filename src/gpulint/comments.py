"""One scanner for `# key: value` comments that refer to the next line of code, or, at the end
of a line of code, to that line.

Used by the rule-fixture tests (`# ruleid:` / `# ok:`) and by inline suppressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `# key: value`, or `# tool:word value` (e.g. `# gpulint:ignore rule -- reason`).
# The value keeps its trailing blanks here (stripped after): a lazy `.*?` before `\s*$` is
# quadratic over a long run of spaces.
_COMMENT = re.compile(r"^\s*(?:#|//)\s*(?P<key>[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)?)(?::\s*|\s+)"
                      r"(?P<value>.*)$")


@dataclass(frozen=True)
class Directive:
    key: str
    value: str
    comment_line: int  # 1-based line of the comment
    target_line: int  # 1-based line of the next non-blank, non-comment line (0 if none)


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(("#", "//")) and stripped != "---"


def trailing_comment(line: str) -> int | None:
    """Where a `#` or `//` comment starts after code on the line, or None.

    The marker must follow whitespace (YAML's rule for `#`, and it keeps `a//b` paths and
    `http://` out) and sit outside a quoted string: double quotes (HCL and YAML, with backslash
    escapes) and single quotes opening a YAML scalar (after a space, `:`, `[`, `{` or `,`, so an
    apostrophe in plain text is not taken for one; `''` inside is a quote).
    """
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if (ch == "\\" and quote == '"') or (ch == "'" == quote and line[i + 1:i + 2] == "'"):
                i += 1  # an escaped character, or YAML's '' for a quote inside '…'
            elif ch == quote:
                quote = ""
        elif ch == '"' or (ch == "'" and (i == 0 or line[i - 1] in " \t:[{,")):
            quote = ch
        elif (ch == "#" or line.startswith("//", i)) and i > 0 and line[i - 1] in " \t":
            return i if line[:i].strip() else None
        i += 1
    return None


def directives(text: str, keys: set[str], trailing: bool = False) -> list[Directive]:
    """Directives on lines of their own, referring to the next line of code; with `trailing`,
    also those at the end of a line of code, referring to that line."""
    lines = text.splitlines()
    # The next line of code after each line, from one backward pass: searching forward from
    # every directive took quadratic time over 100,000 directives in a row.
    next_code = [0] * (len(lines) + 1)
    for j in range(len(lines) - 1, -1, -1):
        next_code[j] = j + 1 if _is_code(lines[j]) else next_code[j + 1]
    out: list[Directive] = []
    for i, line in enumerate(lines):
        m = _COMMENT.match(line)
        if m and m.group("key") in keys:
            out.append(Directive(m.group("key"), m.group("value").strip(), i + 1,
                                 next_code[i + 1]))
        elif trailing and not m and any(k in line for k in keys):
            start = trailing_comment(line)
            m = _COMMENT.match(line[start:]) if start is not None else None
            if m and m.group("key") in keys:
                out.append(Directive(m.group("key"), m.group("value").strip(), i + 1, i + 1))
    return out
