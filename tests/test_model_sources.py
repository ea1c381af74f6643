"""Every figure of the model catalog names where it comes from: a URL or a repository path
with a commit or a date, or a key of the catalog's source table (which carries its commit).
The model's own name is not a source."""

from __future__ import annotations

import re

from gpulint.sizing.model_catalog import _catalog, catalog_metadata

_DATED = re.compile(r"\b[0-9a-f]{40}\b|@[0-9a-f]{7,40}\b|\b(?:19|20)\d\d-[01]\d(?:-[0-3]\d)?\b")


def _keys() -> list[str]:
    """Source-table keys that pin a commit ("KH:<preset>" -> "KH")."""
    return [s["key"].split(":")[0].split("<")[0] for s in catalog_metadata()["sources"]
            if s.get("commit")]


def cited(source: str | None, keys: list[str]) -> bool:
    if not source or source.strip().lower().startswith("model name"):
        return False
    if _DATED.search(source):
        return True
    return any(re.search(rf"(?<![A-Za-z_]){re.escape(k)}(?![A-Za-z_])", source) for k in keys)


def test_every_parameter_count_and_shape_cites_a_dated_source() -> None:
    keys = _keys()
    bad = []
    for row in _catalog()["models"]:
        if row["params_total"] is not None and not cited(row["params_source"], keys):
            bad.append((row["id"], "params", row["params_source"]))
        if row["num_layers"] is not None and not cited(row.get("arch_source"), keys):
            bad.append((row["id"], "shapes", row.get("arch_source")))
    assert not bad, bad


def test_the_check_rejects_names_and_undated_pages() -> None:
    keys = _keys()
    assert not cited("model name", keys)
    assert not cited("https://example.org/models/foo", keys)
    assert not cited("someone/repo README.md", keys)
    assert cited("https://example.org/models/foo, read 2026-11-27", keys)
    assert cited("org/repo README.md @0e7ecb708645fb4dcf08fef7a0dc80b79895cbaa", keys)
    assert cited("KH:gemma3_instruct_270m (268,098,176)", keys)


def test_moe_rows_give_active_parameters_below_the_total() -> None:
    for row in _catalog()["models"]:
        if row["arch_kind"] == "decoder-moe" and row["params_total"]:
            assert row["params_active"] and row["params_active"] < row["params_total"], row["id"]
