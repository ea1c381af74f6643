"""`gpulint cost --format csv` and `--sort`, through the CLI: one row per resource, the same
figures as the JSON breakdown, min/max columns when the report has them, formulas defused."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli, cost_csv


def _cost(*args: str) -> str:
    result = CliRunner().invoke(cli, ["cost", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_one_row_per_resource_with_the_breakdown_figures(repo: Path) -> None:
    rows = _rows(_cost("infra", "--format", "csv"))
    data = json.loads(_cost("infra", "--format", "json"))
    assert [r["address"] for r in rows] == [r["address"] for r in data["resources"]]
    for row, want in zip(rows, data["resources"], strict=True):
        assert float(row["monthly_usd"]) == pytest.approx(want["monthly_usd"])
        assert float(row["hourly_usd"]) == pytest.approx(want["hourly_usd"])
        assert row["basis"] == want["basis"] and row["tag_team"] == want["group"]
    # The report carries each resource's high end (autoscaling at its maximum).
    assert "monthly_max_usd" in rows[0]
    # The on-demand training instance has a finding with a saving; the other has none.
    saving = {r["address"]: r["saving_usd"] for r in rows}
    assert float(saving["aws_instance.train"]) > 0 and saving["aws_instance.untagged"] == ""


@pytest.mark.parametrize("how", ["cost", "saving", "path"])
def test_sort(repo: Path, how: str) -> None:
    rows = _rows(_cost("infra", "--format", "csv", "--sort", how))
    if how == "cost":
        costs = [float(r["monthly_usd"]) for r in rows]
        assert costs == sorted(costs, reverse=True)
    elif how == "saving":
        savings = [float(r["saving_usd"] or 0) for r in rows]
        assert savings == sorted(savings, reverse=True)
    else:
        assert [r["path"] for r in rows] == sorted(r["path"] for r in rows)
    # The text table follows the same order.
    text = _cost("infra", "--sort", how, "--brief")
    order = [line.split()[0] for line in text.splitlines() if line.startswith("aws_instance.")]
    assert order == [r["address"] for r in rows]


def test_min_and_max_columns_when_the_report_has_them() -> None:
    data = {"resources": [{"address": "a", "path": "p", "line": 1, "monthly_usd": 10.0}],
            "totals": {"group_by": "team"}}
    report = {"findings": [], "resources": [{"address": "a", "path": "p",
                                             "monthly_cost_min_usd": 5.0,
                                             "monthly_cost_max_usd": 20.0}]}
    cost_csv.enrich(data, report)
    [row] = _rows(cost_csv.render(data))
    assert (row["monthly_min_usd"], row["monthly_usd"], row["monthly_max_usd"]) == \
        ("5", "10", "20")
    del report["resources"][0]["monthly_cost_min_usd"]
    data["resources"][0].pop("monthly_min_usd")
    cost_csv.enrich(data, report)
    assert "monthly_min_usd" not in _rows(cost_csv.render(data))[0]


def test_text_from_the_scanned_files_cannot_be_a_formula(repo: Path) -> None:
    shutil.move(str(repo / "infra"), str(repo / "=HYPERLINK(1)"))
    rows = _rows(_cost(".", "--format", "csv"))
    assert rows and all(r["path"].startswith("'=HYPERLINK(1)/") for r in rows)


def test_unknown_sort_is_a_usage_error(repo: Path) -> None:
    result = CliRunner().invoke(cli, ["cost", "infra", "--sort", "price"])
    assert result.exit_code == 2
