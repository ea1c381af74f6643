"""Helpers shared by the per-cloud Terraform fact builders (tf_aws, tf_gcp, tf_azure, ...).

A builder gets a `ResourceInstance` whose `view` is a `BlockView` (HCL) or a `ValueView` (plan
JSON, community-module inputs); both answer get/blocks/first/refs/raw_strings the same way.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Any

from gpulint.fact_types import Resource
from gpulint.facts.common import as_int, clean_tags, shutdown_from_tags, workload_from
from gpulint.facts.model_decl import declare, from_tags
from gpulint.facts.terraform.hints import gpu_hint, pool_hint, set_gpu_hint
from gpulint.facts.terraform.providers import provider_config
from gpulint.model import Unknown
from gpulint.pricing import catalog
from gpulint.terraform.values import ValueView
from gpulint.terraform.views import ResourceInstance

ZONE_RE = re.compile(r"^([a-z]+-[a-z]+\d+)-[a-z]$")
EMPTY = ValueView({})


def region_of(inst: ResourceInstance, provider: str,
              explicit: Any = None) -> tuple[Any, str | None]:
    """Region from the resource, then its provider block, then the documented default."""
    value = explicit
    if isinstance(value, str) and value:
        m = ZONE_RE.match(value)
        return (m.group(1) if m else value), "code"
    if isinstance(value, Unknown):
        return value, None
    cfg = provider_config(inst)
    if cfg is not None and isinstance(cfg.region, str) and cfg.region:
        m = ZONE_RE.match(cfg.region)  # a google provider may name a zone
        return (m.group(1) if m else cfg.region), "code"
    if cfg is not None and isinstance(cfg.region, Unknown):
        return Unknown(f"provider region: {cfg.region.reason}"), None
    return catalog.default_region(provider), "default"


def with_default_tags(inst: ResourceInstance, value: Any) -> Any:
    """Provider default_tags / default_labels under the resource's own tags."""
    cfg = provider_config(inst)
    defaults = dict(cfg.default_tags) if cfg else {}
    if isinstance(value, Unknown):
        return value
    return {**defaults, **clean_tags(value)}


def base(inst: ResourceInstance, provider: str, tags: Any, region: Any = None,
         address: str | None = None, workload: str | None = None) -> Resource:
    """A resource with provider, region, tags, workload and declared model filled in.
    `workload` is what the resource type itself implies (a notebook service), used when no
    tag or name says otherwise."""
    res = Resource(address or inst.address, inst.type, inst.path, inst.view.line, "terraform")
    res.facts["provider"] = provider
    reg, how = region_of(inst, provider, region)
    res.set_fact("region", reg)
    res.facts["region.source"] = how
    res.set_fact("tags", with_default_tags(inst, tags))
    if inst.expansion_unknown is not None:
        # How many instances count/for_each makes is unknown, so the cost is too.
        res.set_fact("count", Unknown(inst.expansion_unknown.reason))
    known = known_tags(res)
    # The display name (AWS Name tag, a name argument) says what a machine is for as well as
    # the Terraform name does.
    names = [inst.name, address or inst.address, known.get("Name"), inst.view.get("name")]
    wl = workload_from(known, [n for n in names if isinstance(n, str)])
    if wl:
        res.facts["workload"], res.facts["workload.source"] = wl
    elif workload:
        res.facts["workload"], res.facts["workload.source"] = workload, f"type {inst.type}"
    else:
        res.facts["workload"], res.facts["workload.source"] = "unknown", None
    declare(res, from_tags(known, "tag"))
    return res


def known_tags(res: Resource) -> dict[str, Any]:
    tags = res.facts.get("tags")
    return tags if isinstance(tags, dict) else {}


def capacity(spot: Any) -> Any:
    if isinstance(spot, Unknown):
        return Unknown(f"capacity: {spot.reason}")
    return "spot" if spot else "on-demand"


def _size(value: Any) -> Any:
    n = as_int(value)
    # The provider rejects a negative size; priced, it would subtract from the total.
    return Unknown(f"size {n} is negative") if isinstance(n, int) and n < 0 else n


def scaling(res: Resource, lo: Any, hi: Any, desired: Any = None) -> None:
    low, high = _size(lo), _size(hi)
    want = _size(desired) if desired is not None else low
    if isinstance(low, int) and isinstance(high, int) and low > high:
        low = high = want = Unknown(f"minimum size {low} is more than maximum size {high}")
    res.set_fact("replicas.min", low)
    res.set_fact("replicas.max", high)
    res.facts["replicas.desired"] = want


def fixed_count(res: Resource, count: Any) -> None:
    scaling(res, count, count, count)


def mixed_capacity(res: Resource, base_count: Any, percent: Any) -> None:
    """An on-demand base plus a percentage of the rest on demand, the remainder spot (AWS
    mixed instances policies, Databricks first_on_demand). cost.py prices the split."""
    for value in (base_count, percent):
        if isinstance(value, Unknown):
            res.set_fact("capacity", Unknown(f"capacity split: {value.reason}"))
            return
    try:
        base_n, pct = int(base_count or 0), float(100 if percent is None else percent)
    except (TypeError, ValueError):
        res.set_fact("capacity", Unknown(f"capacity split: {base_count!r} / {percent!r} are not "
                                         "numbers"))
        return
    if pct >= 100:
        res.facts["capacity"] = "on-demand"
    elif base_n == 0 and pct <= 0:
        res.facts["capacity"] = "spot"
    else:
        res.facts["capacity"] = "mixed"
        res.facts["capacity.on_demand_base"] = base_n
        res.facts["capacity.on_demand_percent"] = pct


def shutdown(res: Resource, mechanism: str | None = None) -> None:
    """An explicit mechanism, else a shutdown tag, else scale-to-zero, else none."""
    if mechanism:
        res.facts["shutdown"] = mechanism
        return
    tagged = shutdown_from_tags(known_tags(res))
    if tagged:
        res.facts["shutdown"] = tagged
    elif res.facts.get("replicas.min") == 0 and res.facts.get("replicas.max") != 0:
        res.facts["shutdown"] = "scale-to-zero"
    else:
        res.facts["shutdown"] = "none"


def memoised(inst: ResourceInstance, key: str, compute: Callable[[], Any]) -> Any:
    """A value derived from all resources of the instance's module, computed once."""
    memo = inst.peers.memo if hasattr(inst.peers, "memo") else {}
    if key not in memo:
        memo[key] = compute()
    return memo[key]


_TAINT_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute",
                  "PREFER_NO_SCHEDULE": "PreferNoSchedule"}


def node_pool(res: Resource, labels: Any, taints: list[dict[str, Any]],
              implicit: dict[str, Any]) -> None:
    """Labels and taints of a Kubernetes node pool's nodes, for linking pods to it
    (gpulint.linking). `implicit` are the labels the cloud sets on every node of the pool."""
    set_gpu_hint(res, gpu_hint(res) or pool_hint(labels, taints))
    known = {k: str(v) for k, v in implicit.items() if isinstance(v, (str, int))}
    res.facts["node.labels"] = {**known, **{k: str(v) for k, v in clean_tags(labels).items()}}
    res.facts["node.taints"] = taints


def taint_blocks(blocks: list[Any]) -> list[dict[str, Any]]:
    """EKS/GKE `taint` blocks (effect NO_SCHEDULE …) as Kubernetes taints."""
    out = []
    for t in blocks:
        effect = str(t.get("effect", ""))
        out.append({"key": t.get("key"), "value": t.get("value"),
                    "effect": _TAINT_EFFECTS.get(effect, effect)})
    return out


def link(inst: ResourceInstance, view: Any, attrs: tuple[str, ...],
         type_: str) -> ResourceInstance | Unknown | None:
    """The instance of `type_` in the same module that one of `attrs` refers to (the keyed
    instance for `TYPE.NAME[each.key]`); Unknown when the reference names such a resource but
    not which of its instances."""
    unsure: Unknown | None = None
    for attr in attrs:
        for ref in view.refs(attr):
            if ref.type == type_:
                found = inst.peer(ref)
                if isinstance(found, ResourceInstance):
                    return found
                unsure = unsure or found
    return unsure


def linked(inst: ResourceInstance, view: Any, attrs: tuple[str, ...],
           type_: str) -> ResourceInstance | None:
    """`link` for what only adds detail (a model's name, a cluster's region): not found or
    not sure is nothing."""
    found = link(inst, view, attrs, type_)
    return found if isinstance(found, ResourceInstance) else None


def referenced(inst: ResourceInstance, refs: Any) -> list[ResourceInstance]:
    """The instances references name; every instance of a resource when they do not say which
    (a template some group uses ambiguously is still in use)."""
    out: list[ResourceInstance] = []
    for ref in refs:
        found = inst.peer(ref)
        if isinstance(found, ResourceInstance):
            out.append(found)
        elif isinstance(found, Unknown):
            out.extend(inst.peers.get((ref.type, ref.name), []))
    return out


def mentions(view: Any, attrs: tuple[str, ...], words: re.Pattern[str]) -> bool:
    """Whether a script attribute (plain or base64, inline or named by file) mentions a word."""
    for attr in attrs:
        for text in view.raw_strings(attr):
            candidates = [text]
            try:
                candidates.append(base64.b64decode(text, validate=True).decode("utf-8", "replace"))
            except (binascii.Error, ValueError):
                pass
            if any(words.search(c) for c in candidates):
                return True
    return False


def zone_count(location: Any, zones: Any) -> int | None:
    """Zones a regional pool spreads over: node_locations, else GKE's default of three."""
    if isinstance(zones, list) and zones:
        return len(zones)
    if isinstance(location, str) and not ZONE_RE.match(location):
        return 3
    return None
