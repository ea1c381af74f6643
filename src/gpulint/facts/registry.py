"""Every fact: its name, type, meaning and the stage that sets it.

Rules read facts, never provider attributes. This module is the one list of them; from it come
the `Facts` TypedDict of gpulint/fact_types.py (the type of Resource.facts, so mypy checks fact
names and value types), the rule schema's `fact` enum, the reference table in docs/facts.md and
the message placeholders (every fact, dots shown as underscores, plus the short names the
built-in rules have always used).
Regenerate the TypedDict, the schema enum and the docs table with
`python -m gpulint.facts.registry` (facts/generate.py writes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts import generate
from gpulint.model import Alternative, Unknown
from gpulint.units import usd_whole


@dataclass(frozen=True)
class Fact:
    name: str
    type: str  # string, number, integer, boolean, usd, mapping, list, alternative, text
    meaning: str
    set_by: str  # the stage: facts, link, configured, pricing, derive.<step>
    # The Python type of its value, as the Facts TypedDict declares it: `Unknown` where a
    # builder may fail to resolve the value, `None` where one writes "not applicable".
    python: str


STAGES = {
    "facts": "fact builders (per input family)", "link": "Kubernetes linking",
    "plan": "Terraform plan builder", "pricing": "pricing deriver",
    "derive": "derive (labels for messages)", "derive.tags": "tags deriver",
    "derive.fit": "fit deriver", "derive.idle": "idle-GPU deriver",
    "derive.generation": "generation deriver",
}

FACTS: tuple[Fact, ...] = (
    Fact("provider", "string", "aws, gcp, azure, databricks or kubernetes", "facts",
         "str | Unknown"),
    Fact("provider.cloud", "string", "the cloud a Kubernetes workload's nodes run in", "facts",
         "str | Unknown | None"),
    Fact("region", "string", "region (or zone) the resource is priced in", "facts",
         "str | Unknown"),
    Fact("region.source", "string", "code, config or default: where the region came from",
         "facts", "str | None"),
    Fact("instance.type", "string", "instance / machine type / VM size", "facts", "str | Unknown"),
    Fact("instance.alternatives", "list", "further instance types a pool may launch", "facts",
         "list[str]"),
    Fact("accelerator.kind", "string", "gpu, tpu or neuron", "facts", "str"),
    Fact("gpu.model", "string", "GPU model (A100, H100, L4…)", "facts", "str | Unknown | None"),
    Fact("gpu.count", "number", "GPUs (or MIG slices, TPU chips, Neuron devices) per node or pod",
         "facts", "float | Unknown"),
    Fact("gpu.memory_gib", "number", "memory of one GPU, GiB", "facts", "float | Unknown | None"),
    Fact("gpu.total_memory_gib", "number", "memory of all the GPUs given, GiB", "derive.fit",
         "float"),
    Fact("gpu.fraction", "number", "share of a GPU one MIG slice is", "facts", "float"),
    Fact("gpu.mig_profile", "string", "MIG profile of the slices (1g.10gb…)", "facts",
         "str | None"),
    Fact("gpu.attached", "boolean", "GPUs attached to a GCP host (priced host + GPUs)", "facts",
         "bool"),
    Fact("gpu.accelerator_type", "string", "GCP accelerator type of attached GPUs", "facts",
         "str | None"),
    Fact("gpu.generation", "string", "current or previous (generations table)",
         "derive.generation", "str | Unknown"),
    Fact("group.hosts", "integer", "hosts of a multi-host group one model is served across",
         "facts", "int"),
    Fact("group.gpu_count", "number", "GPUs of all the hosts of a multi-host group", "facts",
         "float"),
    Fact("group.source", "string", "what makes the hosts one group (LeaderWorkerSet…)",
         "facts", "str"),
    Fact("tpu.slice", "string", "TPU slice type (v5e-8…)", "facts", "str"),
    Fact("node.gpu_count", "number", "GPUs on the node a pod runs on", "facts", "float"),
    Fact("node.labels", "mapping", "labels of a node pool's nodes", "facts", "dict[str, Any]"),
    Fact("node.taints", "list", "taints of a node pool's nodes", "facts", "list[Any]"),
    Fact("node_pool", "string", "the node pool a Kubernetes workload runs on", "link",
         "str | Unknown"),
    Fact("nodepool.gpu_limit", "integer", "a Karpenter NodePool's GPU limit", "facts",
         "float | Unknown"),
    Fact("nodepool.node_class", "list", "the (kind, name) of the node class a Karpenter NodePool "
         "uses", "facts", "tuple[str, str]"),
    Fact("nodepool.consolidation", "string", "a Karpenter NodePool's consolidation policy",
         "facts", "str"),
    Fact("k8s.kind", "string", "Kubernetes kind", "facts", "str"),
    Fact("k8s.read_as", "string", "how a kind without a reader of its own was read (generic "
         "reading: where its pods and replicas were found)", "facts", "str"),
    Fact("k8s.name", "string", "Kubernetes object name", "facts", "str"),
    Fact("k8s.namespace", "string", "Kubernetes namespace", "facts", "str | None"),
    Fact("k8s.resource", "string", "the extended resource requested (nvidia.com/gpu…)", "facts",
         "str | None"),
    Fact("pod.cpu", "number", "vCPUs a pod requests, on clouds that bill them (CoreWeave)",
         "facts", "float | Unknown"),
    Fact("pod.memory_gib", "number", "GiB of memory a pod requests, on clouds that bill it "
         "(CoreWeave)", "facts", "float | Unknown"),
    Fact("count", "integer", "count/for_each of the resource, when it cannot be expanded",
         "facts", "int | Unknown"),
    Fact("zones", "integer", "zones a regional pool is replicated in", "facts", "int"),
    Fact("zones.names", "list", "the zones a node group names", "facts", "list[str]"),
    Fact("replicas.min", "integer", "minimum nodes or replicas", "facts", "int | Unknown"),
    Fact("replicas.max", "integer", "maximum nodes or replicas", "facts", "int | Unknown"),
    Fact("replicas.desired", "integer", "desired nodes or replicas", "facts", "int | Unknown"),
    Fact("replicas.source", "string", "where the replica count came from", "facts", "str"),
    Fact("capacity", "string", "on-demand, spot or mixed", "facts", "str | Unknown"),
    Fact("capacity.source", "string", "where the capacity came from", "facts", "str"),
    Fact("capacity.spot_fraction", "number", "share of a mixed pool's nodes on spot",
         "facts", "float | Unknown"),
    Fact("capacity.on_demand_base", "integer", "on-demand nodes before the percentage applies",
         "facts", "int"),
    Fact("capacity.on_demand_percent", "number", "percentage of the rest on demand", "facts",
         "float"),
    Fact("workload", "string", "training, inference, notebook, batch, dev or unknown", "facts",
         "str"),
    Fact("workload.source", "string", "the tag, label or name the workload came from", "facts",
         "str | None"),
    Fact("option", "string", "a choice users may make, not a workload that runs (a JupyterHub "
         "profile; the gpulint.dev/option annotation): priced per hour, outside totals",
         "facts", "str"),
    Fact("shutdown", "string", "none, schedule, scale-to-zero or idle", "facts", "str | Unknown"),
    Fact("tags", "mapping", "cost-allocation tags or labels, provider defaults merged in",
         "facts", "dict[str, Any] | Unknown"),
    Fact("tags.inherited", "mapping", "tag key → where a Kubernetes object inherited it "
         "(its namespace's labels)", "facts", "dict[str, str]"),
    Fact("tags.required", "list", "the tag keys required for this resource's provider "
         "(configuration tags.required)", "derive.tags", "list[str]"),
    Fact("tags.patterns", "mapping", "tag key → regular expression its value must match "
         "(configuration tags.patterns)", "derive.tags", "dict[str, str]"),
    Fact("change.actions", "list", "plan actions (create, update, delete…)", "plan", "list[str]"),
    Fact("model.id", "string", "the declared model, as the model catalog names it",
         "derive.fit", "str | Unknown"),
    Fact("model.source", "string", "where the model was declared", "derive.fit", "str"),
    Fact("model.params_b", "number", "parameters, billions", "derive.fit", "float"),
    Fact("model.estimated", "boolean", "the size was read from the model's name", "derive.fit",
         "bool"),
    Fact("model.precision", "string", "weights precision of the estimate", "derive.fit",
         "str | None"),
    Fact("model.purpose", "string", "inference, training, lora or qlora", "derive.fit", "str"),
    Fact("model.required_gib", "number", "memory the model needs at minimum, GiB",
         "derive.fit", "float"),
    Fact("model.minimum", "string", "the minimum estimate, with its inputs", "derive.fit", "str"),
    Fact("model.estimate", "string", "the typical-load estimate, with its inputs", "derive.fit",
         "str"),
    Fact("model.fits", "boolean", "the minimum fits the GPUs the server uses (sizing."
         "fit_headroom)", "derive.fit", "bool | Unknown"),
    Fact("model.tensor_parallel", "integer", "declared tensor parallelism", "derive.fit", "int"),
    Fact("model.max_concurrency", "integer", "sequences of the context the KV cache the engine "
         "leaves after weights holds at once, capped by its sequence limit (declared or "
         "documented default)", "derive.fit", "int"),
    Fact("explain.max_concurrency", "text", "model.max_concurrency with the context, KV cache "
         "per GPU and the engine settings it rests on", "derive.fit", "str"),
    Fact("sizing.utilization", "number", "typical-load estimate / GPU memory given",
         "derive.fit", "float"),
    Fact("sizing.alternative", "string", "the cheapest current-generation offer that holds the "
         "estimate (null: none cheaper)", "derive.fit", "str | Unknown | None"),
    Fact("sizing.saving_fraction", "number", "share of the cost alternative.sizing saves",
         "derive.fit", "float | Unknown"),
    Fact("sizing.saving_not_known", "boolean", "a smaller fit is named but the resource has no "
         "price, so what it saves is not known", "derive.fit", "bool"),
    Fact("alternative.sizing", "alternative", "the right-sized alternative, priced",
         "derive.fit", "Alternative"),
    Fact("sizing.idle_gpus", "integer", "GPUs given to a model server beyond what its "
         "parallelism uses", "derive.idle", "int | Unknown"),
    Fact("sizing.used_gpus", "integer", "GPUs the server's parallelism uses", "derive.idle", "int"),
    Fact("sizing.idle_alternative", "string", "the request or instance without the idle GPUs",
         "derive.idle", "str"),
    Fact("alternative.idle", "alternative", "the alternative without idle GPUs, priced",
         "derive.idle", "Alternative"),
    Fact("sizing.generation_alternative", "string", "the current-generation offer that does the "
         "same work for less (null: none)", "derive.generation", "str | None"),
    Fact("sizing.generation_saving_fraction", "number", "share of the cost "
         "alternative.generation saves", "derive.generation", "float | Unknown"),
    Fact("alternative.generation", "alternative", "the current-generation alternative, priced",
         "derive.generation", "Alternative"),
    Fact("cost.instance_type", "string", "the type priced, when it differs (SageMaker ml.*)",
         "facts", "str"),
    Fact("cost.note", "string", "a note for the price basis", "facts", "str"),
    Fact("sagemaker.use", "string", "what a SageMaker ml.* instance runs, which picks its rate: "
         "hosting, training, notebook or hyperpod", "facts", "str"),
    Fact("cost.run_hours", "number", "hours one run of a job lasts at most (a SageMaker training "
         "job's stoppingCondition): the hours priced, one run a month", "facts", "float"),
    Fact("cost.run_hours_source", "string", "where cost.run_hours comes from", "facts", "str"),
    Fact("cost.compare_hourly", "number", "the hourly price cheaper alternatives are compared "
         "on, when it is not cost.hourly (a SageMaker endpoint's EC2 rate)", "pricing", "float"),
    Fact("cost.unpriced", "string", "why the catalog cannot price this resource", "facts",
         "str"),
    Fact("cost.service_shape", "mapping", "what a service billed per instance-second is "
         "priced on: its accelerator, GPUs, vCPUs, memory GiB and zonal redundancy (Cloud Run)",
         "facts", "dict[str, Any]"),
    Fact("cost.cloud", "string", "the cloud a Kubernetes workload is priced in", "pricing", "str"),
    Fact("cost.cloud_source", "string",
         "why a Kubernetes workload is priced in that cloud, when no label names it", "pricing",
         "str"),
    Fact("cost.region", "string", "the region a Kubernetes workload is priced in", "pricing",
         "str"),
    Fact("terraform.provider_regions", "mapping", "cloud → region of the Terraform provider "
         "blocks of the code that applies a Kubernetes object or its Karpenter NodePool",
         "facts", "dict[str, str]"),
    Fact("terraform.provider_regions.via", "string", "the NodePool those regions came from",
         "link", "str"),
    Fact("instance.allowed", "list", "the instance types a Karpenter NodePool's requirements "
         "allow a pod linked to it (family, size, CPUs …), when they narrow them", "link",
         "list[str]"),
    Fact("cluster", "string", "the declared cluster a Kubernetes workload runs in", "link", "str"),
    Fact("cluster.region", "string", "the region of that declared cluster, when it names one",
         "link", "str"),
    Fact("node.gpu_shortfall", "string",
         "why the linked pool's nodes cannot hold the pod (fewer GPUs than it requests)", "link",
         "str"),
    Fact("cost.hourly", "number", "hourly price per node or replica, USD", "pricing",
         "float | Unknown"),
    Fact("cost.count", "number", "nodes or replicas priced", "pricing", "float | Unknown"),
    Fact("cost.hours", "number", "hours a month priced", "pricing", "float"),
    Fact("cost.monthly", "usd", "expected monthly cost (the desired count), USD", "pricing",
         "float | Unknown"),
    Fact("cost.monthly_min", "usd", "monthly cost at an autoscaling pool's minimum", "pricing",
         "float"),
    Fact("cost.monthly_max", "usd", "monthly cost at an autoscaling pool's maximum", "pricing",
         "float"),
    Fact("cost.monthly_before", "usd", "monthly cost before a planned change", "plan",
         "float | Unknown | None"),
    Fact("cost.basis", "string", "how the monthly cost was computed", "pricing", "str"),
    Fact("explain.gpu", "text", "the GPUs, as messages name them ('GPU (model unknown)' when "
         "not known; the MIG profile of slices)", "derive", "str"),
    Fact("explain.model_label", "text", "the declared model, saying when its size was read "
         "from its name", "derive.fit", "str"),
    Fact("explain.provided", "text", "the GPU memory given, and what tensor parallelism uses",
         "derive.fit", "str"),
    Fact("explain.alternative_detail", "text", "the right-sized alternative and its price, or "
         "why there is none", "derive.fit", "str"),
    Fact("explain.alternative_saving", "text", "the monthly saving of alternative.sizing",
         "derive.fit", "str"),
    Fact("explain.parallelism", "text", "the parallelism that decides the GPUs used",
         "derive.idle", "str"),
    Fact("explain.idle_fix", "text", "what to do about idle GPUs", "derive.idle", "str"),
    Fact("explain.idle_detail", "text", "the alternative without idle GPUs and its price",
         "derive.idle", "str"),
    Fact("explain.idle_saving", "text", "the monthly saving of alternative.idle", "derive.idle",
         "str"),
    Fact("explain.generation", "text", "the GPU with its architecture and year",
         "derive.generation", "str"),
    Fact("explain.generation_detail", "text", "the current-generation alternative, its price "
         "and why it does the same work", "derive.generation", "str"),
    Fact("explain.generation_saving", "text", "the monthly saving of alternative.generation",
         "derive.generation", "str"),
    Fact("explain.missing_tags", "text", "the required tags missing and the tags whose value "
         "fails its pattern", "derive.tags", "str"),
)

BY_NAME: dict[str, Fact] = {f.name: f for f in FACTS}

# The short placeholder names rule messages have always used → the facts they show (first
# present wins).
ALIASES: dict[str, tuple[str, ...]] = {
    "gpu_model": ("explain.gpu",), "model": ("model.id",), "precision": ("model.precision",),
    "required_gib": ("model.required_gib",), "provided_gib": ("gpu.total_memory_gib",),
    "estimate": ("model.estimate",), "minimum": ("model.minimum",),
    "alternative": ("sizing.alternative",), "monthly_cost": ("cost.monthly",),
    "missing_tags": ("explain.missing_tags",), "idle_gpus": ("sizing.idle_gpus",),
    "tensor_parallel": ("model.tensor_parallel",), "used_gpus": ("sizing.used_gpus",),
    "model_label": ("explain.model_label", "model.id"), "provided": ("explain.provided",),
    "alternative_detail": ("explain.alternative_detail",),
    "alternative_saving": ("explain.alternative_saving",),
    "parallelism": ("explain.parallelism",), "idle_fix": ("explain.idle_fix",),
    "generation": ("explain.generation",),
    "generation_detail": ("explain.generation_detail",),
    "generation_saving": ("explain.generation_saving",),
}
# Placeholders of the resource itself rather than a fact.
RESOURCE_PLACEHOLDERS = ("address", "type", "path")


def placeholder_name(fact: str) -> str:
    return fact.replace(".", "_")


def placeholder_names() -> list[str]:
    """Every placeholder a rule message may use."""
    names = [*RESOURCE_PLACEHOLDERS, *ALIASES]
    names += [p for p in map(placeholder_name, BY_NAME) if p not in names]
    names += ["alternative_monthly", "cost_per_month"]
    return names


def _text(value: Any, kind: str) -> str:
    if kind == "usd":  # an amount is never shown as "?"
        return usd_whole(value) if isinstance(value, (int, float)) else "not priced"
    if isinstance(value, Unknown) or value is None:
        return "?"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def placeholders(res: Resource) -> dict[str, str]:
    """Every placeholder's text for one resource; unknown or absent values show as '?', an
    amount as 'not priced'."""
    f = res.facts
    out = {"address": res.address, "type": res.type, "path": res.path}
    for fact in FACTS:
        out.setdefault(placeholder_name(fact.name), _text(f.get(fact.name), fact.type))
    for alias, names in ALIASES.items():
        name = next((n for n in names if n in f), names[0])
        out[alias] = _text(f.get(name), BY_NAME[name].type)
    alt = f.get("alternative.sizing")
    out["alternative_monthly"] = _text(alt.monthly if isinstance(alt, Alternative) else None,
                                       "usd")
    monthly = f.get("cost.monthly")
    out["cost_per_month"] = (f"{usd_whole(monthly)}/month" if isinstance(monthly, (int, float))
                             else "not priced")
    return out


def lists() -> generate.Lists:
    """The lists generate.py writes the TypedDict, schema enum and docs table from."""
    return generate.Lists(FACTS, STAGES, ALIASES, placeholder_name)


if __name__ == "__main__":  # regenerate what is written from the list above
    import os

    generate.write(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir),
                   lists())
