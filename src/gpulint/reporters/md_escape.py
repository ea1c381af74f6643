"""Hostile text made inert in Markdown: every string that comes from scanned files (addresses,
paths, messages, reasons) goes through `escape_text` or `code_span` before it reaches a
pull-request comment: no raw HTML, no links or autolinks, no @mentions or issue references,
nothing that can break out of a table cell."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

ZWJ = "\u200d"
# Bidirectional overrides/isolates can make text read differently from what it is.
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}


def clean(value: Any) -> str:
    """Stringify, fold line breaks to spaces and drop control/bidi characters."""
    text = "" if value is None else str(value)
    out = []
    for ch in text:
        if ch in "\r\n\t\v\f\u2028\u2029\x85":
            out.append(" ")
        elif ch in _BIDI or unicodedata.category(ch) == "Cc":
            continue
        else:
            out.append(ch)
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def escape_text(value: Any) -> str:
    """Make ``value`` render as literal, single-line, inert Markdown text.

    * every ASCII punctuation character is backslash-escaped (CommonMark allows this for all
      of them), which disables emphasis, code spans, links, raw HTML, entities and, inside a
      table, cell separators (GFM treats ``\\|`` as a literal pipe);
    * ``@`` gets a zero-width joiner after it so GitHub does not notify anyone and e-mail
      autolinks cannot form;
    * ``://``, ``www.`` and ``#<digits>`` get a zero-width joiner so GFM's extended
      autolinks and GitHub's issue references cannot form.
    """
    text = clean(value)
    out = []
    for ch in text:
        if ch.isascii() and not ch.isalnum() and ch != " " and ch.isprintable():
            out.append("\\" + ch)
            if ch == "@":
                out.append(ZWJ)
        else:
            out.append(ch)
    escaped = "".join(out)
    escaped = escaped.replace("\\:\\/\\/", "\\:" + ZWJ + "\\/\\/")
    escaped = re.sub(r"(?i)\b(www)\\\.", lambda m: m.group(1) + ZWJ + "\\.", escaped)
    escaped = re.sub(r"\\#(?=[0-9])", "\\#" + ZWJ, escaped)
    return escaped


def _defang(text: str) -> str:
    """Zero-width joiners that stop mentions, autolinks and issue references forming.

    GitHub does not process these inside code, but other renderers (mail, mobile clients)
    may, and the joiner is invisible."""
    text = text.replace("@", "@" + ZWJ).replace("://", ":" + ZWJ + "//")
    text = re.sub(r"(?i)\b(www)\.", lambda m: m.group(1) + ZWJ + ".", text)
    return re.sub(r"#(?=[0-9])", "#" + ZWJ, text)


def code_span(value: Any) -> str:
    """Render ``value`` as an inline code span safe inside a table cell.

    Code spans never produce HTML, links or mentions.  The fence is longer than any run of
    backticks inside; pipes are escaped because GFM splits table cells before it parses code.
    """
    text = _defang(clean(value)).replace("|", "\\|")
    if not text:
        return ""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or text.startswith(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
