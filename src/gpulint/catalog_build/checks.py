"""Checks a derived catalog must pass before it is installed, and what changed.

- invariants: every price positive, spot never above on-demand, every GPU with a model and
  memory, every priced name with a spec (the row floors are checked while deriving);
- change guard: against the catalog in use, refuse a catalog that loses more than
  MAX_ROW_LOSS of the price rows of any table, or that moves more than MAX_MOVED_SHARE of the
  prices both have by a factor of MOVE_FACTOR or more. A real price cut (AWS cut P4/P5
  on-demand by up to 45 % in June 2025) passes; a table cut short, a currency or unit change
  upstream does not. ``--force`` installs anyway.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

MAX_ROW_LOSS = 0.20
MOVE_FACTOR = 3.0
MAX_MOVED_SHARE = 0.05
PRICE_TABLES = ("prices", "accelerator_prices", "host_prices")
SPEC_TABLES = ("instances", "accelerators")


PriceKey = tuple[str, str, str, str]  # provider, table, name, region


def price_rows(data: dict[str, Any]) -> Iterator[tuple[PriceKey, list[float | None]]]:
    for prov, body in data.get("providers", {}).items():
        for table in PRICE_TABLES:
            for name, by_region in body.get(table, {}).items():
                for region, pair in by_region.items():
                    yield (prov, table, name, region), pair


def invariants(data: dict[str, Any]) -> list[str]:
    problems = []
    for key, pair in price_rows(data):
        if pair == [None, None] or any(v is not None and not v > 0 for v in pair):
            problems.append(f"{'/'.join(key)}: price {pair} is not positive")
        elif pair[0] is not None and pair[1] is not None and pair[1] > pair[0]:
            problems.append(f"{'/'.join(key)}: spot {pair[1]} above on-demand {pair[0]}")
    models = data.get("gpu_models", {})
    for prov, body in data.get("providers", {}).items():
        for table in SPEC_TABLES:
            for name, rec in body.get(table, {}).items():
                if not rec.get("count") or rec["count"] <= 0 or not rec.get("model"):
                    problems.append(f"{prov} {name}: no accelerator model or count")
                elif rec["kind"] == "gpu" and (not rec.get("mem") or rec["model"] not in models):
                    problems.append(f"{prov} {name}: GPU without memory")
        for prices, specs in (("prices", "instances"), ("accelerator_prices", "accelerators"),
                              ("host_prices", "hosts")):
            for name in set(body.get(prices, {})) - set(body.get(specs, {})):
                problems.append(f"{prov} {name}: priced but has no spec")
    return problems


def _rows_per_table(data: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for (prov, table, _n, _r), _pair in price_rows(data):
        out[f"{prov} {table}"] = out.get(f"{prov} {table}", 0) + 1
    return out


def moves(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[float, str, float, float]]:
    """(factor new/old, 'provider name region', old, new) for every on-demand price that
    changed between the two catalogs, largest move (either way) first."""
    before = {k: p[0] for k, p in price_rows(old) if p[0]}
    out = []
    for key, pair in price_rows(new):
        was, now = before.get(key), pair[0]
        if was and now and was != now:
            prov, table, name, region = key
            what = " accelerator" if table == "accelerator_prices" else ""
            label = f"{prov}{what} {name} {region}"
            out.append((now / was, label, was, now))
    return sorted(out, key=lambda m: (-abs(math.log(m[0])), m[1]))


def guard(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Reasons to refuse ``new`` in place of ``old``; empty when it looks like a normal update."""
    reasons = []
    had, has = _rows_per_table(old), _rows_per_table(new)
    for table, n in sorted(had.items()):
        lost = 1 - has.get(table, 0) / n
        if lost > MAX_ROW_LOSS:
            reasons.append(f"{table} would lose {lost:.0%} of its {n} price rows "
                           f"(limit {MAX_ROW_LOSS:.0%})")
    priced_before = {k for k, p in price_rows(old) if p[0]}
    common = sum(1 for k, p in price_rows(new) if p[0] and k in priced_before)
    big = [m for m in moves(old, new) if max(m[0], 1 / m[0]) >= MOVE_FACTOR]
    if common and len(big) / common > MAX_MOVED_SHARE:
        reasons.append(f"{len(big)} of {common} on-demand prices ({len(big) / common:.0%}) moved "
                       f"by a factor of {MOVE_FACTOR:g} or more (limit {MAX_MOVED_SHARE:.0%}), "
                       f"e.g. {big[0][1]} {big[0][2]:g} -> {big[0][3]:g} USD/h")
    return reasons


def _types(data: dict[str, Any]) -> set[str]:
    return {f"{prov} {name}" for prov, body in data.get("providers", {}).items()
            for table in SPEC_TABLES for name in body.get(table, {})}


def summary(old: dict[str, Any], new: dict[str, Any], top: int = 5) -> list[str]:
    """What changed, as lines to print: types added and removed, price rows, largest moves."""
    before, after = _types(old), _types(new)
    added, removed = sorted(after - before), sorted(before - after)
    old_rows = {k for k, _ in price_rows(old)}
    new_rows = {k for k, _ in price_rows(new)}
    changed = moves(old, new)
    lines = [f"types: {len(after)} ({len(added)} added, {len(removed)} removed); price rows: "
             f"{len(new_rows)} ({len(new_rows - old_rows)} added, {len(old_rows - new_rows)} "
             f"removed, {len(changed)} on-demand prices changed)"]
    for label, names in (("added", added), ("removed", removed)):
        if names:
            more = f" and {len(names) - 12} more" if len(names) > 12 else ""
            shown = ", ".join(names[:12]) + more
            lines.append(f"  {label}: {shown}")
    for factor, label, was, now in changed[:top]:
        lines.append(f"  {label}: {was:g} -> {now:g} USD/h ({(factor - 1) * 100:+.0f} %)")
    return lines
