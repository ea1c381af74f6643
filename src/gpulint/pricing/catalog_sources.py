"""Which sources priced which provider, with the date of each source's data.

A bundled catalog's sources name their providers (``providers``); an updated catalog's sources
are downloaded tables named ``<provider>/<file>.csv``. Either way every price basis and report
footer can say where a provider's prices come from and how old they are.
"""

from __future__ import annotations

from typing import Any

from gpulint import providers

PROVIDERS = providers.NAMES


def providers_of(source: dict[str, Any]) -> list[str]:
    named = source.get("providers")
    if isinstance(named, list):
        return [str(p) for p in named]
    head = str(source.get("name") or "").split("/", 1)[0]
    return [head] if head in PROVIDERS and "/" in str(source.get("name") or "") else []


def by_provider(sources: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """provider -> the sources of its prices, in the catalog's order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for source in sources:
        if isinstance(source, dict):
            for provider in providers_of(source):
                out.setdefault(provider, []).append(source)
    return out


def short_label(source: dict[str, Any]) -> str:
    """"anycloud-sh/catalog 2026-05-20", "skypilot-catalog v8 undated", "aws/vms.csv 2026-11-23"."""
    name = source.get("name") or source.get("repo") or source.get("url") or "?"
    return f"{name} {source.get('date') or 'undated'}"


def provider_label(sources: list[dict[str, Any]], provider: str) -> str:
    """The sources of one provider's prices with their dates, joined: "" when none is named."""
    return " + ".join(short_label(s) for s in by_provider(sources).get(provider, []))


def provider_dates(sources: list[dict[str, Any]]) -> dict[str, str]:
    """provider -> the date of its prices: "2026-05-20", several joined with "and", "(part
    undated)" after them when some of its sources have no date, "undated" when none has."""
    out = {}
    for provider, found in sorted(by_provider(sources).items()):
        dated = list(dict.fromkeys(str(s["date"]) for s in found if s.get("date")))
        part = " (part undated)" if any(not s.get("date") for s in found) else ""
        out[provider] = " and ".join(dated) + part if dated else "undated"
    return out
