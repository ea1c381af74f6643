"""`gpulint catalog [QUERY]`: look up an instance type, GCP accelerator or GPU model;
`gpulint catalog update` and `gpulint catalog info` (cli/catalog_admin.py)."""

from __future__ import annotations

import difflib
import json
import sys
from typing import Any

import click

from gpulint import providers
from gpulint.cli.options import use_catalog
from gpulint.units import plural


def _entries(provider: str | None) -> list[tuple[str, Any]]:
    """(price-table provider, spec) for every instance type and GCP accelerator."""
    from gpulint.pricing import catalog

    out: list[tuple[str, Any]] = []
    for prov in catalog.providers():
        if provider and prov != provider:
            continue
        out += [(prov, spec) for spec in catalog.instances(prov)]
        if prov == "gcp":
            out += [("gcp-accelerator", spec) for spec in catalog.gcp_accelerators()]
    return out


def _matches(query: str | None, provider: str | None) -> tuple[list[tuple[str, Any]], str]:
    """Entries for the query and how it matched: name, GPU model, family prefix or all."""
    entries = _entries(provider)
    if not query:
        return entries, "all"
    q = query.casefold()
    by_name = [e for e in entries if e[1].name.casefold() in (q, "tpu-" + q)]
    if by_name:
        return by_name, "name"
    by_model = [e for e in entries if (e[1].gpu_model or "").casefold() == q]
    if by_model:
        return by_model, "gpu model"
    by_family = [e for e in entries if e[1].name.casefold().startswith(q)]
    return by_family, "prefix"


def _record(kind: str, spec: Any, region: str | None) -> dict[str, Any]:
    from gpulint.pricing import catalog

    prices = catalog.price_table(kind, spec.name)
    if region:
        prices = {r: p for r, p in prices.items() if r == region.replace(" ", "").lower()
                  or r in (region, providers.ANY_REGION)}
    return {
        "provider": spec.provider, "name": spec.name,
        "entry": "gcp accelerator" if kind == "gcp-accelerator" else "instance type",
        "accelerator_kind": spec.accelerator_kind, "gpu_model": spec.gpu_model,
        "gpu_count": spec.gpu_count, "gpu_memory_gib": spec.gpu_memory_gib,
        "vcpus": spec.vcpus, "memory_gib": spec.memory_gib, "note": spec.note,
        "prices": [{"region": r, "ondemand_usd_per_hour": p.ondemand,
                    "spot_usd_per_hour": p.spot, "replaced": _replaced(kind, spec.name, r)}
                   for r, p in prices.items()],
    }


def _replaced(kind: str, name: str, region: str) -> str | None:
    """How a row the catalog's consistency check replaced is priced, else None."""
    from gpulint.pricing import adjustments

    donor = adjustments.replaced_row(kind, name, region)
    if donor is None:
        return None
    basis = adjustments.replaced_basis(kind, name, region) or ""
    return (f"{basis}, the GPUs at the {donor} price" if basis.startswith("derived")
            else f"estimate: the {donor} price")


def _rate(v: Any, unit: str) -> str:
    from gpulint.units import usd_rate

    return usd_rate(v) + unit if isinstance(v, (int, float)) else "—"


def _text(records: list[dict[str, Any]], meta: dict[str, Any], all_regions: bool) -> str:
    from gpulint.pricing import catalog, catalog_report, catalog_store

    lines = []
    for r in records:
        what = (f"{r['gpu_count']:g}× {r['gpu_model']}"
                + (f" ({r['gpu_memory_gib']:g} GiB each)" if r["gpu_memory_gib"] else ""))
        host = f", {r['vcpus']:g} vCPU, {r['memory_gib']:g} GiB RAM" if r["vcpus"] else ""
        lines.append(f"{r['provider']} {r['name']}  [{r['entry']}] {what}{host}")
        if r["note"]:
            lines.append(f"    note: {r['note']}")
        prices = r["prices"]
        if not prices:
            lines.append("    no price in this catalog")
            continue
        shown = prices
        if not all_regions and len(prices) > 1:
            default = catalog.default_region(r["provider"])
            cheapest = min((p for p in prices if p["ondemand_usd_per_hour"] is not None),
                           key=lambda p: p["ondemand_usd_per_hour"], default=None)
            which = "on-demand"
            if cheapest is None:  # spot-only types (p5e): an empty listing would say nothing
                which = "spot (no on-demand price in any region)"
                cheapest = min((p for p in prices if p["spot_usd_per_hour"] is not None),
                               key=lambda p: p["spot_usd_per_hour"], default=None)
            shown = [p for p in prices if p["region"] == default]
            if cheapest is not None and cheapest not in shown:
                shown.append(cheapest)
            lines.append(f"    priced in {len(prices)} regions; default region and cheapest "
                         f"{which} shown (--all-regions for every one)")
        unit = "/GPU-h" if r["entry"] == "gcp accelerator" and r["accelerator_kind"] == "gpu" \
            else "/h"
        for p in shown:
            ondemand, spot = p["ondemand_usd_per_hour"], p["spot_usd_per_hour"]
            where = "every region" if p["region"] == providers.ANY_REGION else p["region"]
            why = f"  ({p['replaced']})" if p.get("replaced") else ""
            lines.append(f"    {where:<24} on-demand {_rate(ondemand, unit)}"
                         f"  spot {_rate(spot, unit)}{why}")
    sources = "; ".join(catalog_report.source_label(s)
                        for s in meta.get("sources", []) if isinstance(s, dict))
    clouds = [str(r["provider"]).split()[0] for r in records] or ["aws", "gcp", "azure"]
    lines.append(f"Catalog {meta.get('origin')}: prices of "
                 f"{catalog_report.dates_of(clouds)}; source {sources}; list prices in "
                 f"{meta.get('currency', 'USD')}.")
    stale = catalog_store.staleness(catalog_report.oldest_date(clouds))
    if stale:
        lines.append(f"Note: {stale}.")
    return "\n".join(lines) + "\n"


class CatalogGroup(click.Group):
    """`gpulint catalog QUERY` stays a lookup: anything that is not a subcommand goes to
    `lookup`, so instance types and options need no subcommand name."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["lookup", *args]
        return super().parse_args(ctx, args)


@click.group("catalog", cls=CatalogGroup)
def catalog_cmd() -> None:
    """Look up prices (gpulint catalog QUERY), fetch fresh ones (gpulint catalog update) and
    show which catalog is in use (gpulint catalog info)."""


@catalog_cmd.command("lookup")
@click.argument("query", required=False)
@click.option("--provider", type=click.Choice(providers.NAMES),
              help="Only this provider.")
@click.option("--region", help="Only this region (prices; types not priced there are listed).")
@click.option("--all-regions", is_flag=True, help="Text output: list every region's price.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--catalog", "catalog_file", type=click.Path(dir_okay=False),
              help="Read this catalog snapshot instead of the default one.")
def lookup(query: str | None, provider: str | None, region: str | None, all_regions: bool,
           fmt: str, catalog_file: str | None) -> None:
    """Look up QUERY (an instance type such as p4d.24xlarge, a GCP accelerator such as
    nvidia-tesla-t4, a GPU model such as A100-80GB, or a name prefix such as p5) across
    providers and regions."""
    from gpulint.pricing import catalog

    if catalog_file:
        use_catalog(catalog_file)
    found, how = _matches(query, provider)
    if not found:
        names = [spec.name for _, spec in _entries(provider)] + list(catalog.gpu_models())
        near = difflib.get_close_matches(query or "", names, n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        click.echo(f"gpulint: nothing in the catalog matches {query!r}{hint}", err=True)
        sys.exit(1)
    records = [_record(kind, spec, region) for kind, spec in found]
    # With a region, types the catalog does not price there are named, not listed.
    unpriced = [f"{r['provider']} {r['name']}" for r in records if region and not r["prices"]]
    records = [r for r in records if r["prices"] or not region]
    meta = catalog.metadata()
    if fmt == "json":
        out = {"query": query, "matched_by": how, "provider": provider, "region": region,
               "catalog": {"date": meta.get("snapshot_date"), "origin": meta.get("origin"),
                           "sources": meta.get("sources"), "currency": meta.get("currency")},
               "matches": records, "not_priced_in_region": unpriced}
        click.echo(json.dumps(out, indent=2))
        return
    text = _text(records, meta, all_regions or bool(region))
    if unpriced:
        have = "has" if len(unpriced) == 1 else "have"
        text = (f"{plural(len(unpriced), 'matching type')} {have} no price in {region}: "
                f"{', '.join(unpriced)}\n") + text
    click.echo(text, nl=False)


def _register() -> None:
    from gpulint.cli.catalog_admin import info_cmd, update_cmd

    catalog_cmd.add_command(update_cmd)
    catalog_cmd.add_command(info_cmd)


_register()
