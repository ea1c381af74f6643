"""How close a manifest's model name is to a name the catalog knows, and what a name alone
cannot say.

A name one edit away from a catalog name (`Llama-3.1-8B-Instrct`), or a catalog name with a
suffix added (`…-Instruct-ft`), is read as that model and said so; a name that is merely similar
is not sized from its digits, since the closest catalog model may well be what was meant; and a
Llama 4 style name (`17B-16E`: active parameters × experts) gives no total at all.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

# "17B-16E", "17Bx128E": the number is the ACTIVE count, the total is not in the name.
_ACTIVE_EXPERTS = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b[-_x](\d+)e(?![a-z0-9])")
_SIZE_TOKEN = re.compile(r"(?<![a-z0-9.])\d+(?:\.\d+)?[bm](?![a-z0-9])")
# difflib ratio from which a name counts as "close" to a catalog name: farther names are sized
# from their own digits when they have any (acme/support-bot-13b).
NEAR_RATIO = 0.85
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Near:
    """`match`: the catalog name the manifest's name is read as (one edit away, or a suffix
    added); `closest`: the nearest catalog names when none is that close."""
    match: str | None
    closest: tuple[str, ...]


def total_unknown(name: str) -> str | None:
    """Why a name's size cannot be taken from its digits, or None."""
    m = _ACTIVE_EXPERTS.search(name.lower().rsplit("/", 1)[-1])
    if m is None:
        return None
    return (f"has its total parameters unknown: in {m.group(0)!r} {m.group(1)}B is the count "
            f"active per token and {m.group(2)} the number of experts, not the total")


def _one_edit(a: str, b: str) -> bool:
    """Levenshtein distance at most 1 (one character inserted, removed or replaced)."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + (len(a) == len(b)):] == b[i + 1:]


def _typo(name: str, known: str) -> bool:
    """One edit away, and not in the numbers: Llama-3-7B is not a typo of Llama-3-8B."""
    return _one_edit(name, known) and _DIGITS.findall(name) == _DIGITS.findall(known)


def _suffix_added(name: str, known: str) -> bool:
    """`name` is `known` with a suffix that names no other size (`-Instruct-ft`, `-v2`). The
    known name must carry a size or an organisation: `phi4-mini` is not `phi4` plus a suffix."""
    if not name.startswith(known) or len(name) == len(known) or name[len(known)] not in "-_.":
        return False
    if "/" not in known and _SIZE_TOKEN.search(known) is None:
        return False
    return _SIZE_TOKEN.search(name[len(known):]) is None


def _wordy(name: str) -> bool:
    return len(name) > 3 and re.search(r"[a-z]", name) is not None


def _plain(name: str) -> str:
    """`_`, `.` and `-` are written for one another (meta-llama-3-1-70b-instruct); a decimal
    point between digits stays, so 3.1 and 31 remain different."""
    return re.sub(r"(?<!\d)\.|\.(?!\d)|_", "-", name)


def near(name: str, known: dict[str, str], count: int = 3) -> Near:
    """Read `name` against the catalog's names (`known`: lower-cased name -> canonical id)."""
    key = _plain(name.strip().lower())
    full = {_plain(k): cid for k, cid in known.items()}
    tails: dict[str, set[str]] = {}
    for k, cid in full.items():
        if _wordy(k.rsplit("/", 1)[-1]):  # "ViT-B/32" does not make "32" a model name
            tails.setdefault(k.rsplit("/", 1)[-1], set()).add(cid)
    # The whole name against whole names, then its last part against last parts (an org the
    # catalog does not list, or none).
    pairs = [(key, {k: {cid} for k, cid in full.items()}), (key.rsplit("/", 1)[-1], tails)]
    pairs = [(c, n) for c, n in pairs if _wordy(c)]
    for cand, names in pairs:
        hits = {cid for k, ids in names.items() if _typo(cand, k) or _suffix_added(cand, k)
                for cid in ids}
        if len(hits) == 1:  # two equally close models: not a match, a choice
            return Near(hits.pop(), ())
    closest: list[str] = []
    for cand, names in pairs:
        for k in difflib.get_close_matches(cand, list(names), n=count, cutoff=NEAR_RATIO):
            closest += sorted(c for c in names[k] if c not in closest)
    return Near(None, tuple(closest[:count]))
