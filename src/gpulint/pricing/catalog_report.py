"""What a report says about its prices: which catalog, its sources with their dates, and
whether it is older than the allowed age."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gpulint import providers
from gpulint.pricing import catalog


def source_label(source: dict[str, Any]) -> str:
    """One source as a report names it: repository@commit or URL, and the date of its data."""
    where = (f"{source.get('repo', '?')}@{str(source.get('commit', ''))[:7]}"
             if source.get("repo") else str(source.get("url") or source.get("name") or "?"))
    return f"{where} ({source.get('date') or 'undated'})"


def _sources_text(sources: list[dict[str, Any]]) -> str:
    """Sources for a report line. Tables downloaded from one base are named once:
    "BASE (aws/vms.csv 2026-11-23, gcp/vms.csv 2026-11-23, ...)"."""
    parts: list[str] = []
    by_base: dict[str, list[dict[str, Any]]] = {}
    for s in sources:
        if s.get("base"):
            if s["base"] not in by_base:
                parts.append(s["base"])
            by_base.setdefault(s["base"], []).append(s)
        else:
            parts.append(source_label(s))

    def tables(base: str) -> str:
        return ", ".join(f"{s.get('name')} {s.get('date') or 'undated'}" for s in by_base[base])

    return "; ".join(f"{p} ({tables(p)})" if p in by_base else p for p in parts)


def basis_source(provider: str) -> str:
    """Where one provider's prices come from, for a price basis: its sources with their dates
    ("anycloud-sh/catalog 2026-05-20"), else the catalog's date for a catalog that does not say
    which source priced which provider."""
    from gpulint.pricing.catalog_sources import provider_label

    meta = catalog.metadata()
    label = provider_label(list(meta.get("sources", [])), provider)
    return f"{provider} prices: {label}" if label else f"catalog {meta.get('snapshot_date')}"


def provider_dates() -> dict[str, str]:
    """provider -> the date of its prices ("2026-05-20", "2026-01-21 (part undated)")."""
    from gpulint.pricing.catalog_sources import provider_dates as dates

    return dates(list(catalog.metadata().get("sources", [])))


def dates_of(providers: list[str]) -> str:
    """'aws 2026-01-21 (part undated), gcp 2026-05-20': each cloud's own price date, for the
    clouds shown (a footer never dates one cloud by another's source)."""
    known = provider_dates()
    shown = [p for p in dict.fromkeys(providers) if p in known]
    return ", ".join(f"{p} {known[p]}" for p in shown) or \
        str(catalog.metadata().get("snapshot_date"))


def provider_dates_of(providers: list[str]) -> dict[str, str]:
    """provider -> its price date, for these providers (those the catalog dates)."""
    known = provider_dates()
    return {p: known[p] for p in dict.fromkeys(providers) if p in known}


def oldest_date(providers: list[str]) -> str | None:
    """The oldest price date of these clouds (YYYY-MM-DD), for staleness notes."""
    known = provider_dates()
    dated = sorted(known[p][:10] for p in providers if p in known and known[p][:1].isdigit())
    return dated[0] if dated else catalog.metadata().get("snapshot_date")


def _named(source: dict[str, Any], shown: set[str]) -> bool:
    from gpulint.pricing.catalog_sources import providers_of

    priced = providers_of(source)
    return not priced or any(p in shown for p in priced)


def report_info(used: Iterable[str] = ()) -> dict[str, Any]:
    """What a report says about its prices: the catalog (kind, file, date), each source with
    the date of its data, and a note when the catalog is older than the allowed age. The big
    three's sources are always named; a further cloud's (OCI, the GPU clouds) when the report
    prices one of its resources (`used`), so other reports keep a short footer."""
    from gpulint.pricing.catalog_store import max_age_days, staleness

    meta = catalog.metadata()
    shown = {c.name for c in providers.CLOUDS if c.table is None} | set(used)
    sources = [s for s in meta.get("sources", []) if isinstance(s, dict) and _named(s, shown)]
    return {"date": meta.get("snapshot_date"),
            "dates": {p: d for p, d in provider_dates().items() if p in shown},
            "source": _sources_text(sources),
            "version": str(meta.get("schema_version")),
            "origin": meta.get("origin"),
            "kind": catalog.kind(),
            "max_age_days": max_age_days(),
            "stale_note": staleness(meta.get("snapshot_date"))}
