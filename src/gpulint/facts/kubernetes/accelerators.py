"""Accelerators a pod asks for: GPUs, MIG slices, TPU chips and AWS Neuron devices.

A pod's count follows the scheduler: the sum over its containers, or the largest init container
if that is more (init containers run one at a time before the others start).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gpulint.model import Unknown

WHOLE_GPU_KEYS = ("nvidia.com/gpu", "amd.com/gpu", "nvidia.com/gpu.shared")
TPU_KEY = "google.com/tpu"
# Neuron devices; a NeuronCore is half a device on Inferentia2/Trainium (NeuronCore-v2).
NEURON_DEVICE_KEYS = ("aws.amazon.com/neuron", "aws.amazon.com/neurondevice")
NEURON_CORE_KEY = "aws.amazon.com/neuroncore"
CORES_PER_NEURON_DEVICE = 2
_MIG_RE = re.compile(r"^nvidia\.com/mig-(\d+)g\.(\d+)gb$")

# MIG profiles whose memory size belongs to a single GPU model (NVIDIA MIG user guide tables).
# 10/20/40/80 GB profiles exist on both A100-80GB and H100, so they need a node selector.
_MIG_PARENT_BY_GB = {5: "A100", 12: "H100-NVL", 24: "H100-NVL", 47: "H100-NVL", 94: "H100-NVL",
                     18: "H200", 35: "H200", 71: "H200", 141: "H200",
                     23: "B200", 45: "B200", 90: "B200", 180: "B200"}
MIG_COMPUTE_SLICES = 7  # A100, H100, H200 and B200 split into seven compute slices


@dataclass
class Accelerators:
    count: Any = 0  # devices (GPUs, TPU chips, Neuron devices) or MIG slices; Unknown if unreadable
    kind: str = "gpu"  # gpu | mig | tpu | neuron
    key: str | None = None  # the resource name asked for
    fraction: float = 1.0  # share of one GPU per unit (MIG slices)
    slice_memory_gib: float | None = None  # memory of one MIG slice
    mig_profile: str | None = None
    mig_parent: str | None = None  # GPU model implied by the MIG profile, when unique
    cpu: Any = 0.0  # vCPUs the pod requests (Unknown if unreadable), for per-resource billing
    memory_gib: Any = 0.0  # GiB of memory the pod requests


# Kubernetes quantity suffixes (resource.Quantity): binary and decimal multiples.
_MEMORY_UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50,
                 "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "": 1}
_QUANTITY_RE = re.compile(r"^([0-9]+(?:\.[0-9]*)?(?:[eE][0-9]+)?)(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P|m)?$")


def quantity(value: Any, memory: bool) -> float | Unknown:
    """A CPU quantity in vCPUs ("500m", "2") or a memory quantity in GiB ("64Gi", "1G")."""
    m = _QUANTITY_RE.match(str(value).strip())
    unit = (m.group(2) or "") if m else ""
    if m is None or (not memory and unit not in ("", "m")):
        return Unknown(f"{'memory' if memory else 'cpu'} quantity {value!r} is not readable")
    number = float(m.group(1)) / (1000 if unit == "m" else 1)
    return number * _MEMORY_UNITS.get(unit, 1) / 2**30 if memory else number


def _requested(pod: dict[str, Any], key: str) -> float | Unknown:
    """What the scheduler reserves for `key`: each container's request (its limit when it sets
    no request), summed, or the largest init container's when that is more."""
    def one(c: dict[str, Any]) -> float | Unknown:
        res: dict[str, Any] = c["resources"] if isinstance(c.get("resources"), dict) else {}
        for section in ("requests", "limits"):
            values: dict[str, Any] = res[section] if isinstance(res.get(section), dict) else {}
            if values.get(key) not in (None, ""):
                return quantity(values[key], key == "memory")
        return 0.0

    totals = []
    for group in ("containers", "initContainers"):
        parts = [one(c) for c in pod.get(group) or [] if isinstance(c, dict)]
        bad = next((p for p in parts if isinstance(p, Unknown)), None)
        if bad is not None:
            return bad
        nums = [float(p) for p in parts if not isinstance(p, Unknown)]
        totals.append(sum(nums) if group == "containers" else max(nums, default=0.0))
    return max(totals)


def _quantity(value: Any) -> int | Unknown:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return Unknown(f"accelerator quantity {value!r} is not a whole number")


def _amount(container: dict[str, Any], key: str) -> int | Unknown | None:
    """limits, else requests (extended resources may set either; both must agree)."""
    res = container.get("resources")
    res = res if isinstance(res, dict) else {}
    lims: dict[str, Any] = res["limits"] if isinstance(res.get("limits"), dict) else {}
    reqs: dict[str, Any] = res["requests"] if isinstance(res.get("requests"), dict) else {}
    for section, values in (("limits", lims), ("requests", reqs)):
        if key in values and values[key] in (None, ""):
            # `nvidia.com/gpu:` with no value: often a chart value left unset.
            return Unknown(f"{key} in {section} has no value")
    lim, req = lims.get(key), reqs.get(key)
    if lim is not None and req is not None and str(lim) != str(req):
        return Unknown(f"{key} request {req!r} differs from limit {lim!r}; "
                       "the API server rejects that")
    value = lim if lim is not None else req
    return None if value is None else _quantity(value)


def _keys(containers: list[dict[str, Any]]) -> list[str]:
    keys: list[str] = []
    for c in containers:
        res: dict[str, Any] = c["resources"] if isinstance(c.get("resources"), dict) else {}
        for section in ("limits", "requests"):
            for k in res[section] if isinstance(res.get(section), dict) else {}:
                if str(k) not in keys:
                    keys.append(str(k))
    return keys


def _total(pod: dict[str, Any], key: str) -> int | Unknown:
    containers = [c for c in pod.get("containers") or [] if isinstance(c, dict)]
    inits = [c for c in pod.get("initContainers") or [] if isinstance(c, dict)]
    main = 0
    for c in containers:
        n = _amount(c, key)
        if isinstance(n, Unknown):
            return n
        main += n or 0
    init = 0
    for c in inits:
        n = _amount(c, key)
        if isinstance(n, Unknown):
            return n
        init = max(init, n or 0)
    return max(main, init)


def read(pod: dict[str, Any]) -> Accelerators:
    """The pod's accelerator request (count 0 when it asks for none), with its CPU and memory."""
    found = _read(pod)
    if found.count:
        found.cpu, found.memory_gib = _requested(pod, "cpu"), _requested(pod, "memory")
    return found


def _read(pod: dict[str, Any]) -> Accelerators:
    every = [c for key in ("containers", "initContainers")
             for c in (pod[key] if isinstance(pod.get(key), list) else [])
             if isinstance(c, dict)]
    keys = _keys(every)
    for key in WHOLE_GPU_KEYS:
        if key in keys:
            return Accelerators(_total(pod, key), "gpu", key)
    for key in keys:
        m = _MIG_RE.match(key)
        if m:
            g, gb = int(m.group(1)), int(m.group(2))
            return Accelerators(_total(pod, key), "mig", key, fraction=g / MIG_COMPUTE_SLICES,
                                slice_memory_gib=float(gb), mig_profile=f"{g}g.{gb}gb",
                                mig_parent=_MIG_PARENT_BY_GB.get(gb))
    if TPU_KEY in keys:
        return Accelerators(_total(pod, TPU_KEY), "tpu", TPU_KEY)
    for key in NEURON_DEVICE_KEYS:
        if key in keys:
            return Accelerators(_total(pod, key), "neuron", key)
    if NEURON_CORE_KEY in keys:
        cores = _total(pod, NEURON_CORE_KEY)
        count = cores if isinstance(cores, Unknown) else -(-cores // CORES_PER_NEURON_DEVICE)
        return Accelerators(count, "neuron", NEURON_CORE_KEY)
    return Accelerators()
