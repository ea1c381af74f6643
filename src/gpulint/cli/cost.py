"""`gpulint cost [PATH]...`: the monthly GPU cost per resource, provider and team."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from gpulint import reporters
from gpulint.cli import cost_csv
from gpulint.cli import output as output_mod
from gpulint.cli.cost_csv import SORTS
from gpulint.cli.options import build_settings, scan_flags
from gpulint.cli.output import output_option
from gpulint.reporters.tables import markdown_table, option_gpus, text_table
from gpulint.units import usd as money

HEADERS = ("Resource", "Location", "Type", "Capacity", "Count", "Hourly", "Hours", "Monthly")
NUMERIC = frozenset({4, 5, 6, 7})


def _cells(row: dict[str, Any]) -> list[str]:
    from gpulint.units import usd_rate

    what = row["instance_type"] or f"{row['gpu_count'] or '?'}× {row['gpu_model'] or 'GPU'}"
    hourly = row["hourly_usd"]
    return [row["address"], f"{row['path']}:{row['line']}", what, row["capacity"],
            f"{row['count']:g}" if isinstance(row["count"], (int, float)) else "?",
            usd_rate(hourly) if isinstance(hourly, (int, float)) else "?",
            f"{row['hours']:g}" if isinstance(row["hours"], (int, float)) else "?",
            money(row["monthly_usd"])]


OPTION_HEADERS = ("Option", "Location", "GPUs", "Hourly")


def _option_rows(data: dict[str, Any]) -> list[list[str]]:
    from gpulint.units import usd_rate

    return [[o["option"] or o["address"], f"{o['path']}:{o['line']}", option_gpus(o),
             usd_rate(o["hourly_usd"]) if isinstance(o["hourly_usd"], (int, float))
             else "not priced"] for o in data.get("options") or []]


def _options_title(data: dict[str, Any]) -> str:
    return (f"Options users can pick ({len(data['options'])}; per hour of use, not in the "
            "totals)")


def _totals(data: dict[str, Any]) -> tuple[list[list[str]], list[list[str]]]:
    t = data["totals"]
    return ([[p, money(v)] for p, v in t["by_provider"].items()],
            [[g, money(v)] for g, v in t["by_group"].items()])


def render_text(data: dict[str, Any], verbose: bool = True) -> str:
    from gpulint.reporters.text import price_note

    out: list[str] = []
    for d in data["diagnostics"]:
        where = f"{d['path']}:{d['line']}" if d.get("line") else d["path"]
        out.append(f"{where}: {d['severity']} {d['message']}")
    rows = data["resources"]
    if not rows:
        out.append("No GPU resources found.")
    else:
        table = text_table(HEADERS, [_cells(r) for r in rows], NUMERIC)
        out += table[:2]
        for r, line in zip(rows, table[2:], strict=False):
            out.append(line)
            if r["unpriced_reason"]:
                out.append(f"    not priced: {r['unpriced_reason']}")
            elif verbose and r["basis"]:
                out.append(f"    {r['basis']}")
    t = data["totals"]
    providers, groups = _totals(data)
    out.append("")
    out += text_table(("Provider", "Monthly"), providers, frozenset({1}))
    out.append("")
    out += text_table((f"Tag {t['group_by']}", "Monthly"), groups, frozenset({1}))
    out.append("")
    unpriced = f" ({t['unpriced_resources']} not priced)" if t["unpriced_resources"] else ""
    out.append(f"Total: {money(t['monthly_usd'])}/month for {len(rows)} GPU resources{unpriced}")
    if data.get("options"):
        out += ["", _options_title(data),
                *text_table(OPTION_HEADERS, _option_rows(data), frozenset({3}))]
    out.append(price_note(data))
    return "\n".join(out) + "\n"


def render_markdown(data: dict[str, Any]) -> str:
    from gpulint.reporters.text import price_note

    t = data["totals"]
    out = ["## GPU cost", ""]
    out += markdown_table(HEADERS, [_cells(r) for r in data["resources"]], NUMERIC)
    details = [f"- `{r['address']}`: " + (f"not priced: {r['unpriced_reason']}"
                                          if r["unpriced_reason"] else str(r["basis"]))
               for r in data["resources"]]
    if details:
        out += ["", "<details><summary>Price basis per resource</summary>", "", *details,
                "", "</details>"]
    providers, groups = _totals(data)
    right = frozenset({1})  # the money column
    out += ["", "### By provider", "", *markdown_table(("Provider", "Monthly"), providers, right)]
    out += ["", f"### By tag `{t['group_by']}`", "",
            *markdown_table((t["group_by"], "Monthly"), groups, right)]
    unpriced = f" ({t['unpriced_resources']} not priced)" if t["unpriced_resources"] else ""
    out += ["", f"**Total: {money(t['monthly_usd'])}/month**{unpriced}"]
    if data.get("options"):
        out += ["", f"### {_options_title(data)}", "",
                *markdown_table(OPTION_HEADERS, _option_rows(data), frozenset({3}))]
    out += ["", f"_{price_note(data)}_"]
    return "\n".join(out) + "\n"


def _check_group_by(report: dict[str, Any], tag: str) -> None:
    """A --group-by tag no GPU resource carries is most likely misspelt: said, with the
    nearest tag the resources have."""
    from gpulint.files.words import did_you_mean

    keys = {k for r in report["resources"] if isinstance(r.get("tags"), dict) for k in r["tags"]}
    if keys and tag not in keys:
        click.echo(f"gpulint: no GPU resource has the tag {tag!r}{did_you_mean(tag, keys)}; "
                   "every one is totalled as (untagged)", err=True)


@click.command("cost")
@click.argument("paths", nargs=-1, type=click.Path(), is_eager=True)
@click.option("--format", "fmt", type=click.Choice((*reporters.TABLE_FORMATS, "csv")),
              default="text", show_default=True,
              help="csv: one row per resource (expected, low and high monthly cost, saving, "
                   "price basis) for spreadsheets.")
@click.option("--sort", type=click.Choice(SORTS), default=None,
              help="Order the resources: cost (expected monthly, largest first), saving "
                   "(largest first) or path [default: as scanned].")
@click.option("--group-by", default="team", show_default=True, metavar="TAG",
              help="Tag or label whose values the totals are grouped by.")
@output_option
@click.option("--brief", is_flag=True, help="Text output: leave out the price basis lines.")
@scan_flags
def cost(paths: tuple[str, ...], fmt: str, sort: str | None, group_by: str,
         output: str | None, brief: bool, **kwargs: Any) -> None:
    """Monthly GPU cost of PATHS (default: the current directory): count × hourly × hours per
    resource, with totals per provider and per team tag."""
    from gpulint import pipeline as scan_mod
    from gpulint.cli.common import configured_rules
    from gpulint.pricing.breakdown import breakdown
    from gpulint.report import build as report_mod

    targets = list(paths) or ["."]
    settings = build_settings(kwargs, targets)
    result = scan_mod.run(targets, configured_rules(settings), settings)
    report = report_mod.build(result, settings.pricing.hours)
    data = breakdown(report, group_by)
    _check_group_by(report, group_by)
    cost_csv.enrich(data, report)
    data["resources"] = cost_csv.sort_rows(data["resources"], sort)
    if fmt == "csv":  # rows for spreadsheets: `cost` only, not a table format of `diff`
        output_mod.emit(cost_csv.render(data), output)
        return
    output_mod.emit(writers(report, data, group_by, brief)[fmt](), output)


def writers(report: dict[str, Any], data: dict[str, Any], group_by: str,
            brief: bool) -> dict[str, Callable[[], str]]:
    """format → its rendering of the cost tables, for each of reporters.TABLE_FORMATS
    (tested)."""
    def page() -> str:
        from gpulint.reporters import html

        return str(html.render(report, group_by))

    return {"text": lambda: render_text(data, verbose=not brief),
            "json": lambda: json.dumps(data, indent=2) + "\n",
            "markdown": lambda: render_markdown(data), "html": page}
