"""`gpulint explain-model`: a model's memory estimate, its breakdown and assumptions, and the
cheapest GPU instances per provider that hold it."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from gpulint import providers as providers_mod
from gpulint.config.cost import DEFAULT_HOURS
from gpulint.config.sizing import DEFAULT_HEADROOM
from gpulint.pricing import catalog, catalog_report, offers
from gpulint.sizing import estimate as sizing
from gpulint.sizing import generations
from gpulint.sizing import model_catalog as models
from gpulint.sizing.engine_memory import max_concurrency
from gpulint.sizing.precision import normalize_precision

PROVIDERS = providers_mod.NAMES
EXIT_USAGE = 2


def _fail(message: str) -> None:
    click.echo(f"gpulint: {message}", err=True)
    sys.exit(EXIT_USAGE)


def suggest(name: str) -> str | None:
    """The canonical id of the closest catalog id or alias, if any is close."""
    return models.near_miss(name)


def _assumptions(info: models.ModelInfo, est: sizing.Estimate, given: dict[str, Any],
                 headroom: float) -> list[str]:
    """Which inputs were declared and which are documented defaults (docs/sizing.md)."""
    i = est.inputs
    out = []
    if info.read_as:
        out.append(f"{info.read_as!r} is not in the model catalog: sized as {info.id!r} "
                   "(did you mean it?)")
    if info.estimated:
        out.append(f"parameters: {info.params_source}")
    method = i.get("method")
    if method == "qlora":
        out.append("base weights in nf4 (QLoRA), adapters trained in mixed precision")
    elif method == "full":
        out.append("mixed-precision Adam: 16-bit weights and gradients, fp32 master weights "
                   "and optimizer states (16 bytes per parameter)")
    elif given["precision"] is None:
        why = ("implied by the name" if info.implied_precision
               else "the published weights" if info.release_precision else "the default")
        out.append(f"precision {i['precision']}: {why}")
    if est.kind == "inference":
        if i.get("kv_cache") and given["context"] is None:
            if info.max_context:
                why = (f"the model's maximum ({info.max_context}) capped at "
                       f"{sizing.DEFAULT_CONTEXT_CAP}")
            elif info.arch_kind == "encoder-decoder":
                why = "as for encoder-decoder models without a published maximum"
            else:
                why = "as for models without a published maximum"
            out.append(f"context {i['context_tokens']} tokens: default, {why}")
        if i.get("kv_cache") and given["concurrency"] is None:
            out.append(f"{i['concurrency']} concurrent sequences: default")
        if i["kv_cache_dtype"] == "auto":
            out.append("KV cache in 16-bit values (the serving engines' default)")
        if i["tensor_parallel"] > 1:
            out.append(f"tensor parallelism {i['tensor_parallel']}: weights and KV cache split "
                       "over that many GPUs")
    else:
        if given["context"] is None:
            out.append(f"sequence length {i['seq_len']}: default")
        if given["concurrency"] is None:
            out.append(f"micro-batch {i['micro_batch']}: default")
        out.append("gradient checkpointing on; model states sharded over GPUs (ZeRO-3/FSDP)")
    out.append(f"each GPU filled to at most {headroom:.0%} of its memory")
    out += list(est.notes)
    return out


def _offers(est: sizing.Estimate, provider: str, region: str | None, headroom: float,
            tensor_parallel: int | None, current_only: bool, top: int) -> list[offers.Offer]:
    """The cheapest instance of each GPU configuration (model × count) that holds the estimate,
    cheapest first: larger hosts with the same GPUs are not different options."""
    accept = offers.fits(est, headroom, tensor_parallel)
    if current_only:
        accept = offers.both(accept, offers.current_generation)
    found = offers.instance_offers(provider, region, "on-demand", accept)
    best: dict[tuple[str, float], offers.Offer] = {}
    for o in found:
        best.setdefault((o.gpu_model, o.gpu_count), o)
    return list(best.values())[:top]


def _offer_json(o: offers.Offer, hours: float, one: sizing.Estimate | None = None,
                headroom: float = DEFAULT_HEADROOM, tensor_parallel: int | None = None
                ) -> dict[str, Any]:
    row = generations.lookup(o.gpu_model)
    out = {"provider": o.provider, "instance_type": o.name, "region": o.region,
           "gpu_model": o.gpu_model, "gpu_count": o.gpu_count,
           "gpu_memory_gib": o.gpu_memory_gib, "total_gpu_memory_gib": o.total_memory_gib,
           "generation": row.status if row else None,
           "hourly_usd": o.hourly, "monthly_usd": o.monthly(hours),
           **({"note": o.basis} if o.basis else {})}
    if one is not None:
        out["max_concurrency"] = _concurrency(one, o.gpu_memory_gib,
                                              tensor_parallel or int(o.gpu_count), headroom)
    return out


def _concurrency(one: sizing.Estimate, gpu_gib: float, gpus: int, headroom: float) -> int:
    """Sequences of the estimate's context whose KV cache fits each GPU's share after the
    weights, activations and runtime of the one-sequence estimate (no engine cap)."""
    n = max(1, gpus)
    kv = one.components["kv_cache"] / min(n, one.shard_limit.get("kv_cache", n))
    return max_concurrency(gpu_gib * headroom, one.per_gpu_gib(n) - kv, kv, None)


def build(name: str, precision: str | None = None, context: int | None = None,
          concurrency: int | None = None, purpose: str = "inference",
          providers: tuple[str, ...] = PROVIDERS, region: str | None = None,
          tensor_parallel: int | None = None, headroom: float = DEFAULT_HEADROOM,
          top: int = 3, current_only: bool = False,
          hours: float = DEFAULT_HOURS, params: int | None = None) -> dict[str, Any]:
    """The explanation as data (the JSON output). Raises LookupError for an unknown model and
    ValueError for an unknown precision."""
    info = models.resolve(name, params)
    if info is None:
        known = models.known_id(name)
        if known is not None:
            raise LookupError(f"{known} is in the model catalog, but without a published "
                              "parameter count: give it with --params (billions, e.g. 3.8)")
        raise LookupError(f"could not evaluate: model {name!r} {models.unknown_reason(name)}")
    if precision is not None and normalize_precision(precision) is None:
        raise ValueError(f"unknown precision {precision!r} (for example bf16, fp8, awq, gptq, "
                         "int8, nf4, q4_k_m)")
    if purpose == "inference":
        est = sizing.estimate_inference(info, precision, context, concurrency,
                                        tensor_parallel=tensor_parallel or 1)
    else:
        est = sizing.estimate_training(info, "full" if purpose == "training" else purpose,
                                       precision, seq_len=context, micro_batch=concurrency)
    given = {"precision": precision, "context": context, "concurrency": concurrency}
    # Inference with a KV cache: how many sequences of the context each option holds.
    one = sizing.estimate_inference(info, precision, context, 1,
                                    tensor_parallel=tensor_parallel or 1) \
        if purpose == "inference" and est.inputs.get("kv_cache") else None
    per_provider = {p: [_offer_json(o, hours, one, headroom, tensor_parallel) for o in
                        _offers(est, p, region, headroom, tensor_parallel, current_only, top)]
                    for p in providers}
    return {
        "model": {"name": name, "id": info.id, "params_total": info.params_total,
                  "params_active": info.params_active, "estimated": info.estimated,
                  "params_source": info.params_source or None, "resolved_from": info.source,
                  "read_as": info.read_as},
        "purpose": purpose,
        "estimate": {"summary": est.describe(), "total_gib": round(est.total_gib, 2),
                     "components_gib": {k: round(v, 2) for k, v in est.components.items()},
                     "per_gpu_components": list(est.per_gpu),
                     "shard_limits": dict(est.shard_limit), "inputs": est.inputs,
                     "approximate": est.approximate},
        "assumptions": _assumptions(info, est, given, headroom),
        "headroom": headroom, "hours_per_month": hours, "capacity": "on-demand",
        "region": region, "current_generation_only": current_only,
        "options": per_provider,
        "prices_as_of": catalog.metadata().get("snapshot_date"),
        # Each cloud's own price date: the AWS rows are older than the GCP and Azure ones.
        "prices_of": catalog_report.provider_dates_of(list(providers)),
    }


def _component_note(name: str, estimate: dict[str, Any]) -> str:
    """How a component is spread over GPUs (sizing.Estimate.per_gpu and shard_limit)."""
    if name in estimate["per_gpu_components"]:
        return "on every GPU"
    limit = estimate["shard_limits"].get(name)
    what = "context × sequences × per-token KV, " if name == "kv_cache" else ""
    if limit == 1:
        return what + "kept whole on every GPU (MLA latent cache)"
    if limit:
        return what + f"split across up to {limit} GPUs (one KV head each)"
    return what + "split across GPUs"



_PURPOSES = {"inference": "Inference", "training": "Full fine-tune", "lora": "LoRA fine-tune",
             "qlora": "QLoRA fine-tune"}


def render_text(data: dict[str, Any]) -> str:
    m, e = data["model"], data["estimate"]
    params = f"{m['params_total'] / 1e9:.3g}B parameters"
    if m["params_active"] and m["params_active"] < m["params_total"]:
        params += f" ({m['params_active'] / 1e9:.3g}B active per token)"
    lines = [f"{m['id']}: {params}" + (" (estimated from its name)" if m["estimated"] else "")]
    if m.get("read_as"):
        lines.append(f"{m['read_as']!r} is not in the model catalog: did you mean {m['id']!r}? "
                     "Sized as that model.")
    lines += [f"{_PURPOSES[data['purpose']]} estimate: {e['summary']}", ""]
    width = max(len(k) for k in e["components_gib"])
    for name, gib in e["components_gib"].items():
        note = _component_note(name, e)
        lines.append(f"  {name:<{width}}  {gib:8.2f} GiB" + (f"   {note}" if note else ""))
    lines.append(f"  {'total':<{width}}  {e['total_gib']:8.2f} GiB")
    lines += ["", "Assumptions:"] + [f"  - {a}" for a in data["assumptions"]]
    where = f" in {data['region']}" if data["region"] else " (cheapest region)"
    lines += ["", f"Cheapest fitting GPU configurations per provider{where}, on-demand, "
                  f"{data['hours_per_month']:g} h/month:"]
    for provider, found in data["options"].items():
        if not found:
            lines.append(f"  {provider:<6} none in the catalog holds it"
                         + (f" in {data['region']}" if data["region"] else ""))
            continue
        for o in found:
            hw = f"{o['gpu_count']:g}× {o['gpu_model']} ({o['total_gpu_memory_gib']:g} GiB)"
            gen = "  previous generation" if o["generation"] == "previous" else ""
            gen += "  + vCPU and memory requested" if o.get("note") else ""
            place = "every region" if o["region"] == providers_mod.ANY_REGION else o["region"]
            seqs = f"  {o['max_concurrency']:>5} seqs" if "max_concurrency" in o else ""
            lines.append(f"  {provider:<6} {o['instance_type']:<26} {hw:<28} {place:<16} "
                         f"${o['hourly_usd']:>9,.3f}/h  ${o['monthly_usd']:>11,.2f}/month"
                         f"{seqs}{gen}")
    if data["current_generation_only"]:
        lines.append("  (previous-generation GPUs left out)")
    if any("max_concurrency" in o for found in data["options"].values() for o in found):
        ctx = e["inputs"]["context_tokens"]
        lines.append(f"  seqs: sequences of {ctx} tokens whose KV cache fits in "
                     f"{data['headroom']:.0%} of each GPU's memory after the weights (before "
                     "an engine's own cap, such as vLLM's --max-num-seqs)")
    dated = ", ".join(f"{p} {d}" for p, d in data["prices_of"].items()) or data["prices_as_of"]
    lines.append(f"Prices: list prices of {dated}, USD.")
    return "\n".join(lines) + "\n"


@click.command("explain-model")
@click.argument("model")
@click.option("--precision", help="Weight precision: bf16, fp16, fp8, int8, awq, gptq, nf4, "
                                   "q4_k_m … (default: implied by the name, else bf16).")
@click.option("--context", type=click.IntRange(1), help="Context tokens per sequence "
              "(training: sequence length). Default: the model's maximum, capped at 8192.")
@click.option("--concurrency", type=click.IntRange(1), help="Concurrent sequences "
              "(training: micro-batch). Default: 8 for inference, 1 for training.")
@click.option("--purpose", type=click.Choice(["inference", "training", "lora", "qlora"]),
              default="inference", show_default=True)
@click.option("--provider", "providers", type=click.Choice(PROVIDERS), multiple=True,
              help="Only this provider (repeatable). Default: all.")
@click.option("--region", help="Only instances priced in this region.")
@click.option("--tensor-parallel", type=click.IntRange(1), help="Tensor-parallel GPUs.")
@click.option("--headroom", type=click.FloatRange(0.05, 1.0), default=DEFAULT_HEADROOM,
              show_default=True, help="Share of each GPU's memory the estimate may fill.")
@click.option("--top", type=click.IntRange(1, 50), default=3, show_default=True,
              help="Options listed per provider.")
@click.option("--current-only", is_flag=True, help="Leave out previous-generation GPUs.")
@click.option("--params", type=click.FloatRange(0.001, 100_000), help="Parameters, in "
              "billions: for a model the catalog knows without a count, or to override it.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def explain_model(model: str, precision: str | None, context: int | None,
                  concurrency: int | None, purpose: str, providers: tuple[str, ...],
                  region: str | None, tensor_parallel: int | None, headroom: float, top: int,
                  current_only: bool, params: float | None, fmt: str) -> None:
    """Explain how much GPU memory MODEL needs and where it fits most cheaply."""
    chosen = providers or PROVIDERS
    if region:
        chosen = tuple(p for p in chosen if _has_region(p, region))
        if not chosen:
            _fail(f"no {'/'.join(providers or PROVIDERS)} prices in region {region!r}")
    try:
        data = build(model, precision, context, concurrency, purpose, chosen, region,
                     tensor_parallel, headroom, top, current_only,
                     params=None if params is None else round(params * 1e9))
    except (LookupError, ValueError) as e:
        _fail(str(e))
    click.echo(json.dumps(data, indent=2, sort_keys=True) if fmt == "json"
               else render_text(data), nl=fmt == "json")


def _has_region(provider: str, region: str) -> bool:
    """Whether the provider prices some instance in the region (or one price everywhere)."""
    return any({region, providers_mod.ANY_REGION} & set(catalog.regions(provider, spec.name))
               for spec in catalog.instances(provider))
