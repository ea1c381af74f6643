"""Accelerator evidence: every place a parsed document says it wants or targets accelerators,
whatever its kind or nesting.

Readers turn known shapes into GPU resources; this pass is the net under them. Each piece of
evidence found here must end as a GPU resource, a "could not evaluate" item naming its path,
or a documented non-workload (facts/kubernetes/accounting.py), so nothing is passed silently.

What counts, by design general rather than per operator:
- extended resources of any accelerator vendor as mapping keys with a non-zero value
  (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`, `amd.com/gpu`, `gpu.intel.com/i915`,
  `google.com/tpu`, `aws.amazon.com/neuron*`, `habana.ai/gaudi`…);
- bare `gpu`/`gpus`/`gpuCount`/`accelerator(s)` fields in resource-like maps (or at the top
  of a spec), also wrapped as `{value: …}`;
- GPU node selection: node labels that only GPU nodes carry, as selector keys or in match
  expressions, and instance types of GPU families (also as a pool's `instanceType` field);
- profile strings naming an accelerator and a count (`nvidia-gpu-h100:8`);
- switches and counts of a chart's accelerator section (`gpu: {enabled: true, number: 1}`,
  `gpus: {count: 2}`), as charts that build the resource names themselves expose them;
- device classes of accelerators in dynamic resource allocation claims (`deviceClassName:
  gpu.nvidia.com`), priced through the pods that claim them (facts/kubernetes/dra.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Path = tuple[Any, ...]

_VENDOR_RESOURCE = re.compile(
    r"^(nvidia\.com/(gpu(\.shared)?|mig-[\w.-]+)|amd\.com/gpu|gpu\.intel\.com/[\w.-]+|"
    r"google\.com/tpu|aws\.amazon\.com/neuron(device|core)?|habana\.ai/gaudi[\w.-]*|"
    r"xilinx\.com/fpga[\w.-]*|[\w.-]+\.(com|ai|io)/(gpu|tpu|npu)s?)$")
# Field names that count accelerators when they sit in a resource-like map.
_BARE_COUNT = frozenset({"gpu", "gpus", "gpucount", "gpu_count", "numgpus", "num_gpus",
                         "gpudevices", "gpu_devices", "gpuspernode", "gpus_per_node",
                         "acceleratorcount", "accelerator_count", "accelerators", "tpu", "tpus"})
# Fields whose name says they request accelerators, wherever they are (`requestGPU`, `numGpus`).
_REQUEST_COUNT = re.compile(r"(?i)^(request(ed)?|num|number_?of|n)_?(gpu|tpu|neuron)s?"
                            r"([_-]?(count|devices|per_?(node|pod|replica)))?$")
_BARE_NAME = frozenset({"accelerator", "acceleratortype", "accelerator_type", "gputype",
                        "gpu_type"})
_RESOURCE_MAPS = frozenset({"resources", "limits", "requests", "resource", "custom", "compute",
                            "resourcesPerNode", "resourceRequirements", "spec"})
# Node labels clusters set by hand on GPU nodes (GKE's pre-2019 `accelerator` label and alike).
_LEGACY_LABELS = frozenset({"accelerator", "gpu", "gpu-type", "gputype", "gpu_type"})
# Node labels only GPU/TPU nodes carry (cloud and NVIDIA GPU feature discovery labels).
_GPU_LABEL = re.compile(
    r"^(cloud\.google\.com/gke-(tpu-)?accelerator(-count)?|cloud\.google\.com/gke-gpu[\w.-]*|"
    r"karpenter\.k8s\.aws/instance-(gpu|accelerator)-[\w-]+|k8s\.amazonaws\.com/accelerator|"
    r"nvidia\.com/gpu\.[\w.-]+|nvidia\.com/mig\.[\w.-]+|feature\.node\.kubernetes\.io/pci-10de"
    r"[\w.-]*|amd\.com/gpu\.[\w.-]+|kubernetes\.azure\.com/accelerator|"
    r"cloud\.google\.com/gke-tpu-topology)$")
_INSTANCE_TYPE_LABEL = re.compile(r"^(node\.kubernetes\.io/instance-type|beta\.kubernetes\.io/"
                                  r"instance-type|karpenter\.k8s\.aws/instance-family)$")
# Instance and machine types of GPU, TPU and Neuron families (AWS, GCP, Azure, OCI).
_GPU_INSTANCE = re.compile(
    r"^(ml\.)?(p[2-6][a-z]*(-[a-z]*\d+)?|g[3-6][a-z]*|gr6|inf[12]|trn[12][a-z]*|dl[12][a-z]*)"
    r"(\.\w+)?$|"
    r"^(a2|a3|a4|g2|g4|ct[3-6][a-z]*)-[\w-]+$|^standard_n[cdvgm][\w-]*$|"
    r"^(bm|vm)\.gpu[\w.-]*$|"
    # CoreWeave CKS instance IDs: `gd-8xh100ib-i128`, `gb200-4x` (docs.coreweave.com,
    # platform/instances; CPU instances are `cd-…`).
    r"^gd-\d+x[a-z0-9]+(-[\w]+)*$|^(gb|b|h)\d{3}-\d+x$|^rtxp?\d+-\d+x$", re.I)
# Fields that name the machine a pool or a node runs on: a GPU type there is evidence.
_INSTANCE_FIELDS = frozenset({"instancetype", "instance_type", "instancetypes",
                              "instance_types", "machinetype", "machine_type", "vmsize",
                              "vm_size"})
# `<vendor>-<gpu|tpu>-<model>:<count>`-like strings (KubeAI resource profiles and the like).
# An instance-type field under one of these (any depth) describes machines that would run: a
# cluster's or a pool's configuration, whatever tool reads it (a HyperPod CLI job's
# `cluster.instance_type`, a Slurm queue's `compute_resources`). Under others (a cost report's
# `resources`, a price list) it is data.
_MACHINE_CONTEXT = re.compile(r"(?i)(cluster|node|pool|group|queue|fleet|worker|compute)")
_PROFILE = re.compile(r"^[a-z0-9]+(-[a-z0-9.]+)*-?(gpu|tpu)(-[a-z0-9.]+)*:\d+$|"
                      r"^[a-z0-9.-]*(gpu|tpu)[a-z0-9.-]*-(a100|h100|h200|b200|l4|l40s?|t4|a10g?|"
                      r"v100|mi\d+x?|v\d+[ep]?)[a-z0-9.-]*:\d+$", re.I)
# A DRA device class whose name says it hands out accelerators (`gpu.nvidia.com`).
_DEVICE_CLASS = re.compile(r"(^|[.-])(gpus?|mig|tpus?|neuron[\w]*)([.-]|$)", re.I)
# A chart's accelerator section: `gpu: {enabled: true, type: nvidia, number: 1}` (Ollama).
_SECTION = frozenset({"gpu", "gpus", "tpu", "tpus", "accelerator", "accelerators"})
_SECTION_COUNT = ("number", "count", "quantity", "amount", "num", "limit", "request")
# Text that may hold evidence: a cheap test before parsing a file.
MARKER = re.compile(r"gpu|tpu|neuron|gaudi|accelerator|nvidia|amd\.com|habana|"
                    r"\b(ml\.)?(p[2-6]|g[3-6]|inf[12]|trn[12])[a-z]*(-[a-z]*\d+)?\.\d*x?large\b|"
                    r"\bg2-standard|\bstandard_n[cdv]", re.I)
# Keys whose values are prose or schemas, not settings.
_PROSE = frozenset({"description", "annotations", "examples", "example", "help", "notes",
                    "openAPIV3Schema", "x-kubernetes-preserve-unknown-fields"})


@dataclass(frozen=True)
class Evidence:
    path: Path  # keys and list indexes from the document root
    key: str  # the field or label that is evidence
    value: Any
    sort: str  # request | bare | selector | profile

    @property
    def dotted(self) -> str:
        return dotted(self.path)

    def describe(self) -> str:
        """`spec.resourceProfile = nvidia-gpu-h100:8`."""
        return f"{self.dotted} = {self.value}"


@dataclass
class EvidenceNote:
    """Accelerator evidence that is not a GPU resource: reported as "could not evaluate",
    grouped by its cause (the text after the reason's last `: `)."""

    address: str
    path: str
    line: int
    reason: str


def dotted(path: Path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def unwrap(value: Any) -> Any:
    """Run:ai and similar APIs wrap every field as `{value: …}`."""
    if isinstance(value, dict) and "value" in value and len(value) <= 2 and \
            set(value) <= {"value", "canEdit", "required", "locked"}:
        return value["value"]
    return value


def _positive(value: Any) -> bool:
    """A count that asks for something: a non-zero number, or text that is not a number
    (a template, an expression): unreadable, so it must be named."""
    value = unwrap(value)
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, (int, float)):
        return value > 0
    if isinstance(value, str):
        try:
            return float(value) > 0
        except ValueError:
            return value.strip() not in ("", "null", "~")
    return False


def is_vendor_resource(key: str) -> bool:
    return _VENDOR_RESOURCE.match(key) is not None


def is_gpu_label(key: str) -> bool:
    return _GPU_LABEL.match(key) is not None


def is_gpu_instance(value: Any) -> bool:
    return isinstance(value, str) and _GPU_INSTANCE.match(value.strip()) is not None


def is_profile(value: Any) -> bool:
    return isinstance(value, str) and len(value) < 80 and _PROFILE.match(value) is not None


def _selector(key: str, value: Any) -> bool:
    """A node label key (with its value) that only accelerator nodes match."""
    if _GPU_LABEL.match(key):
        return not (isinstance(value, str) and value.lower() in ("false", "0", "none", ""))
    return bool(_INSTANCE_TYPE_LABEL.match(key)) and (
        is_gpu_instance(value) or (isinstance(value, list) and any(map(is_gpu_instance, value))))


def find(doc: Any, path: Path = (), machines: bool = False) -> list[Evidence]:
    """Every piece of accelerator evidence in a parsed document. A GPU machine type in an
    `instanceType`-like field counts inside an object's `spec` (a node pool kind) or under a
    cluster/node/pool/group/queue-like key (a tool's cluster configuration), or anywhere with
    `machines` (the arguments of a Terraform resource); elsewhere such fields are data (a cost
    report, a price list)."""
    return list(_walk(doc, path, None, machines))


def _walk(node: Any, path: Path, parent: str | None, machines: bool) -> Iterator[Evidence]:
    if isinstance(node, list):  # items of a list are not fields of the map that holds it
        for i, item in enumerate(node):
            yield from _walk(item, (*path, i), f"{parent}[]", machines)
        return
    if not isinstance(node, dict):
        if is_profile(node):
            yield Evidence(path, str(path[-1]) if path else "", node, "profile")
        return
    expression = _match_expression(node)
    if expression is not None:
        yield Evidence(path, expression[0], expression[1], "selector")
        return
    for raw_key, value in node.items():
        key = str(raw_key)
        here, low = (*path, key), key.lower()
        if key in _PROSE:
            continue
        if _selector(key, unwrap(value)) or (parent == "nodeSelector" and (
                (low in _LEGACY_LABELS and MARKER.search(str(unwrap(value))))
                or is_vendor_resource(key))):
            yield Evidence(here, key, unwrap(value), "selector")
            continue
        if is_vendor_resource(key) and parent != "nodeSelector":  # there a label: selector below
            if _positive(value):
                yield Evidence(here, key, unwrap(value), "request")
            continue
        if ((low in _BARE_COUNT and (parent in _RESOURCE_MAPS or parent is None))
                or _REQUEST_COUNT.match(key)) \
                and not isinstance(unwrap(value), (dict, list)) and _positive(value):
            yield Evidence(here, key, unwrap(value), "bare")
            continue
        section = _section(low, value)
        if section is not None:
            yield Evidence((*here, section[0]) if section[0] else here, key, section[1], "bare")
            continue
        if key == "deviceClassName" and isinstance(value, str) and _DEVICE_CLASS.search(value):
            yield Evidence(here, key, value, "request")
            continue
        if low in _INSTANCE_FIELDS and (machines or "spec" in path or any(
                isinstance(p, str) and _MACHINE_CONTEXT.search(p) for p in path)) and (
                is_gpu_instance(unwrap(value)) or (
                    isinstance(value, list) and any(map(is_gpu_instance, value)))):
            yield Evidence(here, key, unwrap(value), "selector")
            continue
        if low in _BARE_NAME and parent in _RESOURCE_MAPS and isinstance(unwrap(value), str) \
                and MARKER.search(str(unwrap(value))):
            yield Evidence(here, key, unwrap(value), "bare")
            continue
        yield from _walk(value, here, key, machines)


def _section(low: str, value: Any) -> tuple[str, Any] | None:
    """(field, value) of a chart's accelerator section that asks for accelerators: its count
    field when it has a positive one, else its `enabled: true`; None when it is off or holds
    neither (a section of names or settings)."""
    if low not in _SECTION or not isinstance(value, dict):
        return None
    enabled = unwrap(value.get("enabled"))
    if enabled is False or str(enabled).lower() == "false":
        return None
    count = next((f for f in _SECTION_COUNT if f in value and
                  not isinstance(unwrap(value[f]), (dict, list))), None)
    if count is not None:
        return (count, unwrap(value[count])) if _positive(value[count]) else None
    return ("enabled", True) if enabled is True else None


def _match_expression(node: dict[str, Any]) -> tuple[str, Any] | None:
    """A node selector requirement `{key, operator: In, values}` on a GPU label."""
    key, op = node.get("key"), node.get("operator")
    if not isinstance(key, str) or op not in ("In", "Exists", "Gt", "Gte"):
        return None
    values = node.get("values")
    if _GPU_LABEL.match(key):
        if op == "In" and isinstance(values, list) and all(
                str(v).lower() in ("false", "0", "none") for v in values):
            return None
        return key, values if values is not None else op
    if _INSTANCE_TYPE_LABEL.match(key) and isinstance(values, list) and values and \
            all(is_gpu_instance(v) for v in values):
        return key, values
    return None


def first_line(text: str) -> int | None:
    """Line of the first extended-resource or profile-looking text: where a file gpulint
    cannot parse asks for accelerators."""
    m = re.search(r"(nvidia\.com/(gpu|mig-)|amd\.com/gpu|google\.com/tpu|aws\.amazon\.com/"
                  r"neuron|habana\.ai/gaudi|gpu\.intel\.com/|requestGPU|\b(gpu|gpus)\s*:\s*"
                  r"['\"]?[1-9])", text)
    return text.count("\n", 0, m.start()) + 1 if m else None
