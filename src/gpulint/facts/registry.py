"""Every fact: its name, type, meaning and the stage that sets it.

Rules read facts, never provider attributes. This module is the one list of them; from it come
the `Facts` TypedDict of gpulint/fact_types.py (the type of Resource.facts, so mypy checks fact
names and value types),
the rule schema's `fact` enum, the reference table in docs/facts.md and the message placeholders
(every fact, dots shown as underscores, plus the short names the built-in rules have always
used).
Regenerate the schema enum and the docs table with `python -m gpulint.facts.registry`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gpulint.fact_types import Resource
from gpulint.model import Alternative, Unknown
from gpulint.units import usd_whole


@dataclass(frozen=True)
class Fact:
    name: str
    type: str  # string, number, integer, boolean, usd, mapping, list, alternative, text
    meaning: str
    set_by: str  # the stage: facts, link, configured, pricing, derive.<step>


_STAGES = {
    "facts": "fact builders (per input family)", "link": "Kubernetes linking",
    "plan": "Terraform plan builder", "pricing": "pricing deriver",
    "derive": "derive (labels for messages)", "derive.tags": "tags deriver",
    "derive.fit": "fit deriver", "derive.idle": "idle-GPU deriver",
    "derive.generation": "generation deriver",
}

FACTS: tuple[Fact, ...] = (
    Fact("provider", "string", "aws, gcp, azure, databricks or kubernetes", "facts"),
    Fact("provider.cloud", "string", "the cloud a Kubernetes workload's nodes run in", "facts"),
    Fact("region", "string", "region (or zone) the resource is priced in", "facts"),
    Fact("region.source", "string", "code, config or default: where the region came from",
         "facts"),
    Fact("instance.type", "string", "instance / machine type / VM size", "facts"),
    Fact("instance.alternatives", "list", "further instance types a pool may launch", "facts"),
    Fact("accelerator.kind", "string", "gpu, tpu or neuron", "facts"),
    Fact("gpu.model", "string", "GPU model (A100, H100, L4…)", "facts"),
    Fact("gpu.count", "number", "GPUs (or MIG slices, TPU chips, Neuron devices) per node or pod",
         "facts"),
    Fact("gpu.memory_gib", "number", "memory of one GPU, GiB", "facts"),
    Fact("gpu.total_memory_gib", "number", "memory of all the GPUs given, GiB", "derive.fit"),
    Fact("gpu.fraction", "number", "share of a GPU one MIG slice is", "facts"),
    Fact("gpu.mig_profile", "string", "MIG profile of the slices (1g.10gb…)", "facts"),
    Fact("gpu.attached", "boolean", "GPUs attached to a GCP host (priced host + GPUs)", "facts"),
    Fact("gpu.accelerator_type", "string", "GCP accelerator type of attached GPUs", "facts"),
    Fact("gpu.generation", "string", "current or previous (generations table)",
         "derive.generation"),
    Fact("group.hosts", "integer", "hosts of a multi-host group one model is served across",
         "facts"),
    Fact("group.gpu_count", "number", "GPUs of all the hosts of a multi-host group", "facts"),
    Fact("group.source", "string", "what makes the hosts one group (LeaderWorkerSet…)",
         "facts"),
    Fact("tpu.slice", "string", "TPU slice type (v5e-8…)", "facts"),
    Fact("node.gpu_count", "number", "GPUs on the node a pod runs on", "facts"),
    Fact("node.labels", "mapping", "labels of a node pool's nodes", "facts"),
    Fact("node.taints", "list", "taints of a node pool's nodes", "facts"),
    Fact("node_pool", "string", "the node pool a Kubernetes workload runs on", "link"),
    Fact("nodepool.gpu_limit", "integer", "a Karpenter NodePool's GPU limit", "facts"),
    Fact("nodepool.node_class", "list", "the (kind, name) of the node class a Karpenter NodePool "
         "uses", "facts"),
    Fact("nodepool.consolidation", "string", "a Karpenter NodePool's consolidation policy",
         "facts"),
    Fact("k8s.kind", "string", "Kubernetes kind", "facts"),
    Fact("k8s.name", "string", "Kubernetes object name", "facts"),
    Fact("k8s.namespace", "string", "Kubernetes namespace", "facts"),
    Fact("k8s.resource", "string", "the extended resource requested (nvidia.com/gpu…)", "facts"),
    Fact("count", "integer", "count/for_each of the resource, when it cannot be expanded",
         "facts"),
    Fact("zones", "integer", "zones a regional pool is replicated in", "facts"),
    Fact("zones.names", "list", "the zones a node group names", "facts"),
    Fact("replicas.min", "integer", "minimum nodes or replicas", "facts"),
    Fact("replicas.max", "integer", "maximum nodes or replicas", "facts"),
    Fact("replicas.desired", "integer", "desired nodes or replicas", "facts"),
    Fact("replicas.source", "string", "where the replica count came from", "facts"),
    Fact("capacity", "string", "on-demand, spot or mixed", "facts"),
    Fact("capacity.source", "string", "where the capacity came from", "facts"),
    Fact("capacity.spot_fraction", "number", "share of a mixed pool's nodes on spot",
         "facts"),
    Fact("capacity.on_demand_base", "integer", "on-demand nodes before the percentage applies",
         "facts"),
    Fact("capacity.on_demand_percent", "number", "percentage of the rest on demand", "facts"),
    Fact("workload", "string", "training, inference, notebook, batch, dev or unknown", "facts"),
    Fact("workload.source", "string", "the tag, label or name the workload came from", "facts"),
    Fact("shutdown", "string", "none, schedule, scale-to-zero or idle", "facts"),
    Fact("tags", "mapping", "cost-allocation tags or labels, provider defaults merged in",
         "facts"),
    Fact("tags.inherited", "mapping", "tag key → where a Kubernetes object inherited it "
         "(its namespace's labels)", "facts"),
    Fact("tags.required", "list", "the tag keys required for this resource's provider "
         "(configuration tags.required)", "derive.tags"),
    Fact("tags.patterns", "mapping", "tag key → regular expression its value must match "
         "(configuration tags.patterns)", "derive.tags"),
    Fact("change.actions", "list", "plan actions (create, update, delete…)", "plan"),
    Fact("model.id", "string", "the declared model, as the model catalog names it",
         "derive.fit"),
    Fact("model.source", "string", "where the model was declared", "derive.fit"),
    Fact("model.params_b", "number", "parameters, billions", "derive.fit"),
    Fact("model.estimated", "boolean", "the size was read from the model's name", "derive.fit"),
    Fact("model.precision", "string", "weights precision of the estimate", "derive.fit"),
    Fact("model.purpose", "string", "inference, training, lora or qlora", "derive.fit"),
    Fact("model.required_gib", "number", "memory the model needs at minimum, GiB",
         "derive.fit"),
    Fact("model.minimum", "string", "the minimum estimate, with its inputs", "derive.fit"),
    Fact("model.estimate", "string", "the typical-load estimate, with its inputs", "derive.fit"),
    Fact("model.fits", "boolean", "the minimum fits the GPUs the server uses (sizing."
         "fit_headroom)", "derive.fit"),
    Fact("model.tensor_parallel", "integer", "declared tensor parallelism", "derive.fit"),
    Fact("sizing.utilization", "number", "typical-load estimate / GPU memory given",
         "derive.fit"),
    Fact("sizing.alternative", "string", "the cheapest current-generation offer that holds the "
         "estimate (null: none cheaper)", "derive.fit"),
    Fact("sizing.saving_fraction", "number", "share of the cost alternative.sizing saves",
         "derive.fit"),
    Fact("alternative.sizing", "alternative", "the right-sized alternative, priced",
         "derive.fit"),
    Fact("sizing.idle_gpus", "integer", "GPUs given to a model server beyond what its "
         "parallelism uses", "derive.idle"),
    Fact("sizing.used_gpus", "integer", "GPUs the server's parallelism uses", "derive.idle"),
    Fact("sizing.idle_alternative", "string", "the request or instance without the idle GPUs",
         "derive.idle"),
    Fact("alternative.idle", "alternative", "the alternative without idle GPUs, priced",
         "derive.idle"),
    Fact("sizing.generation_alternative", "string", "the current-generation offer that does the "
         "same work for less (null: none)", "derive.generation"),
    Fact("sizing.generation_saving_fraction", "number", "share of the cost "
         "alternative.generation saves", "derive.generation"),
    Fact("alternative.generation", "alternative", "the current-generation alternative, priced",
         "derive.generation"),
    Fact("cost.instance_type", "string", "the type priced, when it differs (SageMaker ml.*)",
         "facts"),
    Fact("cost.note", "string", "a note for the price basis", "facts"),
    Fact("cost.unpriced", "string", "why the catalog cannot price this resource (Cloud Run "
         "GPUs)", "facts"),
    Fact("cost.cloud", "string", "the cloud a Kubernetes workload is priced in", "pricing"),
    Fact("cost.cloud_source", "string",
         "why a Kubernetes workload is priced in that cloud, when no label names it", "pricing"),
    Fact("cost.region", "string", "the region a Kubernetes workload is priced in", "pricing"),
    Fact("terraform.provider_regions", "mapping", "cloud → region of the Terraform provider "
         "blocks of the code that applies a Kubernetes object or its Karpenter NodePool",
         "facts"),
    Fact("terraform.provider_regions.via", "string", "the NodePool those regions came from",
         "link"),
    Fact("instance.allowed", "list", "the instance types a Karpenter NodePool's requirements "
         "allow a pod linked to it (family, size, CPUs …), when they narrow them", "link"),
    Fact("cluster", "string", "the declared cluster a Kubernetes workload runs in", "link"),
    Fact("cluster.region", "string", "the region of that declared cluster, when it names one",
         "link"),
    Fact("node.gpu_shortfall", "string",
         "why the linked pool's nodes cannot hold the pod (fewer GPUs than it requests)", "link"),
    Fact("cost.hourly", "number", "hourly price per node or replica, USD", "pricing"),
    Fact("cost.count", "number", "nodes or replicas priced", "pricing"),
    Fact("cost.hours", "number", "hours a month priced", "pricing"),
    Fact("cost.monthly", "usd", "monthly cost, USD", "pricing"),
    Fact("cost.monthly_max", "usd", "monthly cost at an autoscaling pool's maximum", "pricing"),
    Fact("cost.monthly_before", "usd", "monthly cost before a planned change", "plan"),
    Fact("cost.basis", "string", "how the monthly cost was computed", "pricing"),
    Fact("explain.gpu", "text", "the GPUs, as messages name them ('GPU (model unknown)' when "
         "not known; the MIG profile of slices)", "derive"),
    Fact("explain.model_label", "text", "the declared model, saying when its size was read "
         "from its name", "derive.fit"),
    Fact("explain.provided", "text", "the GPU memory given, and what tensor parallelism uses",
         "derive.fit"),
    Fact("explain.alternative_detail", "text", "the right-sized alternative and its price, or "
         "why there is none", "derive.fit"),
    Fact("explain.alternative_saving", "text", "the monthly saving of alternative.sizing",
         "derive.fit"),
    Fact("explain.parallelism", "text", "the parallelism that decides the GPUs used",
         "derive.idle"),
    Fact("explain.idle_fix", "text", "what to do about idle GPUs", "derive.idle"),
    Fact("explain.idle_detail", "text", "the alternative without idle GPUs and its price",
         "derive.idle"),
    Fact("explain.idle_saving", "text", "the monthly saving of alternative.idle", "derive.idle"),
    Fact("explain.generation", "text", "the GPU with its architecture and year",
         "derive.generation"),
    Fact("explain.generation_detail", "text", "the current-generation alternative, its price "
         "and why it does the same work", "derive.generation"),
    Fact("explain.generation_saving", "text", "the monthly saving of alternative.generation",
         "derive.generation"),
    Fact("explain.missing_tags", "text", "the required tags missing and the tags whose value "
         "fails its pattern", "derive.tags"),
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


# ---------------------------------------------------------------------------------------------
# Generated text: the schema's fact enum and the reference table of docs/facts.md.

DOCS_BEGIN = "<!-- fact reference: generated from gpulint/facts/registry.py -->"
DOCS_END = "<!-- end of fact reference -->"


def schema_enum_block() -> str:
    """The `fact` definition of rule.schema.json, one wrapped line per few names."""
    lines, line = [], ""
    for name in BY_NAME:
        item = f'"{name}", '
        if len(line) + len(item) > 84:
            lines.append(line.rstrip())
            line = ""
        line += item
    lines.append(line.rstrip().rstrip(","))
    body = ("\n" + " " * 15).join(lines)
    return ('    "fact": {\n      "enum": [' + body + '],\n'
            '      "description": "A fact from the fact registry (docs/facts.md)."\n    },')


def with_schema_enum(schema_text: str) -> str:
    return re.sub(r'    "fact": \{\n.*?\n    \},', lambda _: schema_enum_block(), schema_text,
                  count=1, flags=re.DOTALL)


def docs_table() -> str:
    rows = [DOCS_BEGIN, "", "| Fact | Type | Meaning | Set by | Placeholder |",
            "| --- | --- | --- | --- | --- |"]
    for f in FACTS:
        meaning = f.meaning.replace("|", "\\|")
        rows.append(f"| `{f.name}` | {f.type} | {meaning} | {_STAGES[f.set_by]} "
                    f"| `{{{placeholder_name(f.name)}}}` |")
    rows += ["", "Short placeholder names (kept for existing rules): " + ", ".join(
        f"`{{{a}}}` = `{n[0]}`" for a, n in ALIASES.items()) + "; `{alternative_monthly}` is "
        "the monthly price of `alternative.sizing`; `{cost_per_month}` is `$2,921/month`, or "
        "`not priced` (an amount that is not known shows as `not priced`, never `?`); "
        "`{address}`, `{type}` and `{path}` are the resource's own.", "", DOCS_END]
    return "\n".join(rows)


def with_docs_table(doc: str) -> str:
    start, end = doc.find(DOCS_BEGIN), doc.find(DOCS_END)
    if start < 0 or end < 0:
        return doc.rstrip("\n") + "\n\n## Fact reference\n\n" + docs_table() + "\n"
    return doc[:start] + docs_table() + doc[end + len(DOCS_END):]


def _write(root: str) -> None:
    import os

    from gpulint.files.reader import read_file_text

    for rel, update in (("src/gpulint/schemas/rule.schema.json", with_schema_enum),
                        ("docs/facts.md", with_docs_table)):
        path = os.path.join(root, rel)
        text = read_file_text(path)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(update(text))


if __name__ == "__main__":
    import os

    _write(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir))
