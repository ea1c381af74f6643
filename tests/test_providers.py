"""One list of clouds (providers.py): the schemas, flags and pricing overrides agree with it."""

from __future__ import annotations

import json
from importlib import resources

import click
import pytest

from gpulint import providers
from gpulint.config import overrides
from gpulint.pricing import catalog


def _config_schema() -> dict:
    return json.loads(resources.files("gpulint").joinpath("schemas/config.schema.json")
                      .read_text(encoding="utf-8"))


def test_config_schema_names_every_cloud_and_no_other() -> None:
    props = _config_schema()["properties"]
    assert tuple(props["regions"]["properties"]) == providers.NAMES
    required = props["tags"]["properties"]["required"]["anyOf"][1]["properties"]
    assert tuple(required) == (*providers.NAMES, "kubernetes", "default")


def test_cluster_clouds_and_report_providers_are_the_list() -> None:
    cluster = _config_schema()["properties"]["clusters"]["items"]["properties"]
    assert tuple(cluster["cloud"]["enum"]) == providers.NAMES
    report = json.loads(resources.files("gpulint").joinpath("schemas/report.schema.json")
                        .read_text(encoding="utf-8"))
    enums = [n["enum"] for n in _walk(report) if isinstance(n, dict)
             and isinstance(n.get("enum"), list) and "kubernetes" in n["enum"]]
    assert enums == [[*providers.NAMES, "kubernetes", "databricks"]]


def _walk(node: object) -> list[object]:
    out = [node]
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    for child in children:
        out += _walk(child)
    return out


def test_terraform_provider_blocks_name_their_cloud() -> None:
    from gpulint.facts.terraform import provider_regions

    assert provider_regions._CLOUDS == {"aws": "aws", "google": "gcp", "google-beta": "gcp",
                                        "azurerm": "azure", "oci": "oci",
                                        "coreweave": "coreweave", "nebius": "nebius"}
    # Lambda is priced from Kubernetes labels only: gpulint reads no Terraform provider of it.
    assert {c.name for c in providers.CLOUDS if c.terraform_providers} == \
        set(provider_regions._CLOUDS.values()) == set(providers.NAMES) - {"lambda"}


def test_every_cloud_has_a_catalog_default_region() -> None:
    for cloud in providers.CLOUDS:
        assert cloud.default_region == catalog.default_region(cloud.name)


def test_cli_choices_and_overrides_come_from_the_list() -> None:
    from gpulint.cli.catalog import catalog_cmd
    from gpulint.cli.explain import explain_model

    for command in (catalog_cmd.commands["lookup"], explain_model):
        option = next(p for p in command.params if p.name in ("provider", "providers"))
        assert isinstance(option.type, click.Choice)
        assert tuple(option.type.choices) == providers.NAMES
    assert overrides.PROVIDERS == providers.NAMES


@pytest.mark.parametrize(("name", "written", "expected"), [
    ("azure", "Standard_NC24ads_A100_v4", "standard_nc24ads_a100_v4"),
    ("aws", "p4d.24xlarge", "p4d.24xlarge"),
])
def test_instance_name_case_rule(name: str, written: str, expected: str) -> None:
    cloud = providers.get(name.upper())
    assert cloud is not None and cloud.instance_name(written) == expected


def test_unknown_cloud() -> None:
    assert providers.get("ibm") is None
    assert providers.listing() == "aws, gcp, azure, oci, coreweave, lambda or nebius"
