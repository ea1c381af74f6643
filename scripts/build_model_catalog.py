#!/usr/bin/env python3
"""Build src/gpulint/data/model_catalog.json from the raw models.csv.

Usage:
    python scripts/build_model_catalog.py [--csv PATH] [--readme PATH]
        [--out PATH] [--snapshot-date YYYY-MM-DD] [--check]

The output is deterministic: rows sorted by id, keys sorted, no timestamps
except the snapshot date (taken from --snapshot-date, else the CSV's mtime).
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CSV = Path("/work/shared/data/models/models.csv")
DEFAULT_README = DEFAULT_CSV.with_name("README.md")
DEFAULT_OUT = ROOT / "src" / "gpulint" / "data" / "model_catalog.json"
# Models released after the raw snapshot (2025-2026 and the families serving stacks list as
# supported), and better sources for rows of the snapshot that cited only the model's name.
# Both are kept in the repository, each figure with its source.
ADDED_CSV = ROOT / "scripts" / "data" / "models_added.csv"
SOURCE_FIXES_CSV = ROOT / "scripts" / "data" / "model_source_fixes.csv"

SCHEMA_VERSION = 1
# The raw file has 140 rows; a much smaller result means a truncated or
# mangled input, and shipping it would silently shrink model coverage.
MIN_ROWS = 120

# MLA caches kv_lora_rank + qk_rope_head_dim values per token per layer.
# The CSV has no rope column; the DeepSeek-V3 config (source key DSV3) gives
# qk_rope_head_dim = 64 and the CSV notes repeat it. DeepSeek-V2/V2-Lite are
# assumed to use the same 64 (same MLA design); documented in docs/sizing.md.
MLA_ROPE_HEAD_DIM = 64

# Which layers use the sliding window, per family. The CSV gives the window
# only; the pattern comes from the README caveats and the model papers.
#   0  -> every layer is windowed (Mistral v0.1, StarCoder2)
#   n  -> every n-th layer is global, the rest are windowed
SLIDING_GLOBAL_EVERY = {
    "mistral": 0,     # README: "Mistral v0.1 uses the window on every layer"
    "starcoder2": 0,  # StarCoder2 paper: sliding-window attention on all layers
    "gemma2": 2,      # README: local and global layers alternate
    "gpt-oss": 2,     # README: alternates window-128 and full layers
    "gemma3": 6,      # Gemma 3 technical report: 5 local layers per global layer
    "llama4": 4,      # MaxText llama4 configs: chunked attention, every 4th layer global
    # Qwen3-Next: every 4th layer full attention, the rest Gated DeltaNet with a fixed-size state
    # (recorded as a window of 1 token; MaxText qwen3-next-80b-a3b.yml).
    "qwen3-next": 4,
}

# Release precision stated in the notes (the weights as published).
_RELEASE_PRECISION = [
    (re.compile(r"\bFP8 weights as released", re.I), "fp8"),
    (re.compile(r"\bMXFP4\b"), "mxfp4"),
]

# Curated additions to the raw table, each with the public source that states it. They are
# applied on top of models.csv so the raw snapshot stays as published.
#
# Variants people deploy that have the same weights shape as a catalog row (same architecture and
# parameter count): sizing them as generic "7B" models from their names undersizes them.
EXTRA_ALIASES: dict[str, tuple[tuple[str, ...], str]] = {
    "Qwen/Qwen3-30B-A3B": (
        ("Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen/Qwen3-30B-A3B-Thinking-2507",
         "qwen3-30b-a3b-instruct-2507", "qwen3-30b-a3b-thinking-2507"),
        "https://huggingface.co/Qwen/Qwen3-30B-A3B-Instruct-2507 model card, read 2026-11-27: "
        "the updated Qwen3-30B-A3B, 30.5B in total and 3.3B activated, 48 layers, 32 Q / 4 KV "
        "heads, 128 experts with 8 activated, like Qwen3-30B-A3B; only the context differs "
        "(262,144 natively)",
    ),
    "Qwen/Qwen3-235B-A22B": (
        ("Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-235B-A22B-Thinking-2507",
         "qwen3-235b-a22b-instruct-2507", "qwen3-235b-a22b-thinking-2507"),
        "https://huggingface.co/collections/Qwen/qwen3, read 2026-11-27: the 2507 Instruct and "
        "Thinking updates of Qwen3-235B-A22B are listed at 235B, as the 30B-A3B-2507 card "
        "describes its own update (same layers, heads and experts, 262,144-token context)",
    ),
    "Qwen/Qwen3-4B": (
        ("Qwen/Qwen3-4B-Instruct-2507", "Qwen/Qwen3-4B-Thinking-2507", "qwen3-4b-instruct-2507",
         "qwen3-4b-thinking-2507"),
        "AI-Hypercomputer/maxtext src/MaxText/configs/models/qwen3-4b-thinking-2507.yml "
        "@48445cf00e73064e87886539714a8ba1794ee019: 36 layers, emb 2560, 32 Q / 8 KV heads of 128, "
        "MLP 9728, vocab 151936, tied embeddings, the shapes of Qwen3-4B",
    ),
    "meta-llama/Llama-3.1-70B": (
        ("nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "nvidia/Llama-3.1-Nemotron-70B-Instruct",
         "llama-3.1-nemotron-70b-instruct", "nemotron:70b"),
        "nvidia/Llama-3.1-Nemotron-70B-Instruct on Hugging Face (tree @8c308304b1659621f062f278a7"
        "4837e044d39bf9: tagged and licensed llama3.1, trained on nvidia/HelpSteer2) and its card "
        "as lmstudio-community's GGUF page quotes it ('a large language model customized by "
        "NVIDIA', 128k context), read 2026-11-27: a fine-tune of Llama 3.1 70B, same weights shape",
    ),
    "google/gemma-2b": (
        ("google/gemma-1.1-2b-it", "gemma-1.1-2b-it", "google/codegemma-2b", "codegemma-2b",
         "google/codegemma-1.1-2b", "codegemma-1.1-2b", "codegemma:2b"),
        "keras-team/keras-hub keras_hub/src/models/gemma/gemma_presets.py "
        "@02aeee5f130da8ff3daf6efd2d0dce9914223d2b: gemma_1.1_instruct_2b_en, code_gemma_2b_en "
        "and code_gemma_1.1_2b_en all have 2,506,172,416 parameters and 18 layers, like "
        "gemma_2b_en",
    ),
    "google/gemma-7b": (
        ("google/gemma-1.1-7b-it", "gemma-1.1-7b-it", "google/codegemma-7b", "codegemma-7b",
         "google/codegemma-7b-it", "codegemma-7b-it", "google/codegemma-1.1-7b-it",
         "codegemma-1.1-7b-it", "codegemma:7b"),
        "keras-team/keras-hub gemma presets: gemma_1.1_instruct_7b_en, code_gemma_7b_en, "
        "code_gemma_instruct_7b_en and code_gemma_1.1_instruct_7b_en all have 8,537,680,896 "
        "parameters and 28 layers, like gemma_7b_en",
    ),
}
# Checkpoints published in a precision other than bf16, where models.csv's notes do not say so.
EXTRA_RELEASE_PRECISION: dict[str, tuple[str, str]] = {
    "deepseek-ai/DeepSeek-V3": (
        "fp8", "deepseek-ai/DeepSeek-V3 README_WEIGHTS.md: config.json's quantization_config "
               "describes the FP8 weights (128x128 block scales)"),
    "deepseek-ai/DeepSeek-R1": (
        "fp8", "DeepSeek-R1 is published in the DeepSeek-V3 architecture and weight format "
               "(models.csv notes; DeepSeek-V3 README_WEIGHTS.md)"),
}

INT_FIELDS = (
    "params_total", "params_active", "num_layers", "hidden_size",
    "num_attention_heads", "num_kv_heads", "head_dim", "max_context",
    "num_experts", "experts_per_token", "kv_lora_rank", "sliding_window",
    "intermediate_size", "vocab_size",
)


def _int(value: str) -> int | None:
    value = value.strip().replace(",", "")
    return int(value) if value else None


def _precision_kind(raw: str) -> str | None:
    # "exact total; active rounded" -> "exact"; the detail stays in the CSV.
    m = re.match(r"\s*(exact|rounded|nominal)", raw)
    return m.group(1) if m else None


def convert_row(row: dict[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": row["canonical_id"].strip(),
        "aliases": sorted({a.strip() for a in row["aliases"].split(";") if a.strip()}),
        "family": row["family"].strip() or None,
        "task": row["task"].strip() or None,
        "arch_kind": row["arch_kind"].strip() or None,
        "params_precision": _precision_kind(row["params_precision"]),
        "params_source": row["params_source"].strip() or None,
        "attention": row["attention"].strip() or None,
    }
    for field in INT_FIELDS:
        entry[field] = _int(row[field])
    # head_dim derived as hidden/heads is kept, but flagged.
    entry["head_dim_derived"] = row["head_dim_derived"].strip() == "yes"
    entry["qk_rope_head_dim"] = MLA_ROPE_HEAD_DIM if entry["attention"] == "MLA" else None
    if entry["sliding_window"] is not None:
        entry["sliding_window_global_every"] = SLIDING_GLOBAL_EVERY.get(entry["family"] or "")
    else:
        entry["sliding_window_global_every"] = None
    notes = row["notes"]
    entry["release_precision"] = (row.get("release_precision") or "").strip() or next(
        (p for rx, p in _RELEASE_PRECISION if rx.search(notes)), None
    )
    entry["arch_source"] = row["arch_source"].strip() or None
    return _curate(entry)


def _curate(entry: dict[str, Any]) -> dict[str, Any]:
    """Apply EXTRA_ALIASES and EXTRA_RELEASE_PRECISION, recording their sources."""
    notes = []
    if entry["id"] in EXTRA_ALIASES:
        names, source = EXTRA_ALIASES[entry["id"]]
        entry["aliases"] = sorted({*entry["aliases"], *names})
        notes.append(f"aliases: {source}")
    if entry["id"] in EXTRA_RELEASE_PRECISION and entry["release_precision"] is None:
        precision, source = EXTRA_RELEASE_PRECISION[entry["id"]]
        entry["release_precision"] = precision
        notes.append(f"release precision {precision}: {source}")
    entry["curated"] = notes or None
    return entry


def parse_sources(readme_text: str) -> list[dict[str, str]]:
    """Rows of the README's "Source keys" table: key, location, commit."""
    sources = []
    in_table = False
    for line in readme_text.splitlines():
        if line.startswith("## "):
            in_table = line.strip() == "## Source keys"
            continue
        if not in_table or not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "Key" or len(cells) < 3:
            continue
        commit = re.search(r"\b[0-9a-f]{40}\b", cells[1])
        sources.append({
            "key": cells[0].strip("`"),
            "location": cells[1],
            "commit": commit.group(0) if commit else None,
            "license": cells[2],
        })
    return sources


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def merge(rows: list[dict[str, str]], added: list[dict[str, str]],
          fixes: list[dict[str, str]]) -> list[dict[str, str]]:
    """The snapshot's rows with the source fixes applied, then the added rows (an added row
    may not repeat an id: a changed figure is a fix, with its source)."""
    by_id = {r["canonical_id"]: dict(r) for r in rows}
    for fix in fixes:
        row = by_id.get(fix["canonical_id"])
        if row is None:
            raise SystemExit(f"source fix for unknown model {fix['canonical_id']!r}")
        for field in ("params_total", "params_active", "params_precision", "params_source",
                      "arch_source"):
            if fix[field].strip():
                row[field] = fix[field]
    for row in added:
        if row["canonical_id"] in by_id:
            raise SystemExit(f"added model {row['canonical_id']!r} is already in the snapshot")
        by_id[row["canonical_id"]] = row
    return list(by_id.values())


def build(csv_path: Path, readme_path: Path, snapshot_date: str,
          added_path: Path = ADDED_CSV, fixes_path: Path = SOURCE_FIXES_CSV) -> dict[str, Any]:
    rows = merge(_read(csv_path), _read(added_path), _read(fixes_path))
    models = sorted((convert_row(r) for r in rows), key=lambda m: m["id"].lower())
    _check_unique_names(models)
    return {
        "schema_version": SCHEMA_VERSION,
        "snapshot_date": snapshot_date,
        "generated_from": [csv_path.name, added_path.name, fixes_path.name],
        "sources": parse_sources(readme_path.read_text(encoding="utf-8")),
        "assumptions": {
            "mla_qk_rope_head_dim": MLA_ROPE_HEAD_DIM,
            "sliding_window_global_every": SLIDING_GLOBAL_EVERY,
        },
        "models": models,
    }


def _check_unique_names(models: list[dict[str, Any]]) -> None:
    seen: dict[str, str] = {}
    for m in models:
        for name in [m["id"], *m["aliases"]]:
            key = name.lower()
            if key in seen and seen[key] != m["id"]:
                raise SystemExit(f"name {name!r} maps to {seen[key]} and {m['id']}")
            seen[key] = m["id"]


def render(catalog: dict[str, Any]) -> str:
    # One model per line: small file, readable diffs when the data changes.
    def dump(obj: Any) -> str:
        return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    head = {k: v for k, v in catalog.items() if k != "models"}
    lines = ["{"]
    for key in sorted(head):
        lines.append(f" {dump(key)}:{dump(head[key])},")
    lines.append(' "models":[')
    body = [f"  {dump(m)}" for m in catalog["models"]]
    lines.append(",\n".join(body))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    ap.add_argument("--readme", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--snapshot-date", default=None)
    ap.add_argument("--min-rows", type=int, default=MIN_ROWS)
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if the output file is not up to date")
    args = ap.parse_args(argv)
    readme = args.readme or args.csv.with_name("README.md")
    date = args.snapshot_date or dt.datetime.fromtimestamp(
        args.csv.stat().st_mtime, tz=dt.timezone.utc).date().isoformat()

    raw = len(_read(args.csv))  # the floor guards against a truncated snapshot
    if raw < args.min_rows:
        print(f"refusing to write: {raw} models < floor {args.min_rows}", file=sys.stderr)
        return 2
    catalog = build(args.csv, readme, date)
    n = len(catalog["models"])
    text = render(catalog)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {n} models to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
