"""Provider blocks → the region and default tags they give the resources that use them.

The Terraform layer hands on provider blocks as written (`ProviderBlock`: a local name and a
view of the arguments, from HCL or from plan JSON's `provider_config`); what those arguments
mean is each cloud's own rule, kept here:

- aws: `region`; `default_tags { tags = {...} }` under every resource's own tags;
- google / google-beta: `region`, else `zone` (a zone names its region; `region_of` strips
  the zone suffix); google's `default_labels`;
- azurerm: no region (Azure sets `location` per resource);
- any other provider: `region` when it has one.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from gpulint.terraform.views import ProviderBlock, ResourceInstance

_ZONE_FALLBACK = {"google", "google-beta"}
_NO_REGION = {"azurerm"}


@dataclass(frozen=True)
class ProviderConfig:
    name: str
    region: Any = None  # str | Unknown | None
    default_tags: dict[str, Any] = field(default_factory=dict)


# Each block is interpreted once, however many resources use it.
_INTERPRETED: weakref.WeakKeyDictionary[ProviderBlock, ProviderConfig] = \
    weakref.WeakKeyDictionary()


def provider_config(inst: ResourceInstance) -> ProviderConfig | None:
    """The region and default tags of the provider block a resource uses, if any."""
    block = inst.provider_block()
    if block is None:
        return None
    found = _INTERPRETED.get(block)
    if found is None:
        found = _INTERPRETED[block] = interpret(block)
    return found


def interpret(block: ProviderBlock) -> ProviderConfig:
    return ProviderConfig(block.name, _region(block), _default_tags(block))


def _region(block: ProviderBlock) -> Any:
    if block.name in _NO_REGION:
        return None
    region = block.view.get("region")
    if region is None and block.name in _ZONE_FALLBACK:
        region = block.view.get("zone")
    return region


def _default_tags(block: ProviderBlock) -> dict[str, Any]:
    tags: dict[str, Any] = {}
    if block.name == "aws":
        for default_tags in block.view.blocks("default_tags"):
            value = default_tags.get("tags", {})
            if isinstance(value, dict):
                tags.update(value)
    elif block.name == "google":
        value = block.view.get("default_labels", {})
        if isinstance(value, dict):
            tags.update(value)
    return tags
