"""Consistency check of a derived catalog's prices: each type's on-demand price per region
against its other regions, and each spot price against its on-demand price.

A cloud prices a type within a narrow band across its regions: in the 2026-05 snapshot the
largest step between a type's sorted regional prices that is not a data error is 1.38×
(Azure NCads A100 v4 in brazilsouth over the next region). Rows of a type that fall below a
step of TIER_STEP (1.5×) or more hold another rate under the on-demand column: GCP's H100,
H200, A100 and A100 80GB rows in some regions are 42-58 % of the same type's price in its
other regions (a3-highgpu-8g: 43.07 USD/h in us-central1, 87.83 in us-east4), and their spot
sits a few percent under them where the other regions' spot is 60-70 % off. The lower group
is dropped, never the upper one: an under-priced row hides waste, and the hand check of
issue 16 against the providers' published list prices found the upper group right.

No second price source covers the same rows (the two AWS sources have disjoint rows and
agreed on all 805 they shared; GCP and Azure have one source), so a rejected row cannot be
corrected from another source. Dropping it left flagship types unpriced in their default
region (a3-highgpu-8g in us-central1), so it is replaced instead:

- a GCP machine type that bundles GPUs is derived from its parts, as GCE bills it: the host
  part of the region's own row (the row less its GPUs at the same table's per-GPU price, both
  the same rate, so the difference is the vCPU + memory price) plus N × the GPU's price in the
  region, which is the kept row, or the replacement the GPU's own row got (basis
  "derived: host + N× <gpu>"). a2-highgpu-1g in europe-west4 comes out at 3.74797 USD/h, the
  list price to the cent; a3-highgpu-8g in us-central1 at 87.83 (list 88.49 with its Local SSD);
- any other row takes the nearest region's price of the same row, as a labelled estimate: a
  region of the same area (us, europe, asia, ...), the one whose name shares the longest
  prefix, then the cheapest (an estimate never overstates).

Each replaced row, and each spot price dropped or flagged, is one entry in the catalog's
``adjustment_rows`` with the figures, its basis, the region the estimate (or the GPU part)
comes from, its source and the reason; the run-time price basis names it.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

TIER_STEP = 1.5  # a step this large between a type's sorted regional prices splits two rates
MIN_REGIONS = 3  # with fewer regions there is no "other regions" to compare with
SPOT_SAME = 0.05  # spot less than 5 % below on-demand is no spot price: dropped
SPOT_MEANINGFUL = 0.20  # spot less than 20 % below on-demand is kept but flagged
CHECKED_TABLES = ("prices", "accelerator_prices")  # tiers; spot is checked in every table

Entry = dict[str, Any]


def _lower_tier(regions: dict[str, list[float | None]]) -> tuple[float, float] | None:
    """(highest price of the lower group, lowest of the upper) at the largest step of at
    least TIER_STEP between the type's sorted on-demand prices, else None."""
    values = sorted({pair[0] for pair in regions.values() if pair[0]})
    if sum(1 for pair in regions.values() if pair[0]) < MIN_REGIONS or len(values) < 2:
        return None
    low, high = max(pairwise(values), key=lambda s: s[1] / s[0])
    return (low, high) if high / low >= TIER_STEP else None


def _entry(provider: str, table: str, name: str, region: str, pair: list[float | None],
           action: str, reason: str, source: str) -> Entry:
    return {"provider": provider, "table": table, "name": name, "region": region,
            "action": action, "ondemand": pair[0], "spot": pair[1], "reason": reason,
            "source": source}


def _tier_entries(provider: str, table: str, name: str,
                  regions: dict[str, list[float | None]], source: str) -> list[Entry]:
    tier = _lower_tier(regions)
    if tier is None:
        return []
    low, high = tier
    upper = sorted(r for r, pair in regions.items() if pair[0] and pair[0] >= high)
    out = []
    for region, pair in sorted(regions.items()):
        if pair[0] and pair[0] <= low:
            below = 1 - pair[0] / high
            reason = (f"on-demand {pair[0]:g} is {below:.0%} below {high:g}, the lowest price "
                      f"of the type's {len(upper)} dearer regions ({', '.join(upper[:4])}"
                      f"{', ...' if len(upper) > 4 else ''}); a step of {high / low:.2f}× "
                      f"(bound {TIER_STEP:g}×) means another rate, not the list price")
            out.append(_entry(provider, table, name, region, pair, "dropped", reason, source))
    return out


def _spot_entry(provider: str, table: str, name: str, region: str,
                pair: list[float | None], source: str) -> Entry | None:
    od, spot = pair
    if od is None or spot is None:
        return None
    off = 1 - spot / od
    if off < SPOT_SAME:
        return _entry(provider, table, name, region, pair, "spot_dropped",
                      f"spot {spot:g} is {off:.1%} below on-demand {od:g} (bound "
                      f"{SPOT_SAME:.0%}): not a spot price", source)
    if off < SPOT_MEANINGFUL:
        return _entry(provider, table, name, region, pair, "spot_flagged",
                      f"spot {spot:g} is only {off:.0%} below on-demand {od:g} (bound "
                      f"{SPOT_MEANINGFUL:.0%}); kept, but spot savings there are small", source)
    return None


def _bundled_entries(provider: str, body: dict[str, Any], name: str,
                     regions: dict[str, list[float | None]],
                     dropped_parts: dict[tuple[str, str], str], source: str) -> list[Entry]:
    """GCP machine types whose price bundles a GPU row that was dropped in that region: the
    VM part dilutes the step, but the GPU part is the same other rate."""
    note = str(body.get("instances", {}).get(name, {}).get("note") or "")
    if not note.startswith("bundles "):
        return []
    api = note.removeprefix("bundles ")
    return [_entry(provider, "prices", name, region, pair, "dropped",
                   f"its GPU part, the {api} row in {region}, is dropped: "
                   f"{dropped_parts[(api, region)]}", source)
            for region, pair in sorted(regions.items()) if (api, region) in dropped_parts]


def check(providers: dict[str, Any], source_of: dict[str, str]) -> list[Entry]:
    """Apply the check to ``providers`` in place; the entries, in a stable order.

    ``source_of`` names each provider's price source (with its date) for the entries."""
    entries: list[Entry] = []
    for provider, body in sorted(providers.items()):
        source = source_of.get(provider, "?")
        dropped_parts: dict[tuple[str, str], str] = {}
        # The GPU rows as the table has them, before any is replaced: a machine type's host
        # part is its row less its GPUs at this same rate.
        raw_gpus = {name: {r: list(p) for r, p in regions.items()}
                    for name, regions in body.get("accelerator_prices", {}).items()}
        gpu_donor: dict[tuple[str, str], str] = {}
        for table in ("accelerator_prices", "prices", "host_prices"):
            prices = body.get(table, {})
            for name in sorted(prices):
                regions = prices[name]
                dropped = (_tier_entries(provider, table, name, regions, source)
                           if table in CHECKED_TABLES else [])
                if table == "prices":
                    gone = {e["region"] for e in dropped}
                    dropped += [e for e in _bundled_entries(provider, body, name, regions,
                                                            dropped_parts, source)
                                if e["region"] not in gone]
                for entry in dropped:
                    dropped_parts[(name, entry["region"])] = entry["reason"]
                kept = {r: p for r, p in regions.items()
                        if (name, r) not in dropped_parts or table == "host_prices"}
                for entry in dropped:
                    if not (table == "prices" and _derive(entry, body, regions, raw_gpus,
                                                          gpu_donor)):
                        _replace(entry, regions, kept)
                    if table == "accelerator_prices" and entry["action"] == "replaced":
                        gpu_donor[(name, entry["region"])] = entry["estimate_from"]
                entries += sorted(dropped, key=lambda e: e["region"])
                for region, pair in sorted(regions.items()):
                    spot = _spot_entry(provider, table, name, region, pair, source)
                    if spot is not None:
                        entries.append(spot)
                        if spot["action"] == "spot_dropped":
                            pair[1] = None
                if not regions:
                    del prices[name]
    return entries


def area(region: str) -> str:
    """A region's part of the world, for the nearest region: `us-central1` -> us,
    `northamerica-northeast1` -> northamerica, Azure `eastus` -> us, `westeurope` -> europe."""
    if "-" in region:
        head = region.split("-", 1)[0]
        return {"eu": "europe", "ap": "asia", "ca": "northamerica", "sa": "southamerica"}.get(
            head, head)
    for word, where in (("europe", "europe"), ("uk", "europe"), ("france", "europe"),
                        ("germany", "europe"), ("norway", "europe"), ("sweden", "europe"),
                        ("switzerland", "europe"), ("poland", "europe"), ("italy", "europe"),
                        ("spain", "europe"), ("canada", "northamerica"), ("brazil", "southamerica"),
                        ("asia", "asia"), ("japan", "asia"), ("korea", "asia"), ("india", "asia"),
                        ("australia", "australia"), ("uae", "me"), ("qatar", "me"),
                        ("israel", "me"), ("africa", "africa"), ("us", "us")):
        if word in region:
            return where
    return region


def nearest(region: str, candidates: Iterable[str],
            price_of: dict[str, list[float | None]]) -> str | None:
    """The candidate region nearest `region`: same area, longest shared name prefix, then the
    cheapest on-demand price."""
    def shared(other: str) -> int:
        n = 0
        for a, b in zip(region, other, strict=False):
            if a != b:
                break
            n += 1
        return n

    pool = [c for c in candidates if c != region and price_of[c][0]]
    same = [c for c in pool if area(c) == area(region)] or pool
    return min(same, key=lambda c: (-shared(c), price_of[c][0] or 0.0, c), default=None)


def _replace(entry: Entry, regions: dict[str, list[float | None]],
             kept: dict[str, list[float | None]]) -> None:
    """Replace a rejected row by the nearest kept region's price (an estimate, labelled), or
    drop it when no region of the type is left."""
    region = entry["region"]
    donor = nearest(region, kept, kept)
    if donor is None:
        del regions[region]
        return
    regions[region] = list(kept[donor])
    entry["action"] = "replaced"
    entry["basis"] = NEAREST
    entry["estimate_from"] = donor
    entry["estimate"] = list(kept[donor])
    entry["reason"] += f"; replaced by the {donor} price as an estimate (nearest region)"


NEAREST = "nearest region"
DERIVED = "derived: host + "  # + "<N>× <GPU API name>"


def _derive(entry: Entry, body: dict[str, Any], regions: dict[str, list[float | None]],
            raw_gpus: dict[str, dict[str, list[float | None]]],
            gpu_donor: dict[tuple[str, str], str]) -> bool:
    """Replace a rejected machine-type row by its host part + N × its GPU's price in the
    region (GCE bills A2/A3/A4/G2 that way); False when the tables do not allow it."""
    name, region = entry["name"], entry["region"]
    spec = body.get("instances", {}).get(name, {})
    note, n = str(spec.get("note") or ""), float(spec.get("count") or 0)
    api = note.removeprefix("bundles ")
    raw = raw_gpus.get(api, {}).get(region)
    gpu = body.get("accelerator_prices", {}).get(api, {}).get(region)
    if not note.startswith("bundles ") or n <= 0 or not raw or not raw[0] or not gpu \
            or not gpu[0] or not entry["ondemand"]:
        return False
    host = entry["ondemand"] - n * raw[0]
    if host <= 0:  # the row is not its GPUs plus a host: no parts to add up
        return False
    host_spot = (entry["spot"] - n * raw[1]) if entry["spot"] and raw[1] else None
    od = round(host + n * gpu[0], 5)
    spot = (round(host_spot + n * gpu[1], 5) if host_spot is not None and host_spot > 0
            and gpu[1] else None)
    donor = gpu_donor.get((api, region), region)
    regions[region] = [od, spot]
    where = (f"the {donor} price, its own {region} row failed the check" if donor != region
             else f"its {region} row")
    entry.update(action="replaced", basis=f"{DERIVED}{n:g}× {api}", estimate_from=donor,
                 estimate=[od, spot],
                 host=[round(host, 5), None if spot is None or host_spot is None
                       else round(host_spot, 5)])
    entry["reason"] += (f"; replaced by a derived price: the {region} host part {host:.5g} "
                        f"(the row less {n:g} GPUs at the table's {raw[0]:g}) + {n:g} × {api} "
                        f"at {gpu[0]:g} ({where})")
    return True


def counts(entries: Iterable[Entry]) -> dict[str, int]:
    """Entries per provider and action, for the catalog's ``adjustments`` counts."""
    out: dict[str, int] = {}
    for e in entries:
        derived = str(e.get("basis", "")).startswith(DERIVED)
        key = {"dropped": f"{e['provider']}_rows_dropped_price_tier",
               "replaced": (f"{e['provider']}_rows_replaced_derived" if derived
                            else f"{e['provider']}_rows_replaced_nearest_region"),
               "spot_dropped": f"{e['provider']}_spot_not_below_ondemand_dropped",
               "spot_flagged": f"{e['provider']}_spot_less_than_20pct_below_flagged"}[e["action"]]
        out[key] = out.get(key, 0) + 1
    return out


DOC_START = "<!-- adjustment rows: generated by scripts/build_catalog.py -->"
DOC_END = "<!-- end of adjustment rows -->"
_ACTIONS = {"dropped": "row dropped", "replaced": "replaced (estimate)",
            "derived": "replaced (derived)",
            "spot_dropped": "spot dropped",
            "spot_flagged": "spot flagged"}


def _action(e: Entry) -> str:
    return "derived" if str(e.get("basis", "")).startswith(DERIVED) else str(e["action"])


def _usd(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def markdown(entries: list[Entry]) -> str:
    """The adjustment record as the Markdown table docs/catalog.md carries, between markers."""
    lines = [DOC_START, "",
             "| Provider | Type | Region | Action | On-demand | Spot | Reason |",
             "|---|---|---|---|---:|---:|---|"]
    for e in entries:
        lines.append(f"| {e['provider']} | `{e['name']}` | {e['region']} | "
                     f"{_ACTIONS[_action(e)]} | {_usd(e['ondemand'])} | {_usd(e['spot'])} | "
                     f"{e['reason']} |")
    return "\n".join([*lines, "", DOC_END])


def with_markdown(doc: str, entries: list[Entry]) -> str:
    """``doc`` with the text between the markers replaced by the current record."""
    head, start, rest = doc.partition(DOC_START)
    _, end, tail = rest.partition(DOC_END)
    if not start or not end:
        raise ValueError(f"the document has no '{DOC_START}' ... '{DOC_END}' section")
    return head + markdown(entries) + tail
