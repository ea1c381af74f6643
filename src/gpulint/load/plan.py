"""Terraform plan JSON (`terraform show -json plan.out`) → resource instances.

A plan has the exact values Terraform will apply, so nothing is evaluated here: each entry of
`resource_changes` becomes a `ResourceInstance` whose view reads `change.after` (values known
only after apply stay unknown), with `change.before` kept for the cost difference. Provider
blocks come from `configuration.provider_config`, as values, for the facts layer to interpret;
references between resources (a node group's launch template) from the configuration's
expressions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import Peers, ProviderBlock, ResourceInstance

_INDEX = re.compile(r"\[[^\]]*\]")


def is_plan(data: Any) -> bool:
    return isinstance(data, dict) and "format_version" in data and (
        "resource_changes" in data or "planned_values" in data)


@dataclass
class PlanInstance(ResourceInstance):
    """A resource instance from a plan, with its provider configuration key and its change."""

    provider_key: str = ""
    actions: tuple[str, ...] = ()
    before: ValueView | None = None

    def provider_block(self) -> ProviderBlock | None:
        """The block the plan names (`module.gpu:NAME.ALIAS`), else the root's by that key,
        else the one named by the first word of the type."""
        found = self.providers.get(self.provider_key)
        if found is None and ":" in self.provider_key:
            found = self.providers.get(self.provider_key.rsplit(":", 1)[1])
        return found if found is not None else self.providers.get(self.type.split("_", 1)[0])

    def with_view(self, view: ValueView) -> PlanInstance:
        return PlanInstance(self.address, self.type, self.name, self.mode, self.path, view,
                            self.providers, self.module_address, self.peers,
                            self.expansion_unknown, self.provider_key, self.actions, None,
                            key=self.key)


def _expr_value(expr: Any, variables: dict[str, Any]) -> Any:
    """A configuration expression's value: a constant, or a single root variable."""
    if not isinstance(expr, dict):
        return None
    if "constant_value" in expr:
        return expr["constant_value"]
    refs = expr.get("references") or []
    var = next((r[4:] for r in refs if isinstance(r, str) and r.startswith("var.")), None)
    if var is not None and var in variables:
        return variables[var]
    if refs:
        return Unknown(f"refers to {refs[0]}, which the plan does not record as a value")
    return None


def _providers(data: dict[str, Any], variables: dict[str, Any]) -> dict[str, ProviderBlock]:
    """Provider blocks by configuration key, their arguments as values (see `_config_values`)."""
    out: dict[str, ProviderBlock] = {}
    configs = data.get("configuration", {}).get("provider_config", {})
    for key, cfg in configs.items() if isinstance(configs, dict) else []:
        if not isinstance(cfg, dict):
            continue
        exprs = cfg.get("expressions")
        values = _config_values(exprs, variables) if isinstance(exprs, dict) else {}
        out[key] = ProviderBlock(str(cfg.get("name", key)), ValueView(values))
    return out


def _config_values(exprs: dict[str, Any], variables: dict[str, Any]) -> dict[str, Any]:
    """A configuration block's expressions as values; nested blocks (lists of expression
    maps) stay lists of blocks."""
    out: dict[str, Any] = {}
    for name, expr in exprs.items():
        if isinstance(expr, list):
            out[name] = [_config_values(b, variables) for b in expr if isinstance(b, dict)]
        else:
            out[name] = _expr_value(expr, variables)
    return out


def _config_resources(data: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Configuration of every resource by (module path without indexes, address in module)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}

    def walk(module: Any, path: str) -> None:
        if not isinstance(module, dict):
            return
        for r in module.get("resources", []) or []:
            if isinstance(r, dict) and isinstance(r.get("address"), str):
                out[(path, r["address"])] = r
        for name, call in (module.get("module_calls") or {}).items():
            if isinstance(call, dict):
                walk(call.get("module"), f"{path}.module.{name}" if path else f"module.{name}")

    walk(data.get("configuration", {}).get("root_module"), "")
    return out


_ADDRESS = re.compile(r'"address"\s*:\s*("(?:[^"\\]|\\.)*")')


def _address_lines(text: str, start: int) -> dict[str, int]:
    """Line of the first `"address": ...` of each address after `start`, in one pass."""
    out: dict[str, int] = {}
    line, last = text.count("\n", 0, start) + 1, start
    for m in _ADDRESS.finditer(text, start):
        line += text.count("\n", last, m.start())
        last = m.start()
        try:
            out.setdefault(json.loads(m.group(1)), line)
        except ValueError:
            continue
    return out


def load_plan(path: str, text: str, data: dict[str, Any]) -> tuple[list[PlanInstance],
                                                                    list[Diagnostic]]:
    diagnostics: list[Diagnostic] = []
    variables = {k: v.get("value") for k, v in (data.get("variables") or {}).items()
                 if isinstance(v, dict)}
    providers = _providers(data, variables)
    configs = _config_resources(data)
    lines = _address_lines(text, max(text.find('"resource_changes"'), 0))
    peers_by_module: dict[str, Peers] = {}
    out: list[PlanInstance] = []
    changes = data.get("resource_changes")
    if changes is None:
        diagnostics.append(Diagnostic(path, 1, "Terraform plan JSON has no resource_changes; "
                                      "nothing to check", "warning"))
        changes = []
    for rc in changes if isinstance(changes, list) else []:
        if not isinstance(rc, dict) or not isinstance(rc.get("address"), str):
            continue
        raw_change = rc.get("change")
        change: dict[str, Any] = raw_change if isinstance(raw_change, dict) else {}
        actions = tuple(str(a) for a in change.get("actions") or [])
        after = change.get("after")
        if after is None:
            continue  # deleted: nothing will run
        module_address = str(rc.get("module_address", ""))
        own = rc["address"][len(module_address) + 1:] if module_address else rc["address"]
        cfg = configs.get((_INDEX.sub("", module_address), _INDEX.sub("", own)), {})
        line = lines.get(rc["address"], 1)
        index = rc.get("index")
        key = index if isinstance(index, (int, str)) and not isinstance(index, bool) else None
        after_view = ValueView(after, line, change.get("after_unknown"),
                               cfg.get("expressions"), key=key)
        before = change.get("before")
        before_view = ValueView(before, line, None, cfg.get("expressions"), key=key) \
            if isinstance(before, dict) else None
        peers = peers_by_module.setdefault(module_address, Peers())
        inst = PlanInstance(rc["address"], str(rc.get("type", "")), str(rc.get("name", "")),
                            str(rc.get("mode", "managed")), path, after_view, providers,
                            module_address, peers, None, str(cfg.get("provider_config_key", "")),
                            actions, before_view, key=key)
        if inst.mode == "managed":
            peers.setdefault((inst.type, inst.name), []).append(inst)
        out.append(inst)
    return out, diagnostics
