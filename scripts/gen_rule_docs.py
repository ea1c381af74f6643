"""Render docs/rules.md from rules/*.yaml, so the rule reference never drifts from the rules.

Usage: python scripts/gen_rule_docs.py [--check]
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from gpulint.ruleset import load_rule_file, rule_files  # noqa: E402

TARGET = os.path.join(ROOT, "docs", "rules.md")


def _lang(example: str) -> str:
    return "yaml" if "apiVersion:" in example else "hcl"


def render(rules_dir: str = os.path.join(ROOT, "rules")) -> str:
    rules = [load_rule_file(p) for p in rule_files(rules_dir)]
    out = ["# Rules", "",
           "Generated from `rules/*.yaml` by `scripts/gen_rule_docs.py`; do not edit by hand.",
           "Run `gpulint rules show ID` for the same text in a terminal.", "",
           "| Rule | Severity | Category | Summary |", "| --- | --- | --- | --- |"]
    out += [f"| [`{r.id}`](#{r.id}) | {r.severity.value} | {r.category} | {r.summary} |"
            for r in rules]
    for r in rules:
        out += ["", f"## {r.id}", "", f"**{r.summary}** ({r.severity.value}, {r.category};"
                f" applies to {', '.join(r.applies_to)})", "", r.docs["why"].strip(), "",
                f"**How to fix:** {r.remediation.strip()}", ""]
        if r.options:
            out += ["**Options** (set under `rules.<id>.options` in the configuration):", ""]
            out += [f"- `{k}`: default `{v!r}`" for k, v in r.options.items()] + [""]
        if r.deprecated_options:
            out += ["**Settings** (formerly options of this rule; the old option names still "
                    "work, with a deprecation note):", ""]
            out += [f"- `{v}` (was `{k}`)" for k, v in r.deprecated_options.items()] + [""]
        if r.cost.get("compare_with"):
            (key, value), = r.cost["compare_with"].items()
            out += [f"**Saving:** priced by comparing with `{key}: {value}`.", ""]
        out += ["Flagged:", "", f"```{_lang(r.docs['bad'])}", r.docs["bad"].rstrip(), "```", "",
                "Fixed:", "", f"```{_lang(r.docs['good'])}", r.docs["good"].rstrip(), "```"]
        if r.references:
            out += ["", "References: " + ", ".join(f"<{u}>" for u in r.references)]
    return "\n".join(out) + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        with open(TARGET, encoding="utf-8") as fh:
            if fh.read() != text:
                print("docs/rules.md is stale: run python scripts/gen_rule_docs.py", file=sys.stderr)
                return 1
        return 0
    with open(TARGET, "w", encoding="utf-8") as fh:
        fh.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
