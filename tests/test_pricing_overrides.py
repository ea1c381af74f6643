"""The pricing overrides file: matching, precedence, validation with file and line."""

from __future__ import annotations

import os
import textwrap

import pytest

from gpulint.config.overrides import OverridesError, load, parse

EXAMPLE = textwrap.dedent("""\
    version: 1
    overrides:
      - provider: aws
        discount_percent: 10
        capacity: any
        note: enterprise discount
      - provider: aws
        family: p4d
        hourly_usd: 12.5
        note: 1-year reserved
      - provider: aws
        instance_type: p4d.24xlarge
        capacity: spot
        discount_percent: 5
      - provider: azure
        instance_type: Standard_NC*_A100_v4
        discount_percent: 30
      - provider: gcp
        family: a3
        discount_percent: 15
      - provider: gcp
        family: a3-highgpu
        discount_percent: 25
""")


@pytest.fixture()
def rules() -> object:
    return parse(EXAMPLE, "prices.yaml")


def test_most_specific_rule_wins(rules: object) -> None:
    find = rules.find  # type: ignore[attr-defined]
    assert find("aws", "p4d.24xlarge", "on-demand").hourly_usd == 12.5  # family beats provider
    assert find("aws", "p4d.24xlarge", "spot").discount_percent == 5  # exact type beats all
    assert find("aws", "g5.xlarge", "spot").discount_percent == 10  # capacity any
    assert find("gcp", "a3-highgpu-8g", "on-demand").discount_percent == 25  # longer family
    assert find("gcp", "a3-megagpu-8g", "on-demand").discount_percent == 15
    assert find("gcp", "a2-highgpu-1g", "on-demand") is None


def test_family_stops_at_a_separator(rules: object) -> None:
    rule = rules.find("aws", "p4de.24xlarge", "on-demand")  # type: ignore[attr-defined]
    assert rule is not None and rule.family is None  # only the provider-wide rule


def test_azure_names_are_case_insensitive_and_globs_work(rules: object) -> None:
    rule = rules.find("azure", "standard_nc24ads_a100_v4", "on-demand")  # type: ignore[attr-defined]
    assert rule is not None and rule.discount_percent == 30
    assert rules.find("azure", "Standard_ND96asr_v4", "on-demand") is None  # type: ignore[attr-defined]


def test_apply_and_describe(rules: object) -> None:
    rule = rules.find("aws", "p4d.24xlarge", "on-demand")  # type: ignore[attr-defined]
    assert rule.apply(21.957642) == 12.5
    assert rule.describe("prices.yaml") == \
        "override prices.yaml:7 (aws family p4d on-demand $12.5/h, 1-year reserved)"
    spot = rules.find("aws", "p4d.24xlarge", "spot")  # type: ignore[attr-defined]
    assert spot.apply(6.289) == round(6.289 * 0.95, 6)


@pytest.mark.parametrize("body,message", [
    ("overrides:\n  - provider: oracle\n    discount_percent: 5\n",
     "prices.yaml:2: overrides\\[0\\].provider: must"),
    ("overrides:\n  - provider: aws\n", "prices.yaml:2: overrides\\[0\\]: set exactly one of"),
    ("overrides:\n  - provider: aws\n    discount_percent: 5\n    hourly_usd: 1\n",
     "exactly one"),
    ("overrides:\n  - provider: aws\n    discount_percent: 120\n", "below 100"),
    ("overrides:\n  - provider: aws\n    hourly_usd: -1\n", "must not be negative"),
    ("overrides:\n  - provider: aws\n    hourly_usd: cheap\n", "must be a number"),
    ("overrides:\n  - provider: aws\n    discount: 5\n", "unknown key(s): discount"),
    ("overrides:\n  - provider: aws\n    capacity: reserved\n    discount_percent: 5\n",
     "capacity: must be one of"),
    ("overrides:\n  - provider: aws\n    family: p4\n    instance_type: p4d.24xlarge\n"
     "    discount_percent: 5\n", "either family or instance_type"),
    ("discounts: []\n", "prices.yaml:1: expected a mapping with an 'overrides' list"),
    ("overrides:\n  - provider: aws\n  discount_percent: [\n", "prices.yaml:3: invalid YAML"),
    ("overrides:\n  - ok\n", "must be a mapping"),
])
def test_bad_files_name_the_line(body: str, message: str) -> None:
    with pytest.raises(OverridesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(body, "prices.yaml")


def test_empty_file_and_missing_file(tmp_path: object) -> None:
    assert parse("", "x.yaml").rules == ()
    with pytest.raises(OverridesError, match="cannot read pricing overrides"):
        load(os.path.join(str(tmp_path), "missing.yaml"))
