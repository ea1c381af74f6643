"""GKE TPU machine types (`ct5lp-hightpu-4t`, `ct6e-standard-8t`, `tpu7x-standard-4t`): TPU
chips per VM, priced from the catalog's TPU slice rows of the same generation and chip count.

Slice rows are named by chips for v5e (`tpu-v5litepod-4`) and v6e, by TensorCores for v4 and
v5p (two per chip: `tpu-v5p-8` is 4 chips), as Cloud TPU names them.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.fact_types import Resource
from gpulint.model import Unknown
from gpulint.pricing import catalog

_MACHINE = re.compile(r"^(ct4p|ct5lp|ct5p|ct6e|tpu7x)-[a-z]+-(\d+)t$")
# Machine type prefix → (catalog slice family, TensorCores per chip, generation name).
_FAMILIES = {"ct4p": ("v4", 2, "TPU v4"), "ct5lp": ("v5litepod", 1, "TPU v5e"),
             "ct5p": ("v5p", 2, "TPU v5p"), "ct6e": ("v6e", 1, "TPU v6e"),
             "tpu7x": (None, 2, "TPU7x")}


def chips_per_vm(machine_type: Any) -> int | None:
    m = _MACHINE.match(machine_type) if isinstance(machine_type, str) else None
    return int(m.group(2)) if m else None


def tpu_machine(res: Resource, machine_type: Any) -> bool:
    """TPU facts for a GKE TPU machine type; False when it is not one."""
    chips = chips_per_vm(machine_type)
    if chips is None:
        return False
    m = _MACHINE.match(machine_type)
    assert m is not None
    family, cores, generation = _FAMILIES[m.group(1)]
    res.facts["accelerator.kind"] = "tpu"
    res.facts["gpu.count"] = chips
    res.facts["gpu.memory_gib"] = None  # the catalog's TPU rows give no memory figure
    spec = catalog.gcp_accelerator(f"tpu-{family}-{chips * cores}") if family else None
    if spec is None:
        why = Unknown(f"{generation} machine type {machine_type}: no {generation} row in the "
                      "gcp catalog")
        res.set_fact("gpu.model", why)
        return True
    res.facts["gpu.model"] = spec.gpu_model
    res.facts["tpu.slice"] = spec.name
    res.facts["cost.instance_type"] = spec.name  # one VM is that slice, priced per hour
    return True


def topology_nodes(topology: Any, machine_type: Any) -> Any:
    """VMs of a multi-host slice: chips of `placement_policy.tpu_topology` ("2x4") over chips
    per VM; None when no topology is set."""
    if topology is None:
        return None
    per_vm = chips_per_vm(machine_type)
    if isinstance(topology, Unknown):
        return Unknown(f"tpu_topology: {topology.reason}")
    dims = str(topology).lower().split("x")
    if not per_vm or not all(d.isdigit() for d in dims):
        return Unknown(f"tpu_topology {topology!r} is not a topology of {machine_type}")
    chips = 1
    for d in dims:
        chips *= int(d)
    return max(chips // per_vm, 1)
