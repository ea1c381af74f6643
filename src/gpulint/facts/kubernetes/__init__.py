"""Kubernetes objects → provider-neutral GPU facts, one resource per pod template.

Which kinds hold pods is in `k8s_kinds`, what a pod asks for in `k8s_accelerators`, where it
lands in `k8s_nodes`. Autoscalers and node pools are linked afterwards (`gpulint.linking`).
docs/kubernetes.md lists every kind, label and annotation read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import (
    inherit_tags,
    normalise_workload,
    shutdown_from_tags,
    workload_from,
)
from gpulint.facts.kubernetes import accelerators as k8s_accelerators
from gpulint.facts.kubernetes import accounting, dra, registry
from gpulint.facts.kubernetes import nodes as k8s_nodes
from gpulint.facts.kubernetes.eksctl import build_cluster_config
from gpulint.facts.kubernetes.env import ConfigMaps, container_env
from gpulint.facts.kubernetes.kinds import Context, PodGroup, api_group, as_dict, scalar
from gpulint.facts.kubernetes.nodepool import build_nodepool, inherit_node_class_tags
from gpulint.facts.model_decl import (
    MODEL_ENV_VARS,
    ModelDecl,
    declare,
    from_command,
    from_tags,
    model_from_image,
    model_uri_name,
    server_from_image,
)
from gpulint.load.evidence import EvidenceNote
from gpulint.load.kubernetes import K8sObject
from gpulint.model import Unknown

# Marks a pod template as an option users may pick (a JupyterHub profile), not a workload.
OPTION_ANNOTATION = "gpulint.dev/option"
# The accelerator kinds as facts (catalog names for Neuron come from the instance type).
_ACCELERATOR_KIND = {"gpu": "gpu", "mig": "gpu", "tpu": "tpu", "neuron": "neuron"}


def _unresolved(value: str) -> bool:
    return "$(" in value or value.startswith("$")


def _container_model(c: dict[str, Any], env: dict[str, str]) -> ModelDecl | None:
    command = c["command"] + c["args"]
    if isinstance(c.get("storageUri"), str):  # KServe predictor model
        command += ["--storage-uri", c["storageUri"]]
    image = c.get("image") if isinstance(c.get("image"), str) else None
    what = f"container {c.get('name', '?')}"
    decl = from_command(command, env, what, image)
    if decl is None:
        var = next((v for v in MODEL_ENV_VARS if env.get(v)), None)
        if var:
            decl = ModelDecl(model_uri_name(env[var]), f"{what} env {var}",
                             server=server_from_image(image))
    return decl


def _image_model(containers: list[dict[str, Any]]) -> ModelDecl | None:
    """The model a container's image names (a NIM), when nothing more explicit does."""
    for c in containers:
        image = c.get("image") if isinstance(c.get("image"), str) else None
        named = model_from_image(image)
        if named:
            return ModelDecl(named, f"container {c.get('name', '?')} image",
                             server=server_from_image(image))
    return None


def _model(res: Resource, tags: dict[str, Any], containers: list[dict[str, Any]],
           namespace: str | None, config_maps: ConfigMaps | None,
           declared: ModelDecl | None = None) -> None:
    decl = from_tags(tags, "label/annotation")
    for c in containers if decl is None else []:
        decl = _container_model(c, container_env(c, namespace, config_maps))
        if decl:
            break
    # The operator's own model field (KAITO preset, model URI, image), then a model image.
    decl = decl or declared or _image_model(containers)
    if decl is None:
        return
    if "{{" in decl.id:
        reason = (f"model {decl.id!r} ({decl.source}) is a template parameter the scan does not "
                  "resolve; give the parameter a default or declare the model")
        res.set_fact("model.id", Unknown(reason))
        res.facts["model.fits"] = Unknown(reason)
        return
    if _unresolved(decl.id):
        reason = (f"model {decl.id!r} ({decl.source}) refers to an env var whose value is not in "
                  "the scanned manifests (a Secret, or a ConfigMap not scanned)")
        res.set_fact("model.id", Unknown(reason))
        res.facts["model.fits"] = Unknown(reason)
        return
    declare(res, decl)
    if decl.server and res.facts.get("workload") == "unknown":
        res.facts["workload"], res.facts["workload.source"] = "inference", f"{decl.server} server"


def _workload(res: Resource, group: PodGroup, kind: str, tags: dict[str, Any],
              names: list[str]) -> None:
    explicit = normalise_workload(tags.get("gpulint.dev/workload"))
    wl = (explicit, "annotation gpulint.dev/workload") if explicit else workload_from(tags, [])
    if wl is None and group.workload and group.certain:
        wl = (group.workload, f"kind {kind}")
    wl = wl or workload_from({}, names)
    if wl is None and group.workload:
        wl = (group.workload, f"kind {kind}")
    res.facts["workload"] = wl[0] if wl else "unknown"
    res.facts["workload.source"] = wl[1] if wl else None


def _replicas(res: Resource, group: PodGroup) -> None:
    res.set_fact("replicas.desired", group.desired)
    res.set_fact("replicas.min", group.desired if group.minimum is None else group.minimum)
    res.set_fact("replicas.max", group.desired if group.maximum is None else group.maximum)
    if group.scale_note:
        res.facts["replicas.source"] = group.scale_note


def shutdown_of(res: Resource, tags: dict[str, Any]) -> str:
    if shutdown_from_tags(tags):
        return "schedule"
    if 0 in (res.facts.get("replicas.min"), res.facts.get("replicas.desired")):
        return "scale-to-zero"
    return "none"


# Kinds that run on every node a selector matches, whatever it costs: a device plugin, a GPU
# driver installer or a metrics exporter picks GPU nodes but never adds one.
_NODE_AGENTS = frozenset({"DaemonSet"})


def _selected_only(pod: dict[str, Any], kind: str) -> k8s_accelerators.Accelerators | None:
    """A pod that asks for no accelerator yet whose node selection puts it on accelerator
    nodes (a Ray worker group with only a GKE accelerator label and Ray's logical `GPU`
    resource): the nodes are paid for, so it is reported, its GPU model from the selector and
    its count unknown. None for any other pod."""
    if kind in _NODE_AGENTS or not pod.get("containers"):  # an agent, or a patch: no pod
        return None
    chosen = k8s_nodes.gpu_selector(k8s_nodes.selection(pod))
    if chosen is None:
        return None
    where, accelerator = chosen
    return k8s_accelerators.Accelerators(Unknown(
        f"it requests no accelerator, yet its {where} puts it on {accelerator.upper()} nodes"),
        accelerator)


def _group_resource(obj: K8sObject, group: PodGroup, ctx: Context,
                    selector_only: bool = False) -> Resource | None:
    config_maps = ctx.config_maps
    acc = k8s_accelerators.read(group.pod)
    if group.unknown_count is not None:
        acc.count = group.unknown_count
    doc = obj.doc
    kind = str(doc["kind"])
    meta = as_dict(doc.get("metadata"))
    ns = scalar(meta.get("namespace"))
    if not isinstance(acc.count, Unknown) and acc.count <= 0:
        acc = dra.claimed(group.pod, ctx, ns) or acc
    if not isinstance(acc.count, Unknown) and acc.count <= 0:
        selected = _selected_only(group.pod, kind) if selector_only else None
        if selected is None:
            return None
        acc = selected
    # `generateName` objects (Jobs created with kubectl create) are named by their prefix.
    name = scalar(meta.get("name")) or scalar(meta.get("generateName")) or "?"
    address = obj.address or (f"{kind}/{ns}/{name}" if ns else f"{kind}/{name}")
    if group.suffix:
        address += f"/{group.suffix}"
    if obj.variant:  # one resource per kustomize overlay or helmfile environment
        address += f"@{obj.variant}"
    res = Resource(address, obj.type or kind, obj.path, obj.line, "kubernetes")
    link = k8s_nodes.link_inputs(res)
    link.variant = obj.variant
    res.facts.update({"provider": "kubernetes", "k8s.kind": kind, "k8s.name": name,
                      "k8s.namespace": ns, "accelerator.kind": _ACCELERATOR_KIND[acc.kind]})
    labels = {**group.labels, **as_dict(meta.get("labels"))}
    annotations = {**group.annotations, **as_dict(meta.get("annotations"))}
    res.facts["tags"] = {str(k): v for k, v in labels.items()}
    option = scalar(annotations.get(OPTION_ANNOTATION))
    if option:  # a choice offered to users: priced per hour, outside the totals
        res.facts["option"] = option
    res.set_fact("gpu.count", acc.count)
    if acc.kind == "mig":
        res.facts["gpu.fraction"] = acc.fraction
    res.facts["k8s.resource"] = acc.key
    link.accelerators = acc
    sel = k8s_nodes.selection(group.pod)
    if group.linkable:
        link.node_selection = sel
    k8s_nodes.set_hardware(res, sel, acc)
    res.facts["capacity"], res.facts["capacity.source"] = k8s_nodes.capacity(sel)
    containers = [c for c in group.pod.get("containers") or [] if isinstance(c, dict)]
    tags = {**labels, **annotations}
    _workload(res, group, kind, tags, [name] + [str(c.get("name", "")) for c in containers])
    _model(res, tags, containers, ns, config_maps, group.model)
    _replicas(res, group)
    _unit(res, group)
    res.facts["shutdown"] = shutdown_of(res, tags)
    if group.read_as:
        res.facts["k8s.read_as"] = group.read_as
    for fact, value in group.facts.items():  # what the kind says outright (SageMaker's use…)
        res.set_fact(fact, value)
    return res


def _unit(res: Resource, group: PodGroup) -> None:
    """Accelerators of the multi-host unit the pod belongs to: a model served or trained across
    hosts fits in (and idles on) all of them, not in one pod's share."""
    if not group.unit or isinstance(res.facts.get("gpu.count"), Unknown):
        return  # the pod's own count already says why it is unknown
    total, pods = 0, 0
    for pod, n in group.unit:
        count = k8s_accelerators.read(pod).count
        if isinstance(count, Unknown) or isinstance(n, Unknown):
            why = count if isinstance(count, Unknown) else n
            res.set_fact("group.gpu_count", Unknown(f"{group.unit_name}: {why.reason}"))
            return
        total, pods = total + count * n, pods + n
    if pods > 1:
        res.facts["group.hosts"] = pods
        res.facts["group.gpu_count"] = total
        res.facts["group.source"] = group.unit_name


Accounted = list[tuple[K8sObject, "str | None", "EvidenceNote | None"]]


def build(obj: K8sObject, ctx: Context | ConfigMaps | None = None,
          accounted: Accounted | None = None) -> list[Resource]:
    """Every GPU resource the object declares (none for objects that ask for no accelerator);
    with `accounted`, where its accelerator evidence ended (accounting.py)."""
    if not isinstance(ctx, Context):
        ctx = Context(config_maps=ctx)
    if obj.doc.get("kind") == "NodePool" and api_group(obj.doc) == "karpenter.sh":
        pool = build_nodepool(obj)
        if pool and obj.variant:  # one pool per overlay or environment, as for workloads
            pool.address += f"@{obj.variant}"
            link = k8s_nodes.link_inputs(pool)
            link.variant = obj.variant
            if link.node_target is not None:
                link.node_target = dataclasses.replace(link.node_target, address=pool.address)
        return _pools(obj, [pool] if pool else [], accounted)
    if obj.doc.get("kind") == "ClusterConfig" and api_group(obj.doc) == "eksctl.io":
        return _pools(obj, build_cluster_config(obj), accounted)
    groups = registry.pod_groups(obj.doc, ctx)
    out = [res for group in groups if (res := _group_resource(obj, group, ctx))]
    if not out:  # a driver or head beside GPU workers shares their selector: not evidence
        out = [res for group in groups
               if (res := _group_resource(obj, group, ctx, selector_only=True))]
    if accounted is not None:
        accounted.append((obj, *accounting.account(obj, groups, len(out))))
    return out


def _pools(obj: K8sObject, pools: list[Resource], accounted: Accounted | None
           ) -> list[Resource]:
    """Node pools: their evidence (GPU instance types) ends in the pool, or the pool is CPU."""
    if accounted is not None and accounting.evidence(obj):
        accounted.append((obj, accounting.RESOURCE if pools else accounting.NON_WORKLOAD, None))
    return pools


def build_each(objects: Iterable[K8sObject], accounted: Accounted | None = None,
               profiles: dict[str, Any] | None = None) -> list[tuple[K8sObject, list[Resource]]]:
    """Each object with its resources, all built together so env vars can come from the
    scan's ConfigMaps; with `accounted`, where each object's accelerator evidence ended."""
    objects = list(objects)
    ctx = Context(config_maps=ConfigMaps(), profiles=dict(profiles or {}))
    for obj in objects:
        if obj.doc.get("kind") == "ConfigMap":
            ctx.config_maps.add(obj.doc)
        elif registry.referenced(obj.doc):
            ctx.add(obj.doc)
    built = [(obj, build(obj, ctx, accounted)) for obj in objects]
    resources = [res for _, out in built for res in out]
    inherit_namespace_labels(resources, objects)
    inherit_node_class_tags(resources, objects)
    return built


def inherit_namespace_labels(resources: list[Resource], objects: list[K8sObject]) -> None:
    """A workload's namespace labels count as its cost labels (Kueue and HyperPod task
    governance attribute jobs to teams by namespace); its own labels win. `tags.inherited`
    says where each inherited label comes from."""
    namespaces: dict[str, tuple[dict[str, Any], str]] = {}
    for obj in objects:
        meta = as_dict(obj.doc.get("metadata"))
        name = scalar(meta.get("name"))
        if obj.doc.get("kind") == "Namespace" and obj.doc.get("apiVersion") == "v1" and name:
            labels = {str(k): v for k, v in as_dict(meta.get("labels")).items()
                      if "kubernetes.io/" not in str(k)}  # set by Kubernetes, not by the team
            namespaces[name] = (labels, f"Namespace {name} ({obj.path}:{obj.line})")
    for res in resources:
        ns = res.facts.get("k8s.namespace")
        if ns in namespaces:
            inherit_tags(res, *namespaces[ns])


def build_all(objects: Iterable[K8sObject]) -> list[Resource]:
    return [res for _, built in build_each(objects) for res in built]
