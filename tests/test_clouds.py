"""Oracle OCI and the GPU clouds (CoreWeave, Lambda, Nebius): their resources are found, linked
and priced, each figure recomputed here from the public list price it comes from.

List prices used below (USD per hour, on demand unless said):
- OCI, skypilot-org/skypilot-catalog catalogs/v8/oci/vms.csv @0588751 (undated table, read
  2026-11-27; the same in every region it lists, as Oracle's price list has it):
  BM.GPU.H100.8 80.00 (8× H100: 10.00 per GPU-hour), BM.GPU.A100-v2.8 32.00
  (8× A100 80GB: 4.00 per GPU-hour), VM.GPU3.1 2.95, preemptible 1.475.
- CoreWeave, coreweave/kubernetes-cloud resources/resource-based-pricing.md @fedad6a
  (2023-05-24): A100_NVLINK_80GB 2.21 per GPU-hour, vCPU 0.010, system RAM 0.005 per GB.
- Nebius, skypilot-org/skypilot-catalog catalogs/v8/nebius/vms.csv @0082b04 (undated, read
  2026-11-27): gpu-h100-sxm 8gpu-128vcpu-1600gb 23.60; gpu-h200-sxm 1gpu-16vcpu-200gb 3.50,
  preemptible 1.45.
- Lambda, anycloud-sh/catalog lambda/vms.csv @62ff0a9 ("Update catalogs 2026-05-20", read
  2026-11-27): gpu_8x_h100_sxm5 31.92 in each of its 17 regions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.catalog_build.common import Known, Notes
from gpulint.catalog_build.flat import build_flat
from gpulint.catalog_build.tables import parse
from gpulint.cli import cli
from gpulint.facts.kubernetes.accelerators import quantity
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.pricing.shape import only_cloud
from gpulint.providers import ANY_REGION, get

CLOUDS = os.path.join(os.path.dirname(__file__), "clouds")
HOURS = 730


@pytest.fixture(autouse=True)
def bundled() -> Iterator[None]:
    catalog.use_catalog_file(None)
    yield
    catalog.use_catalog_file(None)


def _resources(directory: str) -> dict[str, dict]:
    result = scan.run([os.path.join(CLOUDS, directory)], [])
    return {r.address: r.facts for r in result.resources}


def test_oci_instance_node_pool_and_instance_pool_are_priced() -> None:
    found = _resources("oci")
    trainer = found["oci_core_instance.trainer"]
    assert (trainer["provider"], trainer["instance.type"], trainer["gpu.model"],
            trainer["gpu.count"]) == ("oci", "BM.GPU.H100.8", "H100", 8)
    assert trainer["region"] == "us-ashburn-1"  # from the provider block
    assert trainer["cost.monthly"] == pytest.approx(8 * 10.00 * HOURS)  # 58,400
    assert trainer["tags"] == {"Operations.CostCenter": "42", "team": "research",
                               "workload": "training"}
    pool = found["oci_containerengine_node_pool.gpu"]
    assert pool["cost.monthly"] == pytest.approx(2 * 8 * 4.00 * HOURS)  # 2 nodes: 46,720
    assert pool["tags"]["team"] == "inference"  # node_config_details tags go on the nodes
    assert pool["node.labels"] == {"node.kubernetes.io/instance-type": "BM.GPU.A100-v2.8",
                                   "pool": "gpu-a100"}
    batch = found["oci_core_instance_pool.a10"]  # its shape is the configuration's
    assert (batch["instance.type"], batch["capacity"]) == ("VM.GPU3.1", "spot")
    assert batch["cost.monthly"] == pytest.approx(3 * 1.475 * HOURS)
    assert "oci_core_instance_configuration.a10" not in found  # priced through its pool


def test_a_pod_on_an_oke_pool_is_linked_and_pays_its_share() -> None:
    pod = _resources("oci")["Deployment/vllm-a100"]
    assert pod["node_pool"] == "oci_containerengine_node_pool.gpu"
    assert (pod["provider.cloud"], pod["instance.type"]) == ("oci", "BM.GPU.A100-v2.8")
    assert pod["cost.hourly"] == pytest.approx(4 / 8 * 32.00)  # 4 of the node's 8 GPUs
    assert "one list price in every region" in pod["cost.basis"]


def test_coreweave_pod_pays_gpu_class_cpu_and_memory() -> None:
    pod = _resources("coreweave")["Deployment/llama-a100"]
    assert (pod["provider.cloud"], pod["instance.type"], pod["gpu.model"]) == \
        ("coreweave", "A100_NVLINK_80GB", "A100-80GB")
    assert (pod["pod.cpu"], pod["pod.memory_gib"]) == (8, 64)
    expected = 2 * 2.21 + 8 * 0.010 + 64 * 0.005  # 4.82 USD/h
    assert pod["cost.hourly"] == pytest.approx(expected)
    assert pod["cost.monthly"] == pytest.approx(expected * HOURS)


def test_an_unknown_coreweave_class_is_not_guessed(tmp_path: Path) -> None:
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        "  nodeSelector: {gpu.nvidia.com/class: A200_NVLINK}\n"
        "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]\n")
    pod = scan.run([str(tmp_path)], []).resources[0].facts
    assert isinstance(pod["gpu.model"], Unknown)
    assert "'A200_NVLINK' is not a CoreWeave GPU class" in pod["gpu.model"].reason
    assert isinstance(pod["cost.monthly"], Unknown)


def test_nebius_instance_and_node_group_are_priced() -> None:
    found = _resources("nebius")
    trainer = found["nebius_compute_v1_instance.trainer"]
    assert trainer["instance.type"] == "gpu-h100-sxm_8gpu-128vcpu-1600gb"
    assert (trainer["gpu.model"], trainer["gpu.count"]) == ("H100", 8)
    assert trainer["cost.monthly"] == pytest.approx(23.60 * HOURS)
    group = found["nebius_mk8s_v1_node_group.gpu"]
    assert (group["capacity"], group["replicas.min"], group["replicas.max"]) == ("spot", 1, 2)
    assert group["cost.monthly"] == pytest.approx(1 * 1.45 * HOURS)  # preemptible, minimum size
    assert group["node.labels"] == {"workload": "gpu"}


def test_catalog_lookup_shows_the_oci_shape_and_its_price() -> None:
    out = CliRunner().invoke(cli, ["catalog", "BM.GPU.H100.8", "--provider", "oci"]).output
    assert "oci BM.GPU.H100.8  [instance type] 8× H100 (80 GiB each)" in out
    assert "every region             on-demand $80/h" in out


def test_clouds_without_regional_prices_have_no_region_dimension() -> None:
    for cloud, name, listed in (("oci", "BM.GPU.H100.8", 80.00),
                                ("lambda", "gpu_8x_h100_sxm5", 31.92),
                                ("nebius", "gpu-h100-sxm_8gpu-128vcpu-1600gb", 23.60)):
        assert list(catalog.price_table(cloud, name)) == [ANY_REGION]
        assert catalog.price(cloud, name, "us-phoenix-1").ondemand == listed  # any region


def test_the_builder_keeps_regional_prices_when_regions_disagree() -> None:
    header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price," \
             "SpotPrice,Region\n"
    info = "\"{'Gpus': [{'MemoryInfo': {'SizeInMiB': 81920}}]}\""
    same = parse("t", header + f"X.8,H100,8,1,1,{info},80,,r1\nX.8,H100,8,1,1,{info},80,,r2\n")
    apart = parse("t", header + f"X.8,H100,8,1,1,{info},80,,r1\nX.8,H100,8,1,1,{info},90,,r2\n")
    oci = get("oci")
    assert oci is not None
    assert build_flat(oci, same, Known(), Notes())["prices"] == {"X.8": {ANY_REGION: [80, None]}}
    notes = Notes()
    assert build_flat(oci, apart, Known(), notes)["prices"] == \
        {"X.8": {"r1": [80, None], "r2": [90, None]}}
    assert notes.counts == {"oci_types_with_regional_prices_kept": 1}


@pytest.mark.parametrize(("text", "memory", "value"), [
    ("500m", False, 0.5), ("8", False, 8.0), ("64Gi", True, 64.0), ("1536Mi", True, 1.5),
    ("2G", True, 2e9 / 2**30)])
def test_pod_requests_are_read_as_kubernetes_quantities(text: str, memory: bool,
                                                        value: float) -> None:
    assert quantity(text, memory) == pytest.approx(value)


def test_a_gpu_model_alone_still_means_the_big_three() -> None:
    # A10 is Azure's alone among the big three (OCI and Lambda have it too); L40S is AWS's
    # (OCI and Nebius have it): a pod naming only the model stays where it was priced before.
    assert (only_cloud("A10"), only_cloud("L40S")) == ("azure", "aws")


def test_a_pod_selecting_a_lambda_instance_type_is_priced(tmp_path: Path) -> None:
    (tmp_path / "pod.yaml").write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        "  nodeSelector: {node.kubernetes.io/instance-type: gpu_8x_h100_sxm5}\n"
        "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: 4}}}]\n")
    pod = scan.run([str(tmp_path)], []).resources[0].facts
    assert (pod["provider.cloud"], pod["gpu.model"]) == ("lambda", "H100")
    assert pod["cost.hourly"] == pytest.approx(4 / 8 * 31.92)


def test_an_oci_gpu_shape_outside_the_catalog_is_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'resource "oci_core_instance" "next" {\n  shape = "BM.GPU.X900.8"\n}\n'
        'resource "oci_core_instance" "cpu" {\n  shape = "VM.Standard.E5.Flex"\n}\n')
    found = scan.run([str(tmp_path)], []).resources
    assert [r.address for r in found] == ["oci_core_instance.next"]  # the CPU shape is not
    reason = found[0].facts["gpu.count"]
    assert isinstance(reason, Unknown) and "not in the oci catalog" in reason.reason
