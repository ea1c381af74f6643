"""`gpulint catalog update` (the only command that uses the network) and `gpulint catalog info`.

Exit codes: 0 done, 1 the update failed or was refused (the previous catalog stays in use),
2 usage error.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from typing import Any

import click

EXIT_FAILED, EXIT_USAGE = 1, 2


def printable(text: str) -> str:
    """`text` with control and format characters (escape sequences, bidi overrides) escaped:
    a price table's instance names must not drive the terminal or hide text."""
    return "".join(c if c in "\n" or unicodedata.category(c) not in ("Cc", "Cf")
                   else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
                   for c in text)


def _configured(explicit: str | None = None, for_source: bool = False) -> dict[str, Any]:
    """The configuration's `catalog` settings (`explicit`, else found upwards from the working
    directory), with a directory source made absolute; a broken configuration is a usage
    error. With `for_source`, a discovered configuration's `catalog.source` is dropped with a
    note: it belongs to the checkout, and a checkout does not choose where prices come from."""
    from gpulint.config.load import ConfigError, display, resolve

    try:
        config = resolve(explicit, ())
    except ConfigError as e:
        click.echo(f"gpulint: {e}", err=True)
        sys.exit(EXIT_USAGE)
    settings = dict((config.data.get("catalog") or {}) if config else {})
    source = settings.get("source")
    if for_source and config and source and not explicit:
        click.echo(f"gpulint: catalog.source of {display(config.path)} is not used: a "
                   "repository's configuration does not choose where prices come from; give "
                   "--source, $GPULINT_CATALOG_SOURCE or --config FILE", err=True)
        settings.pop("source")
        source = None
    if config and source and "://" not in source:
        settings["source"] = config.relative(source)
    if "max_age_days" in settings:
        from gpulint.pricing.catalog_store import set_max_age_days

        set_max_age_days(int(settings["max_age_days"]))
    return settings


@click.command("update")
@click.option("--source", "source", metavar="BASE",
              help="Where the tables are: a URL or directory holding aws/vms.csv, gcp/vms.csv, "
                   "gcp/accelerators.csv and azure/vms.csv (SkyPilot catalog format). Default: "
                   "$GPULINT_CATALOG_SOURCE, else the configuration's catalog.source, else the "
                   "public SkyPilot catalog.")
@click.option("--force", is_flag=True,
              help="Install even if the change guard refuses (many rows lost or prices moved "
                   "by large factors).")
@click.option("--timeout", type=click.FloatRange(0, min_open=True), default=60.0,
              show_default=True, help="Seconds for the whole download (one deadline).")
@click.option("--config", "config_file", metavar="FILE",
              help="Your own configuration file, whose catalog.source is used. A repository's "
                   "configuration found from the working directory never sets the source.")
@click.option("--allow-redirects", is_flag=True,
              help="Follow redirects to other hosts (by default only within the source's).")
def update_cmd(source: str | None, force: bool, timeout: float, config_file: str | None,
               allow_redirects: bool) -> None:
    """Download fresh public price tables, check them, and install the catalog they give in
    the user data directory. Scans use it from then on; nothing changes if anything fails."""
    from gpulint.catalog_build import update as up

    configured = _configured(config_file, for_source=not source).get("source")
    try:
        base = up.check_source(source or up.default_source(configured))
    except ValueError as e:
        click.echo(f"gpulint: {e}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"Fetching price tables from {printable(base)} ...", err=True)
    try:
        outcome = up.update(base, force=force, timeout=timeout, allow_redirects=allow_redirects)
    except up.UpdateError as e:
        click.echo(f"gpulint: catalog update failed: {printable(str(e))}; the catalog in use is "
                   "unchanged", err=True)
        sys.exit(EXIT_FAILED)
    except OSError as e:  # the data directory cannot be written
        click.echo(f"gpulint: catalog update failed: cannot install: {e}; the catalog in use "
                   "is unchanged", err=True)
        sys.exit(EXIT_FAILED)
    for line in outcome.lines:
        click.echo(printable(line))
    if outcome.unchanged:
        click.echo("Prices unchanged; not installed: the catalog in use stays.")
        return
    if outcome.installed is None:
        click.echo("gpulint: catalog update refused by the change guard: "
                   + printable("; ".join(outcome.refused))
                   + ". The catalog in use is unchanged; check the source, or run again with "
                   "--force to install it anyway.", err=True)
        sys.exit(EXIT_FAILED)
    if outcome.refused:
        click.echo("Installed despite the change guard (--force): "
                   + printable("; ".join(outcome.refused)))
    click.echo(f"Installed {outcome.installed} ({outcome.seconds:.1f} s). Scans use it from now "
               "on; --catalog FILE still overrides it.")


def _rows(data: dict[str, Any]) -> dict[str, dict[str, int]]:
    out = {}
    for prov, body in sorted(data.get("providers", {}).items()):
        out[prov] = {table: (len(body[table]) if "prices" not in table
                             else sum(len(r) for r in body[table].values()))
                     for table in ("instances", "prices", "accelerators", "accelerator_prices",
                                   "hosts", "host_prices") if table in body}
    return out


def _adjusted(data: dict[str, Any]) -> dict[str, int]:
    """Rows the consistency check changed, per action ("dropped", "spot_flagged", ...)."""
    out: dict[str, int] = {}
    for e in data.get("adjustment_rows", []):
        out[str(e.get("action"))] = out.get(str(e.get("action")), 0) + 1
    return dict(sorted(out.items()))


@click.command("info")
@click.option("--max-age", "max_age", type=click.IntRange(1), metavar="DAYS",
              help="Call the catalog stale past this many days (default: "
                   "$GPULINT_CATALOG_MAX_AGE_DAYS, else the configuration's "
                   "catalog.max_age_days, else 90).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def info_cmd(max_age: int | None, fmt: str) -> None:
    """Which catalog scans use: its file, sources and their dates, row counts, and whether it
    is older than the allowed age."""
    from gpulint.pricing import catalog, catalog_report, catalog_sources, catalog_store

    _configured()
    active = catalog.use_catalog_file(None)
    meta = catalog.metadata()
    limit = max_age or catalog_store.max_age_days()
    date = meta.get("snapshot_date")
    info: dict[str, Any] = {
        "kind": catalog.kind(), "origin": meta.get("origin"), "snapshot_date": date,
        "age_days": catalog_store.age_days(date), "max_age_days": limit,
        "stale_note": catalog_store.staleness(date, limit),
        "sources": [{"source": catalog_report.source_label(s), "date": s.get("date"),
                     # each source's own age: the newest one does not date the others
                     "age_days": catalog_store.age_days(s.get("date")),
                     "providers": catalog_sources.providers_of(s)}
                    for s in meta.get("sources", []) if isinstance(s, dict)],
        "rows": _rows(active.data),
        "dates": catalog_report.provider_dates(),
        "adjustments": _adjusted(active.data),
        # Rows the consistency check rejected and replaced, each one listed with its basis
        # (derived from its parts, or the nearest region's price; older catalogs: the latter).
        "replaced": [{**{k: e.get(k) for k in ("provider", "table", "name", "region",
                                               "estimate_from", "estimate", "ondemand")},
                      "basis": e.get("basis") or "nearest region"}
                     for e in active.data.get("adjustment_rows", [])
                     if e.get("action") == "replaced"],
        "data_dir": str(catalog_store.data_dir()),
        "installed": [str(p) for p in catalog_store.installed()],
    }
    if fmt == "json":
        click.echo(json.dumps(info, indent=2))
        return
    click.echo(f"Active catalog: {info['kind']} {info['origin']}")
    ages = [a for a in (x["age_days"] for x in info["sources"]) if a is not None]
    age = f"; the oldest source is {max(ages)} days old" if ages else ""
    click.echo(f"Prices of {catalog_report.dates_of(list(info['dates']))} (catalog dated "
               f"{date}){age}; stale after {limit} days.")
    if info["stale_note"]:
        click.echo(f"Note: {info['stale_note']}.")
    click.echo("Sources:")
    for s in info["sources"]:
        used = f": {', '.join(s['providers'])}" if s["providers"] else ""
        age = f", {s['age_days']} days old" if s["age_days"] is not None else ", undated"
        click.echo(f"  {s['source']}{age}{used}")
    click.echo("Rows:")
    for prov, tables in info["rows"].items():
        counts = ", ".join(f"{n} {t.replace('_', ' ')}" for t, n in tables.items())
        dated = f", prices of {info['dates'][prov]}" if prov in info["dates"] else ""
        click.echo(f"  {prov}{dated}: {counts}")
    if info["adjustments"]:
        counts = ", ".join(f"{n} {a.replace('_', ' ')}" for a, n in info["adjustments"].items())
        click.echo(f"Consistency check: {counts} (the catalog's adjustment_rows list them)")
    if info["replaced"]:
        click.echo(f"Replaced rows ({len(info['replaced'])}; the source's price failed the "
                   "check; a machine type's parts, else the nearest region's price, stand in):")
        for e in info["replaced"]:
            how = (f"{e['basis']}, the GPUs at the {e['estimate_from']} price"
                   if str(e["basis"]).startswith("derived") else f"the {e['estimate_from']} price")
            click.echo(f"  {e['provider']} {e['name']} {e['region']}: {e['ondemand']:g} -> "
                       f"{e['estimate'][0]:g} ({how})")
    click.echo(f"Installed catalogs ({info['data_dir']}): {len(info['installed'])}")
    for path in info["installed"]:
        click.echo(f"  {path}")
