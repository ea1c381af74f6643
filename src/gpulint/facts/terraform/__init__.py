"""Terraform resource instances → provider-neutral GPU facts.

One builder per resource type, in one module per cloud (tf_aws, tf_gcp, tf_azure,
tf_databricks, oci, nebius). A builder returns one resource, several (a cluster with node pools,
an endpoint with variants), or none (a launch template that a node group prices instead).
"""

from __future__ import annotations

from collections.abc import Callable

from gpulint.fact_types import Resource
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


def build_all(inst: ResourceInstance) -> list[Resource]:
    """The GPU resources one resource instance describes."""
    builder = BUILDERS.get(inst.type)
    if builder is None or inst.mode != "managed":
        return []
    built = builder(inst)
    found = built if isinstance(built, list) else [built] if built is not None else []
    for res in found:
        hints.apply(res)
    return [res for res in found if is_gpu(res)]


def build(inst: ResourceInstance) -> Resource | None:
    found = build_all(inst)
    return found[0] if found else None
