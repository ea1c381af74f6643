"""The top-level `tags:` configuration: cost-allocation tags every GPU resource must carry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DEFAULT_REQUIRED = ("team", "project", "env")


@dataclass(frozen=True)
class TagSettings:
    # One list for every provider, or provider -> list with `default` for the others.
    required: tuple[str, ...] | Mapping[str, tuple[str, ...]] = DEFAULT_REQUIRED
    patterns: Mapping[str, str] = field(default_factory=dict)  # key -> regex, full match

    @staticmethod
    def fields_from(section: Mapping[str, Any] | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        section = section or {}
        if isinstance(section.get("required"), list):
            out["required"] = tuple(section["required"])
        elif isinstance(section.get("required"), dict):
            out["required"] = {k: tuple(v or ()) for k, v in section["required"].items()}
        if isinstance(section.get("patterns"), dict):
            out["patterns"] = dict(section["patterns"])
        return out

    @classmethod
    def from_config(cls, section: Mapping[str, Any] | None) -> TagSettings:
        return cls(**cls.fields_from(section))

    def required_for(self, provider: Any) -> list[str]:
        if not isinstance(self.required, Mapping):
            return list(self.required)
        keys = self.required.get(provider) if isinstance(provider, str) else None
        return list(keys if keys is not None else self.required.get("default", ()))
