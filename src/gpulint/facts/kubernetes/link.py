"""Link what a scan declares in separate places, after every resource has its own facts.

- A HorizontalPodAutoscaler or KEDA ScaledObject gives its target's replica bounds.
- A pod whose node selection matches exactly one node pool of its declared cluster (`clusters`),
  else of its project (`scope`) — a Karpenter NodePool, an eksctl node group, a Terraform
  EKS/GKE/AKS node pool by its labels and taints, or a pool the configuration describes — runs
  on that pool's nodes and is priced from them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from gpulint.config.clusters import Cluster
from gpulint.fact_types import Resource
from gpulint.facts.kubernetes import clusters as declared_clusters
from gpulint.facts.kubernetes import scope, shutdown_of
from gpulint.facts.kubernetes.accelerators import Accelerators
from gpulint.facts.kubernetes.kinds import dig, scalar
from gpulint.facts.kubernetes.nodepool import (
    allowed_instances,
    capacity_of,
    one_model,
    set_one_model,
)
from gpulint.facts.kubernetes.nodes import (
    NodeSelection,
    NodeTarget,
    link_inputs,
    matches,
    set_hardware,
    untolerated,
)
from gpulint.load.kubernetes import K8sObject
from gpulint.model import Diagnostic, Unknown

# Kinds an autoscaler can scale whose resource is the whole workload (no per-group suffix).
_SCALABLE = {"Deployment", "StatefulSet", "ReplicaSet", "ReplicationController"}
_HARDWARE_FACTS = ("provider.cloud", "instance.type", "gpu.model", "gpu.memory_gib",
                   "node.gpu_count", "gpu.attached", "gpu.accelerator_type", "region")


def link(resources: list[Resource], objects: Iterable[K8sObject],
         called_from: Mapping[int, tuple[str, ...]] | None = None,
         clusters: tuple[Cluster, ...] = ()) -> list[Diagnostic]:
    """`called_from`: the files of the module calls that made each Terraform resource (by id),
    which put a pool in its root module's project; `clusters`: the declared clusters. Returns
    the problems of the declared clusters (a listed pool not in the scan)."""
    objects = list(objects)
    _autoscalers(resources, objects)
    return _node_pools(resources, called_from or {}, clusters)


def _count(value: Any, default: int) -> Any:
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool):
        return Unknown(f"replica bound {value!r} is not a number")
    return Unknown(f"replica bound {value!r} is negative") if value < 0 else value


def _bounds(doc: dict[str, Any]) -> tuple[Any, Any, Any] | None:
    """(min, max, idle) replicas of an HPA or a KEDA ScaledObject; None for other objects."""
    kind, api = doc.get("kind"), str(doc.get("apiVersion", ""))
    spec: dict[str, Any] = doc["spec"] if isinstance(doc.get("spec"), dict) else {}
    if kind == "HorizontalPodAutoscaler":
        return _count(spec.get("minReplicas"), 1), _count(spec.get("maxReplicas"), 1), None
    if kind == "ScaledObject" and api.startswith("keda.sh/"):
        # KEDA's defaults: minReplicaCount 0 (scale to zero), maxReplicaCount 100.
        return (_count(spec.get("minReplicaCount"), 0), _count(spec.get("maxReplicaCount"), 100),
                spec.get("idleReplicaCount"))
    return None


def _autoscalers(resources: list[Resource], objects: list[K8sObject]) -> None:
    """Each scalable workload takes the bounds of the autoscaler naming it from its own overlay
    and, when several projects declare one, from the nearest directory."""
    scalers: dict[tuple[Any, ...], list[tuple[K8sObject, tuple[Any, Any, Any]]]] = {}
    for obj in objects:
        bounds = _bounds(obj.doc)
        ref = dig(obj.doc, "spec", "scaleTargetRef")
        if bounds is None or not isinstance(ref, dict):
            continue
        ns = scalar(dig(obj.doc, "metadata", "namespace"))
        key = (scalar(ref.get("kind")) or "Deployment", str(scalar(ref.get("name"))), ns,
               obj.variant)
        scalers.setdefault(key, []).append((obj, bounds))
    for res in resources:
        if res.facts.get("k8s.kind") not in _SCALABLE:
            continue
        key = (res.facts["k8s.kind"], res.facts["k8s.name"], res.facts.get("k8s.namespace"),
               link_inputs(res).variant)
        nearest = _nearest(res.path, scalers.get(key, []))
        if not nearest:
            continue
        res.unknowns = [u for u in res.unknowns if not u[0].startswith("replicas.")]
        if len({repr(bounds) for _, bounds in nearest}) > 1:
            why = Unknown("autoscalers with different bounds target it: " + ", ".join(
                _name(obj) for obj, _ in nearest))
            for fact in ("replicas.min", "replicas.max", "replicas.desired"):
                res.set_fact(fact, why)
            continue
        obj, (lo, hi, idle) = nearest[0]
        res.set_fact("replicas.min", lo)
        res.set_fact("replicas.max", hi)
        res.facts["replicas.desired"] = lo
        res.facts["replicas.source"] = _name(obj)
        tags = res.facts.get("tags")
        res.facts["shutdown"] = "scale-to-zero" if idle == 0 else \
            shutdown_of(res, tags if isinstance(tags, dict) else {})


def _name(obj: K8sObject) -> str:
    return f"{obj.doc['kind']} {dig(obj.doc, 'metadata', 'name')} ({obj.path}:{obj.line})"


def _nearest(path: str, scalers: list[tuple[K8sObject, tuple[Any, Any, Any]]]
             ) -> list[tuple[K8sObject, tuple[Any, Any, Any]]]:
    """The autoscalers whose files share the deepest directory with the workload's file."""
    here = os.path.dirname(os.path.abspath(path))

    def depth(obj: K8sObject) -> int:
        there = os.path.dirname(os.path.abspath(obj.path))
        return len(os.path.commonpath([here, there]).split(os.sep))
    best = max((depth(obj) for obj, _ in scalers), default=0)
    return [(obj, bounds) for obj, bounds in scalers if depth(obj) == best]


def _targets(resources: list[Resource]) -> list[tuple[NodeTarget, Resource]]:
    out = []
    for res in resources:
        target = link_inputs(res).node_target
        if target is not None:
            out.append((target, res))
        elif res.source == "terraform" and isinstance(res.facts.get("node.labels"), dict):
            out.append((NodeTarget(res.address, res.facts["node.labels"], {},
                                   list(res.facts.get("node.taints") or [])), res))
    return out


def _node_pools(resources: list[Resource], called_from: Mapping[int, tuple[str, ...]],
                clusters: tuple[Cluster, ...]) -> list[Diagnostic]:
    """Each pod's pool among its declared cluster's pools, else among its project's."""
    every = _targets(resources)
    declared = declared_clusters.resolve(clusters, every)
    homes = {id(pool): scope.home(pool, called_from) for _, pool in every}
    free = [(t, pool) for t, pool in every if id(pool) not in declared.claimed]
    for res in resources:
        own = link_inputs(res)
        sel = own.node_selection
        if sel is None or own.node_target is not None:
            continue
        cluster = declared.cluster_of(res)
        listed = declared.pools.get(cluster.name, []) if cluster else []
        pools = listed or [(t, pool) for t, pool in free if scope.covers(homes[id(pool)], res)
                           and _same_variant(link_inputs(pool).variant, own.variant)]
        _link(res, sel, pools, by_tolerations=bool(listed))
        if cluster is not None:
            declared_clusters.apply_cluster(res, cluster)
    return declared.diagnostics


def _link(res: Resource, sel: NodeSelection, targets: list[tuple[NodeTarget, Resource]],
          by_tolerations: bool) -> None:
    """Link to the one pool the pod's node selection matches; a pod of a declared cluster that
    names no node label links to the one pool of the cluster it can land on."""
    found = [(t, pool) for t, pool in targets if matches(sel, t)]
    what = "node selection matches"
    if not found and by_tolerations and declared_clusters.names_no_label(sel):
        found = declared_clusters.by_accelerator(res, sel, targets)
        what = "its tolerations let it onto"
        blocked = None if found else declared_clusters.untolerated_pools(res, sel, targets)
        if blocked:
            res.set_fact("node_pool", Unknown(blocked))
            return
    if not found:
        _blocked_by_taints(res, sel, targets)
    elif len(found) > 1:
        names = ", ".join(t.address for t, _ in found)
        res.set_fact("node_pool", Unknown(f"{what} several pools ({names})"))
    else:
        target, pool = found[0]
        res.facts["node_pool"] = target.address
        if pool.source in ("terraform", "config") or \
                pool.facts.get("k8s.kind") == "ClusterConfig":
            _from_terraform_pool(res, pool)  # eksctl and declared pools: fixed nodes, like these
        else:
            _from_karpenter_pool(res, sel, target)
            if "provider.cloud" not in res.facts and \
                    isinstance(pool.facts.get("provider.cloud"), str):
                res.facts["provider.cloud"] = pool.facts["provider.cloud"]
            applied = pool.facts.get("terraform.provider_regions")
            if applied and "terraform.provider_regions" not in res.facts:
                # A NodePool that Terraform applies: the region of its cluster.
                res.facts["terraform.provider_regions"] = applied
                res.facts["terraform.provider_regions.via"] = target.address
        _shortfall(res, target.address)


def _shortfall(res: Resource, pool: str) -> None:
    """A pod asking for more GPUs than one node of its pool has never schedules: an error, not
    a price."""
    want, have = res.facts.get("gpu.count"), res.facts.get("node.gpu_count")
    if res.facts.get("gpu.mig_profile") or not isinstance(want, (int, float)) or \
            not isinstance(have, (int, float)) or have <= 0 or want <= have:
        return
    res.facts["node.gpu_shortfall"] = (f"requests {want:g} GPUs but nodes of pool {pool} have "
                                       f"{have:g}")


def _blocked_by_taints(res: Resource, sel: NodeSelection,
                       targets: list[tuple[NodeTarget, Resource]]) -> None:
    """A pod that selects a pool's nodes without tolerating its taints never schedules there."""
    for target, _ in targets:
        if matches(sel, target, check_taints=False):
            taints = ", ".join(f"{t['key']}={t['value'] or ''}:{t['effect']}"
                               for t in untolerated(sel, target))
            res.set_fact("node_pool", Unknown(f"selects {target.address} but does not tolerate "
                                              f"its taint {taints}, so it cannot be scheduled"))
            return


def _reset_hardware(res: Resource) -> None:
    res.unknowns = [u for u in res.unknowns if u[0] not in _HARDWARE_FACTS]
    for name in _HARDWARE_FACTS:
        if name != "gpu.memory_gib" or "gpu.mig_profile" not in res.facts:
            res.facts_by_name.pop(name, None)


def _from_terraform_pool(res: Resource, pool: Resource) -> None:
    _reset_hardware(res)
    f = pool.facts
    res.facts["provider.cloud"] = f.get("provider")
    for name in ("instance.type", "gpu.model", "gpu.attached", "gpu.accelerator_type", "region"):
        if name in f:
            res.set_fact(name, f[name])
    if "gpu.mig_profile" not in res.facts:
        res.set_fact("gpu.memory_gib", f.get("gpu.memory_gib"))
    res.set_fact("node.gpu_count", f.get("gpu.count"))
    if f.get("accelerator.kind"):
        res.facts["accelerator.kind"] = f["accelerator.kind"]
    res.set_fact("capacity", f.get("capacity"))
    res.facts["capacity.source"] = f"node pool {pool.address}"
    if res.facts.get("k8s.kind") == "DaemonSet":
        # One pod per node of the pool: the pool's size is the DaemonSet's replica count.
        res.unknowns = [u for u in res.unknowns if not u[0].startswith("replicas.")]
        for name in ("replicas.min", "replicas.max", "replicas.desired"):
            res.set_fact(name, f.get(name))
        res.facts["replicas.source"] = f"one pod per node of {pool.address}"
        if "zones" in f:
            res.facts["zones"] = f["zones"]


def _same_variant(pool: str | None, workload: str | None) -> bool:
    """A pool of no variant serves every variant; one of a variant, a workload of no variant
    or of its own."""
    return pool in (None, workload or pool)


def _from_karpenter_pool(res: Resource, sel: NodeSelection, target: NodeTarget) -> None:
    """The pod's constraints narrowed by the pool's: one instance type or GPU if that is all
    the pool allows, and the pool's capacity unless the pod chose its own."""
    merged = NodeSelection({**target.labels, **sel.labels}, {**target.choices, **sel.choices},
                           sel.excluded, sel.tolerations, sel.from_affinity)
    acc = link_inputs(res).accelerators or Accelerators(count=1)
    _reset_hardware(res)
    set_hardware(res, merged, acc)
    if isinstance(res.facts.get("gpu.model"), Unknown):
        model = one_model(merged.choices)
        if model:
            set_one_model(res, model, acc)
    allowed = allowed_instances(merged)
    if allowed is not None and not isinstance(res.facts.get("instance.type"), str):
        res.facts["instance.allowed"] = allowed  # priced on the cheapest of these
    if not str(res.facts.get("capacity.source", "")).startswith("node "):
        res.facts["capacity"], res.facts["capacity.source"] = capacity_of(target)
