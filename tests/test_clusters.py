"""Declared clusters (`clusters:`): which cluster a workload runs in, which pool it links to,
tolerations-only pods priced from their cluster's pool, and the checks of the section. The
fixture tests/clusters is a platform repository with its configuration; every price is
recomputed from its catalog row."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint import pipeline as scan
from gpulint.cli import cli
from gpulint.config import load as config_load
from gpulint.config import settings as settings_mod
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "clusters"
HOURS = 730


def _settings(path: Path) -> settings_mod.Settings:
    return settings_mod.build(config_load.load(str(path)), settings_mod.Flags())


@pytest.fixture(scope="module")
def found() -> dict[str, Resource]:
    result = scan.run([str(FIXTURE)], [], _settings(FIXTURE / ".gpulint.yaml"))
    return {r.address: r for r in result.resources}


def _row(provider: str, itype: str, region: str) -> tuple[float, float | None]:
    p = catalog.price(provider, itype, region)
    assert p is not None and p.ondemand is not None, (provider, itype, region)
    return p.ondemand, p.spot


# (address, cluster, pool, cloud, node type, region, pod GPUs, node GPUs, replicas)
PRICED = [
    ("Deployment/serving/llama-8b", "gke-serving", "google_container_node_pool.l4x2", "gcp",
     "g2-standard-24", "us-east4", 2, 2, 2),
    ("Deployment/serving/embeddings", "gke-serving", "google_container_node_pool.l4x2", "gcp",
     "g2-standard-24", "us-east4", 1, 2, 1),
    ("Job/batch/nightly-finetune", "aks-batch", "aks-batch/a100", "azure",
     "Standard_NC24ads_A100_v4", "westeurope", 1, 1, 1),
    # Tolerates the GPU taint but not the spot one: only the A100 pool takes it.
    ("Job/batch/ocr-backfill", "aks-batch", "aks-batch/a100", "azure",
     "Standard_NC24ads_A100_v4", "westeurope", 1, 1, 1),
]


@pytest.mark.parametrize(("address", "cluster", "pool", "cloud", "itype", "region", "gpus",
                          "node_gpus", "replicas"), PRICED)
def test_a_declared_clusters_pods_are_priced_from_its_pool(
        found: dict[str, Resource], address: str, cluster: str, pool: str, cloud: str,
        itype: str, region: str, gpus: int, node_gpus: int, replicas: int) -> None:
    res = found[address]
    assert (res.facts["cluster"], res.facts["node_pool"]) == (cluster, pool)
    assert (res.facts["cost.cloud"], res.facts["cost.region"]) == (cloud, region)
    ondemand, _ = _row(cloud, itype, region)
    assert res.facts["cost.monthly"] == round(ondemand * gpus / node_gpus * replicas * HOURS, 2)
    assert res.facts["cost.basis"].startswith(
        f"{gpus}/{node_gpus} GPUs of {cloud} {itype} {region} (region of cluster {cluster})")


def test_tolerations_only_pods_are_unpriced_without_the_configuration() -> None:
    found = {r.address: r for r in scan.run([str(FIXTURE)], []).resources}
    for address in ("Deployment/serving/llama-8b", "Job/batch/ocr-backfill"):
        assert "node_pool" not in found[address].facts
        assert isinstance(found[address].facts["cost.monthly"], Unknown)


def test_a_pod_two_pools_admit_is_not_linked_and_says_which(found: dict[str, Resource]) -> None:
    res = found["Job/batch-eval/eval-anywhere"]  # namespace batch-eval matches batch-*
    assert res.facts["cluster"] == "aks-batch"
    reason = res.facts["node_pool"]
    assert isinstance(reason, Unknown)
    assert reason.reason == ("its tolerations let it onto several pools (aks-batch/a100, "
                             "aks-batch/t4spot)")
    assert isinstance(res.facts["cost.monthly"], Unknown)


def test_a_pod_in_no_cluster_keeps_its_could_not_evaluate(found: dict[str, Resource]) -> None:
    res = found["Pod/research/scratch-l4"]
    assert "cluster" not in res.facts
    cost = res.facts["cost.monthly"]
    assert isinstance(cost, Unknown) and "clusters:" in cost.reason


def _write(tmp_path: Path, text: str) -> Path:
    shutil.copytree(FIXTURE / "apps", tmp_path / "apps")
    shutil.copytree(FIXTURE / "platform", tmp_path / "platform")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gpulint.yaml").write_text(text)
    return tmp_path


def _run(path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(path)
    result = CliRunner().invoke(cli, ["scan", ".", "--no-cache", "--no-color", "--fail-on",
                                      "never", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_catch_all_cluster_is_the_default_cloud_and_first_match_wins(
        tmp_path: Path) -> None:
    path = _write(tmp_path, """
clusters:
  - name: serving
    cloud: gcp
    paths: ["apps/serving/**"]
    node_pools: [{address: google_container_node_pool.l4x2}]
  - name: everything-else
    cloud: gcp
    region: europe-west4
""")
    result = scan.run([str(path)], [], _settings(path / ".gpulint.yaml"))
    found = {r.address: r for r in result.resources}
    assert found["Deployment/serving/llama-8b"].facts["cluster"] == "serving"
    pod = found["Pod/research/scratch-l4"]  # names only the GPU product: gcp from the cluster
    assert pod.facts["cluster"] == "everything-else"
    ondemand, _ = _row("gcp", "g2-standard-4", "europe-west4")
    assert pod.facts["cost.monthly"] == round(ondemand * HOURS, 2)
    assert "; region of cluster everything-else)" in pod.facts["cost.basis"]


def test_a_cluster_without_a_region_prices_in_the_clouds_default(tmp_path: Path) -> None:
    path = _write(tmp_path, "clusters: [{name: lab, cloud: gcp}]\n")
    result = scan.run([str(path)], [], _settings(path / ".gpulint.yaml"))
    pod = next(r for r in result.resources if r.address == "Pod/research/scratch-l4")
    ondemand, _ = _row("gcp", "g2-standard-4", catalog.default_region("gcp"))
    assert pod.facts["cost.monthly"] == round(ondemand * HOURS, 2)
    assert "; cloud of cluster lab, default region)" in pod.facts["cost.basis"]


def test_a_spot_pool_is_priced_at_spot(tmp_path: Path) -> None:
    path = _write(tmp_path, """
clusters:
  - name: batch
    cloud: azure
    region: westeurope
    namespaces: [batch-eval]
    node_pools:
      - {instance_type: Standard_NC4as_T4_v3, capacity: spot}
""")
    result = scan.run([str(path)], [], _settings(path / ".gpulint.yaml"))
    res = next(r for r in result.resources if r.address == "Job/batch-eval/eval-anywhere")
    assert res.facts["node_pool"] == "batch/Standard_NC4as_T4_v3"
    assert res.facts["capacity"] == "spot"
    _, spot = _row("azure", "Standard_NC4as_T4_v3", "westeurope")
    assert spot is not None and res.facts["cost.monthly"] == round(spot * HOURS, 2)


def test_a_listed_pool_missing_from_the_scan_is_a_warning_on_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, """clusters:
  - name: serving
    cloud: gcp
    node_pools:
      - address: google_container_node_pool.l4x3
""")
    code, _, err = _run(path, monkeypatch)
    assert code == 0
    assert ".gpulint.yaml:5: warning clusters[0].node_pools[0]: no node pool in the scan has " \
           "address 'google_container_node_pool.l4x3' (did you mean " \
           "'google_container_node_pool.l4x2'?)" in err


def test_section_errors_come_together_with_lines_and_suggestions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, """clusters:
  - name: a
    cloud: gpc
    namespace: [batch]
    node_pools:
      - adress: x
  - name: a
    cloud: gcp
    node_pools:
      - instance_type: g2-standard-4
        taints: ["nvidia.com/gpu"]
""")
    code, _, err = _run(path, monkeypatch)
    assert code == 2
    assert err.splitlines()[1:] == [
        "  .gpulint.yaml:3: clusters[0].cloud: 'gpc' is not one of 'aws', 'gcp', 'azure', 'oci', "
        "'coreweave', 'lambda', 'nebius' (did you mean 'gcp'?)",
        "  .gpulint.yaml:4: clusters[0].namespace: unknown key 'namespace' "
        "(did you mean 'namespaces'?)",
        "  .gpulint.yaml:6: clusters[0].node_pools[0]: needs 'address' or 'name' or "
        "'instance_type'",
        "  .gpulint.yaml:6: clusters[0].node_pools[0].adress: unknown key 'adress' "
        "(did you mean 'address'?)",
        "  .gpulint.yaml:7: clusters[1].name: cluster 'a' is declared twice",
        "  .gpulint.yaml:11: clusters[1].node_pools[0].taints[0]: taint 'nvidia.com/gpu' is "
        "not key=value:Effect or key:Effect (Effect: NoSchedule, PreferNoSchedule or "
        "NoExecute)"]


def test_catalog_checks_are_usage_errors_with_suggestions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    shown = re.findall(r"```text\n(gpulint: \.gpulint\.yaml:4: clusters.*?)\n```", doc)
    path = _write(tmp_path, """clusters:
  - name: serving
    cloud: gcp
    region: us-est4
    node_pools:
      - instance_type: g2-standrd-24
""")
    code, _, err = _run(path, monkeypatch)
    assert code == 2
    assert err.splitlines() == [
        *shown,
        ".gpulint.yaml:6: clusters[0].node_pools[0].instance_type: 'g2-standrd-24' is not a "
        "gcp instance type in the catalog (did you mean 'g2-standard-24'?)"]


def test_the_documented_example_is_valid(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    block = doc.split("## Clusters", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    (tmp_path / ".gpulint.yaml").write_text(block)
    built = _settings(tmp_path / ".gpulint.yaml")
    assert [c.name for c in built.clusters] == ["gke-serving", "aks-batch", "eks-research"]
    assert built.clusters[2].catch_all
    assert built.clusters[0].paths == (os.path.join(str(tmp_path), "apps", "serving", "**"),)
    taints = built.clusters[1].pools[1].taints
    assert [dict(t) for t in taints] == [
        {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"},
        {"key": "kubernetes.azure.com/scalesetpriority", "value": "spot",
         "effect": "NoSchedule"}]


def test_a_karpenter_nodepool_listed_by_name_serves_tolerations_only_pods(tmp_path: Path) -> None:
    (tmp_path / "platform").mkdir()
    (tmp_path / "platform" / "nodepool.yaml").write_text("""\
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [g6e.2xlarge]}
      taints:
        - {key: nvidia.com/gpu, effect: NoSchedule}
  limits:
    nvidia.com/gpu: 16
""")
    (tmp_path / "apps").mkdir()
    (tmp_path / "apps" / "reranker.yaml").write_text("""\
apiVersion: apps/v1
kind: Deployment
metadata: {name: reranker, namespace: search}
spec:
  template:
    spec:
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
        - name: tei
          resources: {limits: {nvidia.com/gpu: 1}}
""")
    (tmp_path / ".gpulint.yaml").write_text(
        "clusters: [{name: eks, cloud: aws, region: us-west-2, node_pools: [{name: gpu}]}]\n")
    result = scan.run([str(tmp_path)], [], _settings(tmp_path / ".gpulint.yaml"))
    found = {r.address: r for r in result.resources}
    pod = found["Deployment/search/reranker"]
    assert pod.facts["node_pool"] == "NodePool/gpu"
    ondemand, _ = _row("aws", "g6e.2xlarge", "us-west-2")
    assert pod.facts["cost.monthly"] == round(ondemand * HOURS, 2)
    assert "aws g6e.2xlarge us-west-2 (region of cluster eks)" in pod.facts["cost.basis"]
    assert found["NodePool/gpu"].facts["cost.region"] == "us-west-2"


def test_a_pod_without_the_toleration_is_told_which_taint_keeps_it_off(tmp_path: Path) -> None:
    path = _write(tmp_path, """
clusters:
  - name: batch
    cloud: azure
    region: westeurope
    paths: ["apps/research/**"]
    node_pools:
      - {name: a100, instance_type: Standard_NC24ads_A100_v4,
         taints: ["nvidia.com/gpu=present:NoSchedule"]}
""")
    (path / "apps" / "research" / "notebook.yaml").write_text("""\
apiVersion: v1
kind: Pod
metadata: {name: no-toleration, namespace: research}
spec:
  containers:
    - name: c
      resources: {limits: {nvidia.com/gpu: 1}}
""")
    result = scan.run([str(path)], [], _settings(path / ".gpulint.yaml"))
    res = next(r for r in result.resources if r.address == "Pod/research/no-toleration")
    assert res.facts["node_pool"] == Unknown(
        "does not tolerate its taint nvidia.com/gpu=present:NoSchedule on batch/a100 (its "
        "cluster's pools with its accelerator), so it cannot be scheduled")
