"""Resolve a model name from a manifest to its size and architecture.

`resolve()` looks the name up in the bundled catalog (built from models.csv
by scripts/build_model_catalog.py) and, failing that, reads a size out of
the name itself ("foo-7b", "8x7B", "350m") and marks the result estimated.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

from gpulint.sizing import model_names

__all__ = ["MOE_DEFAULT_TOP_K", "MOE_FFN_FRACTION", "ModelInfo", "catalog_metadata",
           "did_you_mean", "names", "resolve", "unknown_reason"]

# For an unknown "NxMB" MoE name, N*M overcounts: attention, embeddings and
# norms are shared, only the FFN is replicated per expert. Fitting
# total = M * (1 + (N-1) * f) to Mixtral-8x7B (7.24B dense sibling,
# 46.7B total, catalog row) gives f ~= 0.78, and Mixtral-8x22B (22B -> 140B)
# gives ~0.77. Active params use the same rule with k experts per token.
MOE_FFN_FRACTION = 0.78
# Top-k routing assumed for unknown NxMB names (Mixtral's top-2).
MOE_DEFAULT_TOP_K = 2


@dataclass(frozen=True)
class ModelInfo:
    id: str
    params_total: int
    params_active: int | None = None
    estimated: bool = False
    params_source: str = ""
    params_precision: str | None = None  # exact | rounded | nominal | None
    family: str | None = None
    task: str | None = None
    arch_kind: str | None = None
    num_layers: int | None = None
    hidden_size: int | None = None
    num_attention_heads: int | None = None
    num_kv_heads: int | None = None
    head_dim: int | None = None
    intermediate_size: int | None = None
    vocab_size: int | None = None
    attention: str | None = None  # MHA | GQA | MQA | MLA
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    sliding_window: int | None = None
    sliding_window_global_every: int | None = None  # 0: all layers windowed
    num_experts: int | None = None
    experts_per_token: int | None = None
    max_context: int | None = None
    release_precision: str | None = None  # precision of the published weights
    implied_precision: str | None = None  # from a quantisation suffix in the name
    source: str = "catalog"  # "catalog" or "name"
    read_as: str | None = None  # a name not in the catalog, read as this row (did you mean)

    @property
    def short_name(self) -> str:
        return self.id.rsplit("/", 1)[-1]

    @property
    def is_moe(self) -> bool:
        return self.params_active is not None and self.params_active < self.params_total


# --------------------------------------------------------------------------
# Catalog loading and index
# --------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _catalog() -> dict[str, Any]:
    text = resources.files("gpulint.data").joinpath("model_catalog.json").read_text("utf-8")
    catalog: dict[str, Any] = json.loads(text)
    return catalog


def catalog_metadata() -> dict[str, Any]:
    """schema_version, snapshot_date and sources of the bundled catalog."""
    cat = _catalog()
    return {k: cat[k] for k in ("schema_version", "snapshot_date", "sources")}


def names() -> dict[str, str]:
    """Every catalog id and alias -> its canonical id (for did-you-mean suggestions)."""
    return {name: row["id"] for row in _catalog()["models"]
            for name in [row["id"], *row["aliases"]]}


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """(full-name index, bare-name index), both keyed by lower-case name.

    The bare index maps "llama-2-7b-hf" (org stripped) to its row; a bare
    name that two rows share is left out rather than guessed.
    """
    full: dict[str, dict[str, Any]] = {}
    bare: dict[str, dict[str, Any] | None] = {}
    for row in _catalog()["models"]:
        for name in [row["id"], *row["aliases"]]:
            key = name.lower()
            full[key] = row
            if "/" in key and " " not in key:
                tail = key.rsplit("/", 1)[1]
                # "ViT-B/32" must not make "32" a model name.
                if re.search(r"[a-z]", tail) and len(tail) > 3:
                    prev = bare.get(tail, row)
                    bare[tail] = row if prev is row else None
    bare_clean = {k: v for k, v in bare.items() if v is not None and k not in full}
    return full, bare_clean


def _from_row(row: dict[str, Any], implied: str | None) -> ModelInfo:
    return ModelInfo(
        id=row["id"],
        params_total=row["params_total"],
        params_active=row["params_active"],
        estimated=False,
        params_source=row["params_source"] or "",
        params_precision=row["params_precision"],
        family=row["family"],
        task=row["task"],
        arch_kind=row["arch_kind"],
        num_layers=row["num_layers"],
        hidden_size=row["hidden_size"],
        num_attention_heads=row["num_attention_heads"],
        num_kv_heads=row["num_kv_heads"],
        head_dim=row["head_dim"],
        intermediate_size=row["intermediate_size"],
        vocab_size=row["vocab_size"],
        attention=row["attention"],
        kv_lora_rank=row["kv_lora_rank"],
        qk_rope_head_dim=row["qk_rope_head_dim"],
        sliding_window=row["sliding_window"],
        sliding_window_global_every=row["sliding_window_global_every"],
        num_experts=row["num_experts"],
        experts_per_token=row["experts_per_token"],
        max_context=row["max_context"],
        release_precision=row["release_precision"],
        implied_precision=implied,
        source="catalog",
    )


# --------------------------------------------------------------------------
# Name normalisation
# --------------------------------------------------------------------------

# Suffix tokens (after splitting on "-"/"_") that say nothing about size.
_VARIANT_TOKENS = {"instruct", "chat", "hf", "it", "base", "pt", "latest", "gguf",
                   "mlx", "exl2", "quantized", "sft", "dpo", "rlhf"}

# Suffix tokens that imply a weight precision.
_PRECISION_TOKENS = {
    "awq": "awq", "gptq": "gptq", "fp8": "fp8", "int8": "int8", "int4": "int4",
    "w4a16": "int4", "w8a8": "int8", "w8a16": "int8", "8bit": "int8",
    "4bit": "nf4", "bnb": None, "nf4": "nf4", "fp16": "fp16", "bf16": "bf16",
    "f16": "fp16", "fp32": "fp32", "f32": "fp32", "mxfp4": "mxfp4",
}

# GGUF / Ollama quant type anywhere in the name: q4_k_m, Q8_0, iq4_xs ...
_GGUF_RX = re.compile(r"(?:^|[.\-_:])(i?q[1-8](?:_[a-z0-9]+)*)(?=$|[.\-_])")
_OLLAMA_SPLIT = re.compile(r"^([^:/]+):(.+)$")


def _strip_location(name: str) -> list[str]:
    """Scheme/bucket/revision stripping; returns candidates, most specific first."""
    s = name.strip().strip('"\'')
    s = re.sub(r"^(hf|huggingface|pvc|file|ollama|model)://", "", s, flags=re.I)
    s = re.sub(r"^https?://(www\.)?(huggingface\.co|hf\.co)/", "", s, flags=re.I)
    bucket = re.match(r"^(s3|gs|gcs|az|abfss?|oci)://[^/]+/?(.*)$", s, flags=re.I)
    if bucket:
        s = bucket.group(2)
    s = s.rstrip("/")
    s = re.sub(r"@[^/]*$", "", s)  # hf revision: org/name@main
    s = re.sub(r"\.(gguf|safetensors|bin|pt|pth|onnx)$", "", s, flags=re.I)
    s = s.rstrip("/")
    parts = [p for p in s.split("/") if p]
    cands = [s]
    if len(parts) > 2:  # bucket paths: models/meta-llama/Llama-3.1-8B
        cands.append("/".join(parts[-2:]))
    if len(parts) > 1:
        cands.append(parts[-1])
    return cands


def _implied_precision(name: str) -> str | None:
    low = name.lower()
    g = _GGUF_RX.search(low)
    if g:
        return g.group(1)
    hits = [_PRECISION_TOKENS[t] for t in re.split(r"[-_.:]", low) if _PRECISION_TOKENS.get(t)]
    if not hits:
        return None
    algos = [h for h in hits if h in ("awq", "gptq")]
    if algos and "int8" in hits:
        return "int8"  # "GPTQ-Int8": the bit width decides the size
    return algos[0] if algos else hits[0]


def _variants(key: str) -> list[str]:
    """Lower-case keys to try for one candidate, by stripping suffixes."""
    out = [key]
    key = _GGUF_RX.sub("", key)
    out.append(key)
    dotted = re.search(r"\.([a-z0-9]+)$", key)  # "…-quantized.w4a16" (Neural Magic, RedHatAI)
    if dotted and dotted.group(1) in _PRECISION_TOKENS:
        key = key[: dotted.start()]
        out.append(key)
    # ollama "llama3.1:8b-instruct-q4_K_M" or plain docker-ish ":latest"
    m = _OLLAMA_SPLIT.match(key)
    tokens = re.split(r"(?<=[^-_])[-_](?=[^-_])", key)
    while len(tokens) > 1:
        last = tokens[-1]
        if (last in _VARIANT_TOKENS or last in _PRECISION_TOKENS
                or re.fullmatch(r"v?\d+(\.\d+)?bit", last)):
            tokens = tokens[:-1]
            out.append("-".join(tokens))
            continue
        break
    if "/" in key and re.search(r":[^/:]+$", key):
        out.append(re.sub(r":[^/:]+$", "", key))  # container-style tag on a repo id
    if m:
        base, tag = m.groups()
        out.append(base + ":" + re.split(r"[-_]", tag)[0])
        if tag == "latest":
            out.append(base)
    # "_" and "-" are used interchangeably in manifests
    out += [v.replace("_", "-") for v in list(out) if "_" in v]
    seen: list[str] = []
    for v in out:
        if v and v not in seen:
            seen.append(v)
    return seen


def _lookup(name: str) -> dict[str, Any] | None:
    full, bare = _index()
    for cand in _strip_location(name):
        for key in _variants(cand.lower()):
            if key in full:
                return full[key]
            tail = key.rsplit("/", 1)[-1]
            if tail in full:  # org prefix on a bare alias: TheBloke/llama-2-7b
                return full[tail]
            if tail in bare:
                return bare[tail]
    return None


# --------------------------------------------------------------------------
# Size-from-name fallback
# --------------------------------------------------------------------------

_MOE_RX = re.compile(r"(?<![a-z0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z])")
_SIZE_RX = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)([bm])(?![a-z0-9])")
_ACTIVE_RX = re.compile(r"(?<![a-z0-9.])a(\d+(?:\.\d+)?)b(?![a-z0-9])")


def _size_from_name(name: str, implied: str | None) -> ModelInfo | None:
    cands = _strip_location(name)
    low = cands[-1].lower()  # last path component
    low = _GGUF_RX.sub("", low)
    label = cands[0]
    m = _MOE_RX.search(low)
    if m:
        n, size = int(m.group(1)), float(m.group(2)) * 1e9
        k = min(MOE_DEFAULT_TOP_K, n)
        return ModelInfo(
            id=label, params_total=int(size * (1 + (n - 1) * MOE_FFN_FRACTION)),
            params_active=int(size * (1 + (k - 1) * MOE_FFN_FRACTION)), estimated=True,
            params_source=(f"estimated from name '{m.group(0)}': {n} experts of ~{m.group(2)}B "
                           f"with shared attention (FFN fraction {MOE_FFN_FRACTION}, "
                           f"top-{k} routing)"),
            params_precision="nominal", arch_kind="decoder-moe",
            implied_precision=implied, source="name")
    sizes = [(float(x), unit) for x, unit in _SIZE_RX.findall(low)]
    if not sizes:
        return None
    value, unit = sizes[0]
    total = int(value * (1e9 if unit == "b" else 1e6))
    if total <= 0:
        return None
    active_m = _ACTIVE_RX.search(low)
    active = int(float(active_m.group(1)) * 1e9) if active_m else None
    return ModelInfo(
        id=label, params_total=total, params_active=active, estimated=True,
        params_source=f"estimated from name: '{value:g}{unit.upper()}' parameters",
        params_precision="nominal",
        arch_kind="decoder-moe" if active else None,
        implied_precision=implied, source="name")


def near_miss(name: str, cutoff: float = 0.6) -> str | None:
    """The canonical id of the catalog name closest to `name` (never the name itself), if one is
    at least `cutoff` similar: a did-you-mean for a name the catalog does not know."""
    lowered = {k.lower(): v for k, v in names().items()}
    key = name.strip().lower()
    tail = key.rsplit("/", 1)[-1]
    candidates = [k for k in lowered if k not in (key, tail)]
    for cand in (key, tail):
        near = difflib.get_close_matches(cand, candidates, n=1, cutoff=cutoff)
        if near and lowered[near[0]].lower() != key:
            return lowered[near[0]]
    return None


def did_you_mean(name: str) -> model_names.Near:
    """The catalog model a name not in the catalog is read as (one edit away, or a suffix
    added), or else the closest catalog names: the did-you-mean every caller shows."""
    lowered = {k.lower(): v for k, v in names().items()}
    return model_names.near(_strip_location(name)[0], lowered)


def likely_typo(name: str) -> str | None:
    """The catalog model a name not in the catalog is probably a misspelling of."""
    return None if known_id(name) else did_you_mean(name).match


def unknown_reason(name: str) -> str:
    """Why `resolve(name)` found nothing ("is not in the model catalog …"), with the closest
    catalog names when there are any."""
    close = did_you_mean(name).closest
    why = model_names.total_unknown(_strip_location(name)[0])
    if why and not close:
        return why
    if close:
        return ("is not in the model catalog, and too close to catalog names to be sized from "
                "its own name (did you mean " + " or ".join(repr(c) for c in close) + "?)")
    return "is not in the model catalog and its size cannot be read from its name"


def known_id(name: str) -> str | None:
    """The catalog id of a name the catalog knows (with or without a parameter count)."""
    row = _lookup(name) if name and name.strip() else None
    return row["id"] if row is not None else None


def resolve(name: str, params: int | None = None) -> ModelInfo | None:
    """Model facts for a manifest name, or None if nothing can be learned. `params` is a
    parameter count the user declared; it replaces the catalog's or the name's."""
    if not name or not name.strip():
        return None
    implied = _implied_precision(_strip_location(name)[0])
    row = _lookup(name)
    if params is not None:
        source = f"declared: {params:,} parameters"
        if row is not None:
            declared = {"params_total": params, "params_precision": "declared",
                        "params_source": source}
            return _from_row({**row, **declared}, implied)
        return ModelInfo(id=_strip_location(name)[0], params_total=params,
                         params_source=source, params_precision="declared",
                         implied_precision=implied, source="declared")
    if row is not None and row["params_total"] is not None:
        return _from_row(row, implied)
    if row is not None:
        # Known row without a published count (phi-2, Qwen2-0.5B ...): keep
        # its shapes and take the size from the name or one of its aliases.
        for cand in [name, row["id"], *row["aliases"]]:
            guess = _size_from_name(cand, implied)
            if guess is not None:
                info = _from_row({**row, "params_total": guess.params_total}, implied)
                return replace(info, estimated=True, source="catalog+name",
                               params_source=f"{guess.params_source} (from '{cand}'); "
                                             "catalog has no published count")
        return None
    label = _strip_location(name)[0]
    near = did_you_mean(name)
    if near.match is not None:
        row = _index()[0][near.match.lower()]
        return replace(_from_row(row, implied), read_as=label)
    if near.closest or model_names.total_unknown(label):
        return None  # never a name-only guess near catalog names, nor the active count as total
    return _size_from_name(name, implied)
