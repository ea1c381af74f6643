"""Kubernetes workloads declared through the Terraform kubernetes provider, as the Kubernetes
objects they create: `kubernetes_deployment`, `_stateful_set`, `_daemon_set`, `_job`,
`_cron_job`, `_pod` (and their `_v1` forms) from their blocks, `kubernetes_manifest` from its
`manifest` value, `kubectl_manifest` from its `yaml_body`. The Kubernetes fact builders then
read them as they read YAML, at the Terraform line."""

from __future__ import annotations

import os
from typing import Any

from gpulint.facts.terraform.helm_tf import lenient
from gpulint.load.evidence import EvidenceNote
from gpulint.load.kubernetes import K8sObject
from gpulint.model import Unknown
from gpulint.terraform.files import yaml_decode
from gpulint.terraform.views import ResourceInstance

_KINDS = {"deployment": ("apps/v1", "Deployment"), "stateful_set": ("apps/v1", "StatefulSet"),
          "daemon_set": ("apps/v1", "DaemonSet"), "daemonset": ("apps/v1", "DaemonSet"),
          "job": ("batch/v1", "Job"), "cron_job": ("batch/v1", "CronJob"),
          "pod": ("v1", "Pod")}
# Blocks the provider repeats where Kubernetes has a list, by their list name.
_LISTS = {"container": "containers", "init_container": "initContainers",
          "toleration": "tolerations", "volume": "volumes", "volume_mount": "volumeMounts",
          "env": "env", "env_from": "envFrom", "port": "ports",
          "image_pull_secrets": "imagePullSecrets", "node_selector_term": "nodeSelectorTerms",
          "match_expressions": "matchExpressions", "host_aliases": "hostAliases",
          "topology_spread_constraint": "topologySpreadConstraints"}


_MANIFEST_TYPES = ("kubernetes_manifest", "kubectl_manifest")


def kind_of(type_: str) -> tuple[str, str] | None:
    if type_ in _MANIFEST_TYPES:
        return ("", "")
    name = type_.removeprefix("kubernetes_").removesuffix("_v1")
    return _KINDS.get(name) if type_.startswith("kubernetes_") else None


def to_object(inst: ResourceInstance) -> K8sObject | None:
    """The object a kubernetes_* resource instance creates, or None for other types."""
    kind = kind_of(inst.type)
    if kind is None or inst.mode != "managed":
        return None
    if kind == ("", ""):
        doc = _plain(_manifest(inst))
        if not isinstance(doc, dict):
            return None
    else:
        doc = {"apiVersion": kind[0], "kind": kind[1], **_block(inst.view)}
    return K8sObject(inst.path, inst.view.line, doc, address=inst.address, type=inst.type)


def applied_files(objects: list[K8sObject], yaml_objects: list[K8sObject],
                  files: Any) -> set[int]:
    """ids of the YAML objects that Terraform applies: read from a file that a Terraform
    function read, with the kind and name of a manifest a resource creates, or the kind and a
    name that is still a template (`name: ${cluster}-gpu`, rendered by `templatefile()`). A
    directory of manifests applied with `for_each = fileset(...)` is then reported once, per
    instance."""
    read = files.read_paths() if files is not None else set()
    names = {_identity(o.doc) for o in objects if o.type in _MANIFEST_TYPES}
    kinds = {kind for kind, _ in names}
    if not read or not names:
        return set()
    return {id(o) for o in yaml_objects
            if o.address is None and os.path.realpath(o.path) in read
            and (_identity(o.doc) in names or (o.doc.get("kind") in kinds and "${" in str(
                _identity(o.doc)[1])))}


def _identity(doc: dict[str, Any]) -> tuple[Any, Any]:
    meta = doc.get("metadata")
    return doc.get("kind"), meta.get("name") if isinstance(meta, dict) else None


def _manifest(inst: ResourceInstance) -> Any:
    """kubernetes_manifest's `manifest` value, or kubectl_manifest's `yaml_body` (one YAML
    document, often `file()` or `templatefile()` of a file in a directory of manifests)."""
    if inst.type == "kubernetes_manifest":
        return inst.view.get("manifest")
    body = inst.view.get("yaml_body")
    if isinstance(body, Unknown):
        body = _lenient_body(inst.view)
    return yaml_decode(body) if isinstance(body, str) else None


def _lenient_body(view: Any) -> str | None:
    """A yaml_body template whose interpolations are not all known here (`${jsonencode(
    local.azs)}` of a data source): its text with those as placeholders, as Helm values written
    in Terraform are read, so a NodePool's GPU requirements are not lost to an unrelated zone
    list."""
    block = getattr(view, "block", None)
    attr = block.attributes.get("yaml_body") if block is not None else None
    if attr is None:
        return None
    text = lenient(attr.expr, view.scope)
    if isinstance(text, Unknown):  # a directive over unknown values: its text without it
        from gpulint.facts.terraform.string_evidence import syntactic

        text = syntactic(attr.expr)
    return text if isinstance(text, str) else None


def unread(inst: ResourceInstance) -> EvidenceNote | None:
    """A kubernetes_manifest or kubectl_manifest that asks for accelerators but whose
    manifest could not be read as one object: named at the resource, never dropped."""
    from gpulint.facts.terraform.string_evidence import block_evidence

    block = getattr(inst.view, "block", None)
    if inst.type not in _MANIFEST_TYPES or inst.mode != "managed" or block is None:
        return None
    try:
        places = block_evidence(block, inst.view.scope, inst.path, {})
    except RecursionError:
        return None
    if not places:
        return None
    return EvidenceNote(inst.address, inst.path, inst.view.line,
                        f"{places[0].describe()}: accelerators in a Terraform manifest that "
                        "could not be read as one Kubernetes object (not YAML, several "
                        "documents, or an unknown value); write it as one document")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _block(view: Any) -> dict[str, Any]:
    block = getattr(view, "block", None)
    if block is None:
        return {}
    out: dict[str, Any] = {_camel(n): _plain(view.get(n)) for n in block.attributes}
    types = list(dict.fromkeys([b.type for b in block.blocks if b.type != "dynamic"] +
                               [b.labels[0] for b in block.children("dynamic") if b.labels]))
    for type_ in types:
        children = [_block(v) for v in view.blocks(type_)]
        if type_ in _LISTS:
            out[_LISTS[type_]] = children
        elif children:
            out[_camel(type_)] = children[0]
    return out


def _plain(value: Any) -> Any:
    """Values as YAML would give them: an unknown value is absent (None)."""
    if isinstance(value, Unknown):
        return None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
