"""Provider blocks are read the same from HCL and from plan JSON: the Terraform layer hands
them on as written and facts/terraform/providers.py says what each cloud's arguments mean."""

from __future__ import annotations

from typing import Any

import pytest

from gpulint.facts.terraform.providers import ProviderConfig, interpret
from gpulint.load.plan import load_plan
from gpulint.terraform.expressions import Scope
from gpulint.terraform.parser import parse_hcl
from gpulint.terraform.views import BlockView, ProviderBlock

CASES = [
    # (HCL provider block, plan provider_config expressions, expected)
    ('provider "aws" {\n  region = "eu-west-1"\n  default_tags {\n    tags = { team = "ml" }\n'
     '  }\n}\n',
     {"region": {"constant_value": "eu-west-1"},
      "default_tags": [{"tags": {"constant_value": {"team": "ml"}}}]},
     ProviderConfig("aws", "eu-west-1", {"team": "ml"})),
    # A google provider that names only a zone: the zone names the region.
    ('provider "google" {\n  project = "research"\n  zone = "europe-west4-a"\n'
     '  default_labels = { cost-center = "r-and-d" }\n}\n',
     {"project": {"constant_value": "research"}, "zone": {"constant_value": "europe-west4-a"},
      "default_labels": {"constant_value": {"cost-center": "r-and-d"}}},
     ProviderConfig("google", "europe-west4-a", {"cost-center": "r-and-d"})),
    # Azure sets a location per resource; the provider block has none.
    ('provider "azurerm" {\n  features {}\n}\n', {},
     ProviderConfig("azurerm", None, {})),
]


def _from_hcl(text: str) -> ProviderBlock:
    block = parse_hcl(text).blocks[0]
    return ProviderBlock(block.labels[0], BlockView(block, Scope({})))


def _from_plan(name: str, expressions: dict[str, Any]) -> ProviderBlock:
    data = {"format_version": "1.2", "resource_changes": [{
        "address": "null_resource.x", "mode": "managed", "type": "null_resource", "name": "x",
        "change": {"actions": ["create"], "before": None, "after": {}}}],
        "configuration": {"provider_config": {name: {"name": name,
                                                     "expressions": expressions}}}}
    instances, _ = load_plan("plan.json", "{}", data)
    return instances[0].providers[name]


@pytest.mark.parametrize("hcl, expressions, expected", CASES)
def test_provider_blocks_from_hcl_and_plan(hcl: str, expressions: dict[str, Any],
                                           expected: ProviderConfig) -> None:
    assert interpret(_from_hcl(hcl)) == expected
    assert interpret(_from_plan(expected.name, expressions)) == expected


def test_plan_region_from_a_variable_the_plan_does_not_record() -> None:
    block = _from_plan("aws", {"region": {"references": ["local.region"]}})
    region = interpret(block).region
    assert getattr(region, "reason", "") == \
        "refers to local.region, which the plan does not record as a value"
