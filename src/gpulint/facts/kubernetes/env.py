"""A container's environment as the kubelet builds it, with ConfigMaps from the same scan.

Secrets and field references are left out: their values are not in the manifests.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.facts.kubernetes.kinds import as_dict, as_list, scalar

_REF = re.compile(r"\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)")


class ConfigMaps:
    """ConfigMap data by (namespace, name); a manifest without a namespace matches any."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str], dict[str, str]] = {}

    def add(self, doc: dict[str, Any]) -> None:
        meta = as_dict(doc.get("metadata"))
        data, name = doc.get("data"), scalar(meta.get("name"))
        if isinstance(data, dict) and name:
            self._data[(scalar(meta.get("namespace")) or "", name)] = \
                {str(k): str(v) for k, v in data.items() if scalar(v) is not None}

    def get(self, namespace: str | None, name: Any) -> dict[str, str] | None:
        ns, wanted = namespace or "", scalar(name)
        if wanted is None:
            return None
        if (ns, wanted) in self._data:
            return self._data[(ns, wanted)]
        matches = [d for (n, nm), d in self._data.items() if nm == wanted and (not n or not ns)]
        return matches[0] if len(matches) == 1 else None


def container_env(container: dict[str, Any], namespace: str | None,
                  config_maps: ConfigMaps | None) -> dict[str, str]:
    """envFrom first, then env (which overrides it); `$(VAR)` in values refers to earlier vars."""
    env: dict[str, str] = {}
    for src in as_list(container.get("envFrom")):
        if not isinstance(src, dict) or not isinstance(src.get("configMapRef"), dict):
            continue
        data = config_maps.get(namespace, src["configMapRef"].get("name")) if config_maps else None
        prefix = str(src.get("prefix") or "")
        for k, v in (data or {}).items():
            env[prefix + k] = v
    for e in as_list(container.get("env")):
        name = scalar(e.get("name")) if isinstance(e, dict) else None
        if not name:
            continue
        if isinstance(e.get("value"), (str, int, float)) and not isinstance(e.get("value"), bool):
            env[name] = _REF.sub(lambda m: env.get(m.group(1), m.group(0)), str(e["value"]))
            continue
        ref = as_dict(e.get("valueFrom")).get("configMapKeyRef")
        if isinstance(ref, dict) and config_maps:
            data = config_maps.get(namespace, ref.get("name"))
            if data and str(ref.get("key")) in data:
                env[name] = data[str(ref.get("key"))]
    return env
