"""Declared clusters (`clusters:` in the configuration) in linking: which cluster a workload runs
in, which node pools that cluster has, and the pool a pod that picks GPU nodes by tolerations
alone lands on.

A workload is in the first cluster whose `paths` match its file or whose `namespaces` match its
namespace; a cluster naming neither holds every workload no earlier cluster claimed. It links
only to its cluster's pools and takes the cluster's cloud and region where its nodes do not say.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gpulint import globs
from gpulint.config.clusters import Cluster, DeclaredPool
from gpulint.fact_types import Resource
from gpulint.facts.kubernetes.nodes import NodeSelection, NodeTarget, link_inputs, untolerated
from gpulint.model import Diagnostic, Unknown
from gpulint.pricing import catalog

Target = tuple[NodeTarget, Resource]
# The vendor a whole-GPU resource name asks for; other names (MIG slices, shared GPUs) are NVIDIA.
_AMD_KEY = "amd.com/gpu"
# The label each cloud puts the pool's name in on every node.
_POOL_NAME_LABEL = {"gcp": "cloud.google.com/gke-nodepool",
                    "azure": "kubernetes.azure.com/agentpool", "aws": "eks.amazonaws.com/nodegroup"}


@dataclass
class Declared:
    """The declared clusters resolved against the scan."""

    clusters: tuple[Cluster, ...] = ()
    pools: dict[str, list[Target]] = field(default_factory=dict)  # cluster name → its pools
    claimed: set[int] = field(default_factory=set)  # ids of scanned pools a cluster lists
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def cluster_of(self, res: Resource) -> Cluster | None:
        ns = res.facts.get("k8s.namespace")
        for cluster in self.clusters:
            if cluster.catch_all or any(globs.path_match(p, res.path) for p in cluster.paths) \
                    or (isinstance(ns, str) and any(globs.match(n, ns)
                                                     for n in cluster.namespaces)):
                return cluster
        return None


def resolve(clusters: tuple[Cluster, ...], scanned: list[Target]) -> Declared:
    out = Declared(clusters)
    for cluster in clusters:
        pools = out.pools.setdefault(cluster.name, [])
        for pool in cluster.pools:
            if pool.described:
                pools.append(_described(cluster, pool))
                continue
            found = [(t, r) for t, r in scanned if _names(pool, r)]
            if not found:
                what = f"address {pool.address!r}" if pool.address else f"name {pool.name!r}"
                out.diagnostics.append(_unmatched(pool, what, scanned))
            pools.extend(t for t in found if t not in pools)
            out.claimed.update(id(r) for _, r in found)
            for _, res in found:
                if res.facts.get("k8s.kind") == "NodePool":  # Karpenter: no region of its own
                    apply_cluster(res, cluster)
    return out


def _names(pool: DeclaredPool, res: Resource) -> bool:
    if pool.address is not None:
        return res.source == "terraform" and globs.match(pool.address, res.address)
    return res.facts.get("k8s.kind") in ("NodePool", "ClusterConfig") \
        and res.facts.get("k8s.name") == pool.name


def _unmatched(pool: DeclaredPool, what: str, scanned: list[Target]) -> Diagnostic:
    from gpulint.files.words import did_you_mean

    choices = [r.address if pool.address else str(r.facts.get("k8s.name")) for _, r in scanned]
    keys = pool.where.partition(": ")[2]
    return Diagnostic(pool.file, pool.line, f"{keys}: no node pool in the scan has {what}"
                      f"{did_you_mean(pool.address or pool.name or '', choices)}; the cluster's "
                      "pods are not linked to it", "warning")


def _described(cluster: Cluster, pool: DeclaredPool) -> Target:
    """A pool the configuration describes by its instance type, as a node pool resource that is
    linked to but never reported."""
    itype = str(pool.instance_type)
    address = f"{cluster.name}/{pool.name or itype}"
    res = Resource(address, "DeclaredNodePool", pool.file, pool.line or 0, "config")
    spec = catalog.instance(cluster.cloud, itype)
    labels = {"node.kubernetes.io/instance-type": itype}
    if spec is not None:  # an unknown type is a usage error before the scan (catalog_problems)
        res.facts.update({"provider": cluster.cloud, "instance.type": spec.name,
                          "gpu.model": spec.gpu_model, "gpu.memory_gib": spec.gpu_memory_gib,
                          "gpu.count": spec.gpu_count, "accelerator.kind": spec.accelerator_kind})
        accel = catalog.gke_accelerator_name(spec.gpu_model) if cluster.cloud == "gcp" else None
        if accel:
            labels["cloud.google.com/gke-accelerator"] = accel
    if pool.name and cluster.cloud in _POOL_NAME_LABEL:
        labels[_POOL_NAME_LABEL[cluster.cloud]] = pool.name
    res.facts["capacity"] = pool.capacity
    for name in ("replicas.min", "replicas.max", "replicas.desired"):  # a DaemonSet's count
        res.set_fact(name, Unknown(f"declared pool {address} has no node count"))
    labels.update(pool.labels)
    taints = [dict(t) for t in pool.taints]
    res.facts["node.labels"], res.facts["node.taints"] = labels, taints
    return NodeTarget(address, labels, {}, taints), res


def names_no_label(sel: NodeSelection) -> bool:
    return not sel.labels and not sel.choices


def by_accelerator(res: Resource, sel: NodeSelection, pools: Iterable[Target]) -> list[Target]:
    """The pools a pod that names no node label can land on: those with its kind of accelerator
    whose scheduling taints it tolerates (GKE and AKS taint GPU nodes; the pod's toleration is
    what lets it there)."""
    acc = link_inputs(res).accelerators
    kind = "gpu" if acc is None or acc.kind == "mig" else acc.kind
    amd = acc is not None and acc.key == _AMD_KEY
    out = []
    for target, pool in pools:
        model = pool.facts.get("gpu.model")
        if pool.facts.get("accelerator.kind", "gpu") != kind or untolerated(sel, target):
            continue
        if kind == "gpu" and isinstance(model, str) and model.startswith("MI") != amd:
            continue  # an AMD pod does not land on NVIDIA nodes, nor the other way round
        out.append((target, pool))
    return out


def untolerated_pools(res: Resource, sel: NodeSelection, pools: list[Target]) -> str | None:
    """Why a pod that names no node label cannot land on any of its cluster's pools with its
    accelerator: it does not tolerate their taints. None when there is no such pool."""
    anything = NodeSelection(tolerations=[{"operator": "Exists"}])
    blocked = by_accelerator(res, anything, pools)
    if not blocked:
        return None
    taints = sorted({f"{t['key']}={t['value'] or ''}:{t['effect']}"
                     for target, _ in blocked for t in untolerated(sel, target)})
    names = ", ".join(target.address for target, _ in blocked)
    return (f"does not tolerate its taint {', '.join(taints)} on {names} (its cluster's pools with "
            "its accelerator), so it cannot be scheduled")


def apply_cluster(res: Resource, cluster: Cluster) -> None:
    """The cluster's name, and its cloud and region where the linked pool does not give one."""
    res.facts["cluster"] = cluster.name
    if not isinstance(res.facts.get("provider.cloud"), str):
        res.facts["provider.cloud"] = cluster.cloud
        if not cluster.region:  # else the basis says "region of cluster …"
            res.facts["cost.cloud_source"] = f"cloud of cluster {cluster.name}"
    if cluster.region and res.facts.get("provider.cloud") == cluster.cloud:
        res.facts["cluster.region"] = cluster.region
        if not isinstance(res.facts.get("region"), str):  # a linked pool's own region wins
            res.unknowns = [u for u in res.unknowns if u[0] != "region"]
            res.facts["region"] = cluster.region
