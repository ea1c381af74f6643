"""Evaluate rules over resources: three-valued, unknown never fires, unknown is reported."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from gpulint import conditions
from gpulint.units import usd_whole as money
from gpulint.pricing.price import finding_saving
from gpulint.model import Finding, NotEvaluated, Resource, Severity, Unknown
from gpulint.ruleset import Rule


# Phrases the sizing step writes as `text.<name>` facts (docs/sizing.md, "Message placeholders").
SIZING_TEXT = ("model_label", "provided", "alternative_detail", "alternative_saving", "parallelism",
               "idle_fix", "generation", "generation_detail", "generation_saving")


def _fmt_money(v: Any) -> str:
    return money(v) if isinstance(v, (int, float)) else "?"


def placeholders(res: Resource, rule: Rule, options: dict[str, Any]) -> dict[str, str]:
    """The documented message placeholders (docs/rules.md), all as text."""
    f = res.facts

    def text(name: str) -> str:
        v = f.get(name)
        if isinstance(v, Unknown) or v is None:
            return "?"
        if isinstance(v, float):
            return f"{v:g}"
        return str(v)

    tags = f.get("tags") if isinstance(f.get("tags"), dict) else {}
    required = conditions.resolve_arg({"option": "required", "per": "provider"}, options, f) \
        if "required" in options else []
    missing = [k for k in required or [] if k not in tags or tags[k] in (None, "")]
    missing += conditions.mismatched_tags(tags, options.get("patterns"))
    return {
        "address": res.address, "type": res.type, "path": res.path,
        "instance_type": text("instance.type"),
        "gpu_model": (text("gpu.model") if text("gpu.model") != "?" else "GPU (model unknown)") + (  # a MIG slice is not the whole GPU
            f" MIG {f['gpu.mig_profile']}" if f.get("gpu.mig_profile") else ""),
        "gpu_count": text("gpu.count"), "capacity": text("capacity"), "workload": text("workload"),
        "model": text("model.id"), "precision": text("model.precision"),
        "required_gib": text("model.required_gib"), "provided_gib": text("gpu.total_memory_gib"),
        "estimate": text("model.estimate"), "minimum": text("model.minimum"), "alternative": text("sizing.alternative"),
        "alternative_monthly": _fmt_money(f.get("sizing.alternative_monthly")),
        "monthly_cost": _fmt_money(f.get("cost.monthly")),
        "missing_tags": ", ".join(missing) or "?", "idle_gpus": text("sizing.idle_gpus"),
        "tensor_parallel": text("model.tensor_parallel"), "used_gpus": text("sizing.used_gpus"),
        **{name: text("text." + name) for name in SIZING_TEXT},
        **({} if "text.model_label" in f else {"model_label": text("model.id")}),
    }


def evaluate(resources: Iterable[Resource], rules: Sequence[Rule],
             rule_options: dict[str, dict[str, Any]] | None = None,
             severities: dict[str, Severity] | None = None,
             hours: float = 730.0) -> tuple[list[Finding], list[NotEvaluated]]:
    findings: list[Finding] = []
    skipped: list[NotEvaluated] = []
    for res in resources:
        for rule in rules:
            if res.source not in rule.applies_to or rule.id in res.suppressions:
                continue
            options = {**rule.options, **(rule_options or {}).get(rule.id, {})}
            result = conditions.test(rule.match, res.facts, options)
            if result is None:
                reasons = conditions.missing_facts(rule.match, res.facts, options)
                skipped.append(NotEvaluated(rule.id, res.path, res.line, res.address,
                                            "could not evaluate: " + "; ".join(dict.fromkeys(reasons))))
                continue
            if not result:
                continue
            saving, basis = finding_saving(res, rule.cost.get("compare_with", {}), hours)
            values = placeholders(res, rule, options)
            findings.append(Finding(
                rule=rule.id, severity=(severities or {}).get(rule.id, rule.severity),
                path=res.path, line=res.line, address=res.address,
                message=rule.message.format_map(values), remediation=rule.remediation,
                monthly_saving_usd=saving, saving_basis=basis))
    findings.sort(key=Finding.sort_key)
    skipped.sort(key=lambda n: (n.path, n.line, n.address, n.rule))
    return findings, skipped
