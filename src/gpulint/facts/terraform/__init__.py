"""Terraform resource instances → provider-neutral GPU facts.

One builder per resource type, in one module per cloud (tf_aws, tf_gcp, tf_azure,
tf_databricks, oci, nebius). A builder returns one resource, several (a cluster with node pools,
an endpoint with variants), or none (a launch template that a node group prices instead).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from gpulint.fact_types import Resource
from gpulint.facts.model_decl import declared_model
from gpulint.facts.terraform import aws as tf_aws
from gpulint.facts.terraform import azure as tf_azure
from gpulint.facts.terraform import databricks as tf_databricks
from gpulint.facts.terraform import gcp as tf_gcp
from gpulint.facts.terraform import gcp_serving, hints, hyperpod, nebius, oci
from gpulint.model import Unknown
from gpulint.terraform.views import ResourceInstance

Built = Resource | list[Resource] | None

BUILDERS: dict[str, Callable[[ResourceInstance], Built]] = {
    **tf_aws.BUILDERS, **tf_gcp.BUILDERS, **tf_azure.BUILDERS, **tf_databricks.BUILDERS,
    **hyperpod.BUILDERS, **gcp_serving.BUILDERS, **oci.BUILDERS, **nebius.BUILDERS,
}

ACCELERATOR_KINDS = {"gpu", "tpu", "inferentia", "trainium", "gaudi", "qualcomm_ai100"}


def is_gpu(res: Resource) -> bool:
    """Keep resources with GPUs, and those whose GPUs could not be determined (so they are
    reported)."""
    count = res.facts.get("gpu.count")
    if isinstance(count, Unknown):
        return True
    return isinstance(count, (int, float)) and count > 0 and \
        res.facts.get("accelerator.kind", "gpu") in ACCELERATOR_KINDS


# Words that make a name accelerator evidence (a `gpu` pool key, `var.gpu_type`, a TPU resource
# type); not inside another word ("output" holds "tpu").
_ACCELERATOR_NAME = re.compile(r"(?<![a-z])(gpu|tpu|nvidia|accelerat|neuron|cuda)", re.I)


def type_unknown(res: Resource) -> bool:
    """Nothing but an unread machine type makes this resource a GPU candidate: no accelerator
    block, no GPU model, no GPU-looking AMI, taint or label, no model it serves, and neither
    its resource type, its address nor the variable its type comes from names an accelerator.
    Such a pool is not a GPU resource; it is named once per cause (unknown_types.py), never
    listed in the GPU table."""
    itype = res.facts.get("instance.type")
    if not isinstance(res.facts.get("gpu.count"), Unknown) or not isinstance(itype, Unknown) \
            or hints.gpu_hint(res) is not None or isinstance(res.facts.get("gpu.model"), str) \
            or declared_model(res) is not None:
        return False
    names = [res.type, res.address, *re.findall(r"variable (\S+)", itype.reason)]
    return not any(_ACCELERATOR_NAME.search(n) for n in names)


def _set_aside(inst: ResourceInstance, found: list[Resource]) -> list[Resource]:
    """The resources type_unknown puts aside, unless the block writes a GPU type somewhere."""
    aside = [res for res in found if type_unknown(res)]
    if aside and hints.literal_gpu(getattr(inst.view, "block", None)):
        return []
    return aside


def build_all(inst: ResourceInstance,
              set_aside: list[Resource] | None = None) -> list[Resource]:
    """The GPU resources one resource instance describes. With `set_aside`, pools whose only
    GPU evidence would be an unknown machine type go there instead (type_unknown)."""
    builder = BUILDERS.get(inst.type)
    if builder is None or inst.mode != "managed":
        return []
    built = builder(inst)
    found = built if isinstance(built, list) else [built] if built is not None else []
    if set_aside is not None:
        aside = _set_aside(inst, found)
        set_aside += aside
        found = [res for res in found if not any(res is a for a in aside)]
    for res in found:
        hints.apply(res)
    return [res for res in found if is_gpu(res)]


def build(inst: ResourceInstance) -> Resource | None:
    found = build_all(inst)
    return found[0] if found else None
