"""Hostile text made inert in Markdown: every string that comes from scanned files (addresses,
paths, messages, reasons) goes through `escape_text`, `code_span` or `html_text` before it
reaches a pull-request comment: no raw HTML, no links or autolinks, no @mentions, issue or
commit references, no forged gpulint markers, nothing that can break out of a list item."""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

ZWJ = "\u200d"
ELLIPSIS = "…"
# Characters a scanned file may not smuggle into a comment: controls (Cc), surrogates (Cs,
# which cannot even be encoded to send) and format characters (Cf: bidi overrides and isolates,
# U+061C, zero-width spaces and joiners, U+2060, U+FEFF, the tag block U+E0000–E007F), which
# are invisible or make text read differently from what it is.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cs", "Cf"})
_LINE_BREAKS = "\r\n\t\v\f\u2028\u2029\x85"
# GitHub links 7 or more hex digits to a commit; a joiner every 6 stops any run reaching 7.
_HEX_RUN = re.compile(r"[0-9A-Fa-f]{7,}")


def clean(value: Any) -> str:
    """Stringify, fold line breaks to spaces and drop control and format characters."""
    text = "" if value is None else str(value)
    out = []
    for ch in text:
        if ch in _LINE_BREAKS:
            out.append(" ")
        elif unicodedata.category(ch) not in _DROPPED_CATEGORIES:
            out.append(ch)
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def shorten(value: Any, limit: int) -> str:
    """`clean` text cut to at most ``limit`` characters (the last one an ellipsis), so one
    huge name or message cannot push everything else out of a size-limited comment."""
    text = clean(value)
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + ELLIPSIS


def _break_hex(m: re.Match[str]) -> str:
    run = m.group(0)
    return ZWJ.join(run[i:i + 6] for i in range(0, len(run), 6))


def _defang_refs(text: str) -> str:
    """Joiners that stop GitHub turning text into references: ``GH-123``, commit SHAs."""
    text = re.sub(r"(?i)\b(GH)(?=\\?-[0-9])", lambda m: m.group(1) + ZWJ, text)
    return _HEX_RUN.sub(_break_hex, text)


def escape_text(value: Any, limit: int | None = None) -> str:
    """Make ``value`` render as literal, single-line, inert Markdown text.

    * every ASCII punctuation character is backslash-escaped (CommonMark allows this for all
      of them), which disables emphasis, code spans, links, raw HTML, entities and, inside a
      table, cell separators (GFM treats ``\\|`` as a literal pipe);
    * ``@`` gets a zero-width joiner after it so GitHub does not notify anyone and e-mail
      autolinks cannot form;
    * ``://``, ``www.``, ``#<digits>``, ``GH-<digits>`` and runs of 7 or more hex digits get
      zero-width joiners so GFM's extended autolinks and GitHub's issue and commit references
      cannot form.

    ``limit`` shortens the text first (see `shorten`).
    """
    text = clean(value) if limit is None else shorten(value, limit)
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
    return _defang_refs(escaped)


def _defang(text: str) -> str:
    """Zero-width joiners that stop mentions, autolinks and issue references forming, and a
    forged ``<!-- gpulint:… -->`` marker from reading as one in the raw comment body.

    GitHub does not process these inside code, but other renderers (mail, mobile clients)
    may, and the joiner is invisible."""
    text = text.replace("@", "@" + ZWJ).replace("://", ":" + ZWJ + "//")
    text = text.replace("<!--", "<" + ZWJ + "!--")
    text = re.sub(r"(?i)\b(www)\.", lambda m: m.group(1) + ZWJ + ".", text)
    return re.sub(r"#(?=[0-9])", "#" + ZWJ, text)


def html_text(value: Any, limit: int) -> str:
    """Text for a raw HTML line (a ``<summary>``): entities for ``<>&"'``, then the same
    joiners as `escape_text`, since GitHub still looks for mentions and references there."""
    return _defang_refs(_defang(html.escape(shorten(value, limit))))


def code_span(value: Any, limit: int | None = None) -> str:
    """Render ``value`` as an inline code span safe inside a table cell.

    Code spans never produce HTML, links or mentions.  The fence is longer than any run of
    backticks inside; pipes are escaped because GFM splits table cells before it parses code.
    """
    text = clean(value) if limit is None else shorten(value, limit)
    text = _defang(text).replace("|", "\\|")
    if not text:
        return ""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or text.startswith(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"
