"""Monthly cost of real fixtures: each provider, each spot form, node counts, autoscaling bounds,
count/for_each. Every figure is checked against its catalog row, region and hours, through the
basis string the report prints."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint import savings, units
from gpulint.config.cost import CostOptions
from gpulint.config.overrides import parse
from gpulint.config.settings import Settings
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog
from gpulint.pricing import price as cost
from gpulint.pricing.catalog_report import basis_source
from gpulint.ruleset import load_rules

HERE = os.path.join(os.path.dirname(__file__), "cost")


def _scan(name: str, **options: object) -> dict[str, Resource]:
    result = scan.run([os.path.join(HERE, name)], [], Settings(pricing=CostOptions(**options)))  # type: ignore[arg-type]
    return {r.address: r for r in result.resources}


def _check(res: Resource, provider: str, itype: str, region: str, capacity: str, count: float,
           hours: float = 730.0) -> float:
    """The monthly figure equals catalog row × count × hours, and the basis says so."""
    row = catalog.price(provider, itype, region)
    assert row is not None
    hourly = row.spot if capacity == "spot" else row.ondemand
    assert hourly is not None
    expected = round(hourly * count * hours, 2)
    assert res.facts["cost.monthly"] == expected
    assert res.facts["cost.hourly"] == hourly
    basis = res.facts["cost.basis"]
    assert basis.startswith(f"{provider} {itype} {region} ")
    assert f" {capacity} {units.usd_rate(hourly)}/h × {count:g}" in basis
    assert f"× {hours:g} h" in basis and f"= ${expected:,.2f}/month" in basis
    assert basis.endswith(basis_source(provider))  # its source and that source's date
    return expected


def test_aws_on_demand_spot_and_eks_autoscaling() -> None:
    rs = _scan("aws")
    _check(rs["aws_instance.ondemand"], "aws", "g5.xlarge", "us-west-2", "on-demand", 1)
    _check(rs["aws_instance.spot"], "aws", "g5.xlarge", "us-west-2", "spot", 1)
    pool = rs["aws_eks_node_group.spot_pool"]
    # min 2, desired 3, max 6: expected at the desired size, with both ends of the range kept
    expected = _check(pool, "aws", "p4d.24xlarge", "us-west-2", "spot", 3)
    assert "(autoscaling 2–6 nodes, priced at the desired count)" in pool.facts["cost.basis"]
    assert pool.facts["cost.monthly_min"] == round(expected / 3 * 2, 2)
    assert pool.facts["cost.monthly_max"] == round(expected / 3 * 6, 2)
    assert "(region from code)" in pool.facts["cost.basis"]
    _check(rs["aws_eks_node_group.fixed"], "aws", "g6.xlarge", "us-west-2", "on-demand", 3)


def test_gcp_bundled_attached_spot_forms_and_regional_pools() -> None:
    rs = _scan("gcp")
    _check(rs["google_compute_instance.bundled"], "gcp", "a2-highgpu-1g", "us-central1",
           "on-demand", 1)
    # n1 host + 2 attached T4s, preemptible = spot column of both rows
    t4 = rs["google_compute_instance.attached_preemptible"]
    host = catalog.gcp_host_price("n1-standard-8", "us-east1")
    gpu = catalog.gcp_accelerator_price("nvidia-tesla-t4", "us-east1")
    assert host and gpu and host.spot and gpu.spot
    hourly = round(host.spot + 2 * gpu.spot, 6)
    assert t4.facts["cost.monthly"] == round(hourly * 730, 2)
    assert t4.facts["cost.basis"].startswith(
        f"gcp n1-standard-8 + 2× nvidia-tesla-t4 us-east1 (region from code) spot "
        f"{units.usd_rate(hourly)}/h × 1 × 730 h")
    # no zone on the instance: the provider's region
    _check(rs["google_compute_instance.provisioning_spot"], "gcp", "g2-standard-8",
           "europe-west4", "spot", 1)
    regional = rs["google_container_node_pool.regional_spot"]
    _check(regional, "gcp", "g2-standard-4", "us-central1", "spot", 3)
    assert "(× 3 zones)" in regional.facts["cost.basis"]
    _check(rs["google_container_node_pool.zonal_autoscaled"], "gcp", "g2-standard-4",
           "us-central1", "on-demand", 1)


def test_azure_spot_display_location_default_region_and_unknown_region() -> None:
    rs = _scan("azure")
    _check(rs["azurerm_linux_virtual_machine.spot"], "azure", "Standard_NC24ads_A100_v4",
           "westeurope", "spot", 1)
    pool = rs["azurerm_kubernetes_cluster_node_pool.autoscale"]
    # autoscaling 0–4 with node_count 1: expected at 1 node, the range from $0
    one = _check(pool, "azure", "Standard_NC24ads_A100_v4", "eastus", "on-demand", 1)
    assert pool.facts["cost.monthly_min"] == 0.0
    assert pool.facts["cost.monthly_max"] == round(one * 4, 2)
    assert "(default region)" in pool.facts["cost.basis"]
    unknown = rs["azurerm_linux_virtual_machine.unknown_region"]
    assert isinstance(unknown.facts["cost.monthly"], Unknown)
    assert "variable location" in unknown.facts["cost.monthly"].reason
    assert ("cost.monthly", unknown.facts["cost.monthly"].reason) in unknown.unknowns


def test_configured_default_region_replaces_the_builtin_one() -> None:
    pool = _scan("azure", default_regions={"azure": "westus2"})[
        "azurerm_kubernetes_cluster_node_pool.autoscale"]
    assert pool.facts["region"] == "westus2" and pool.facts["region.source"] == "config"
    assert "westus2 (configured default region)" in pool.facts["cost.basis"]


def test_count_and_for_each_price_each_instance() -> None:
    rs = _scan("expansion")
    for i in range(3):
        _check(rs[f"aws_instance.counted[{i}]"], "aws", "g6.xlarge", "eu-west-2", "on-demand", 1)
    _check(rs['aws_instance.each["big"]'], "aws", "g5.12xlarge", "eu-west-2", "on-demand", 1)
    _check(rs['aws_instance.each["small"]'], "aws", "g5.xlarge", "eu-west-2", "on-demand", 1)


def test_kubernetes_spot_selectors_share_of_node_and_cheapest_gpu_hour() -> None:
    rs = _scan("k8s.yaml")
    serve = rs["Deployment/serve"]
    node = catalog.price("aws", "g5.12xlarge", "us-east-1")
    assert node and node.spot
    hourly = node.spot * 2 / 4  # 2 of the node's 4 GPUs, karpenter spot selector
    assert serve.facts["cost.monthly"] == round(hourly * 3 * 730, 2)
    assert serve.facts["cost.basis"].startswith(
        "2/4 GPUs of aws g5.12xlarge us-east-1 (default region) spot")
    job = rs["Job/gke-spot"]
    # The GKE accelerator label keeps the pod on GCP, in GCP's default region, on the cheapest
    # node there with one L4 (never the cheapest L4 in some other region).
    row = catalog.price("gcp", "g2-standard-4", "us-central1")
    assert row and row.spot
    assert job.facts["cost.monthly"] == round(row.spot * 730, 2)
    assert job.facts["cost.basis"].startswith("1/1 GPUs of gcp g2-standard-4 us-central1 "
                                              "(the cheapest gcp node with ≥ 1 L4; default region)")


def test_hours_per_workload_and_per_address_glob() -> None:
    rs = _scan("expansion", hours_by_address={"aws_instance.counted[*]": 100,
                                              'aws_instance.each["big"]': 50},
               hours_by_workload={"dev": 10})
    counted = rs["aws_instance.counted[1]"]
    _check(counted, "aws", "g6.xlarge", "eu-west-2", "on-demand", 1, hours=100)
    assert "× 100 h (hours for aws_instance.counted[*])" in counted.facts["cost.basis"]
    big = rs['aws_instance.each["big"]']
    _check(big, "aws", "g5.12xlarge", "eu-west-2", "on-demand", 1, hours=50)
    notebook = _scan("aws", hours_by_workload={"training": 200})
    # no workload tag: the default applies
    assert "× 730 h (default hours)" in notebook["aws_instance.ondemand"].facts["cost.basis"]


def test_workload_hours_feed_the_notebook_saving() -> None:
    fixture = os.path.join(os.path.dirname(__file__), "rules", "gpu-notebook-without-shutdown")
    rules = [r for r in load_rules() if r.id == "gpu-notebook-without-shutdown"]
    full = scan.run([fixture], rules)
    part = scan.run([fixture], rules,
                    Settings(pricing=CostOptions(hours_by_workload={"notebook": 400})))
    f_full = {f.address: f for f in full.findings}
    f_part = {f.address: f for f in part.findings}
    assert f_full and f_full.keys() == f_part.keys()
    for address, f in f_part.items():
        res = next(r for r in part.resources if r.address == address)
        monthly = res.facts["cost.monthly"]
        if isinstance(monthly, (int, float)) and monthly:
            # saving = cost at 400 h minus cost at the rule's 176 h
            assert f.monthly_saving_usd == round(monthly * (1 - 176 / 400), 2)
            assert f.saving_basis == "used 176 h of 400 h a month"


def _resource(facts: dict[str, object]) -> Resource:
    res = Resource("aws_autoscaling_group.mixed", "aws_autoscaling_group", "asg.tf", 1,
                   "terraform")
    res.facts.update({"provider": "aws", "region": "us-east-1", "region.source": "code",
                      "instance.type": "g5.xlarge", "capacity": "on-demand",
                      "replicas.desired": 4, **facts})
    return res


def test_spot_fraction_blends_the_two_prices() -> None:
    res = _resource({"capacity.spot_fraction": 0.75})
    cost.price_resource(res)
    row = catalog.price("aws", "g5.xlarge", "us-east-1")
    assert row and row.spot and row.ondemand
    blended = round(0.75 * row.spot + 0.25 * row.ondemand, 6)
    assert res.facts["cost.monthly"] == round(blended * 4 * 730, 2)
    assert (f"mixed 75% spot {units.usd_rate(row.spot)}/h + 25% on-demand "
            f"{units.usd_rate(row.ondemand)}/h = {units.usd_rate(blended)}/h × 4") \
        in res.facts["cost.basis"]
    saving, basis = savings.finding_saving(res, {"capacity": "spot"})
    assert saving == round((row.ondemand - row.spot) * 4 * 730 * 0.25, 2)
    assert basis and "25% on-demand share" in basis


@pytest.mark.parametrize("fraction,capacity", [(1.0, "spot"), (0.0, "on-demand")])
def test_whole_spot_fractions_are_plain_capacities(fraction: float, capacity: str) -> None:
    res = _resource({"capacity.spot_fraction": fraction})
    cost.price_resource(res)
    assert f" {capacity} $" in res.facts["cost.basis"]


def test_unknown_spot_fraction_is_not_priced() -> None:
    res = _resource({"capacity.spot_fraction": Unknown("var.spot_share has no value")})
    cost.price_resource(res)
    assert res.facts["cost.monthly"] == Unknown("spot share unknown: var.spot_share has no value")


def test_low_priority_is_priced_as_spot() -> None:
    res = _resource({"capacity": "low-priority"})
    cost.price_resource(res)
    assert " spot $" in res.facts["cost.basis"]


def test_override_named_in_basis_and_used_for_savings() -> None:
    overrides = parse("overrides:\n"
                      "  - provider: aws\n    family: g5\n    discount_percent: 20\n"
                      "    note: EDP\n", "prices.yaml")
    res = _resource({})
    cost.price_resource(res, options=CostOptions(overrides=overrides))
    row = catalog.price("aws", "g5.xlarge", "us-east-1")
    assert row and row.ondemand and row.spot
    discounted = round(row.ondemand * 0.8, 6)
    assert res.facts["cost.monthly"] == round(discounted * 4 * 730, 2)
    assert (f"on-demand {units.usd_rate(discounted)}/h [override prices.yaml:2 (aws family g5 "
            f"on-demand -20%, EDP): list {units.usd_rate(row.ondemand)}/h]"
            ) in res.facts["cost.basis"]
    saving, basis = savings.finding_saving(res, {"capacity": "spot"})
    assert saving == round((discounted - row.spot) * 4 * 730, 2)
    assert basis and basis.endswith("[override prices.yaml:2 (aws family g5 on-demand -20%, EDP): "
                                    f"list {units.usd_rate(row.ondemand)}/h]")


def test_type_not_priced_in_region_says_where_it_is() -> None:
    res = _resource({"instance.type": "g6.xlarge", "region": "eu-west-1"})
    cost.price_resource(res)
    n = len(catalog.regions("aws", "g6.xlarge"))
    assert res.facts["cost.monthly"] == Unknown(
        f"no aws price for g6.xlarge in eu-west-1 (priced in {n} other regions)")


def test_region_from_provider_alias_variable_and_provider_zone() -> None:
    rs = _scan("regions")
    # provider = aws.west, whose region comes from a variable default
    _check(rs["aws_instance.a"], "aws", "g5.xlarge", "us-west-2", "on-demand", 1)
    # google provider with only a zone: the zone's region
    z = rs["google_compute_instance.z"]
    _check(z, "gcp", "g2-standard-4", "europe-west4", "on-demand", 1)
    assert "europe-west4 (region from code)" in z.facts["cost.basis"]


def test_rightsizing_alternative_priced_with_the_same_overrides() -> None:
    fixture = os.path.join(os.path.dirname(__file__), "rules", "gpu-oversized-for-model")
    rules = [r for r in load_rules() if r.id == "gpu-oversized-for-model"]
    plain = scan.run([fixture], rules)
    found = next(f for f in plain.findings if f.monthly_saving_usd)
    res = next(r for r in plain.resources if r.address == found.address)
    alt = res.facts["sizing.alternative"]
    overrides = parse(f"overrides:\n  - provider: {res.facts['provider']}\n"
                      f"    instance_type: {alt}\n    hourly_usd: 0.25\n", "o.yaml")
    again = scan.run([fixture], rules, Settings(pricing=CostOptions(overrides=overrides)))
    res2 = next(r for r in again.resources if r.address == found.address)
    fd2 = next(f for f in again.findings if f.address == found.address and f.rule == found.rule)
    assert res2.facts["sizing.alternative"] == alt
    count = res2.facts["cost.count"]
    alt2 = res2.facts["alternative.sizing"]
    assert alt2.monthly == round(0.25 * max(count, 1) * 730, 2)
    assert fd2.monthly_saving_usd == round(
        res2.facts["cost.monthly"] - alt2.monthly, 2)


def test_tpu_slice_priced_per_slice_hour() -> None:
    region = next(iter(catalog.price_table("gcp-accelerator", "tpu-v6e-8")))
    res = Resource("google_tpu_v2_vm.tpu", "google_tpu_v2_vm", "tpu.tf", 1, "terraform")
    res.facts.update({"provider": "gcp", "region": region, "region.source": "code",
                      "instance.type": "v6e-8", "capacity": "spot", "replicas.desired": 1})
    cost.price_resource(res)
    row = catalog.gcp_accelerator_price("tpu-v6e-8", region)
    assert row and row.spot
    assert res.facts["cost.monthly"] == round(row.spot * 730, 2)
    assert res.facts["cost.basis"].startswith(
        f"gcp tpu-v6e-8 slice {region} (region from code) spot")
    res.facts["region"] = "mars-north1"
    cost.price_resource(res)
    assert "no gcp price for TPU slice tpu-v6e-8 in mars-north1" in res.facts["cost.monthly"].reason
