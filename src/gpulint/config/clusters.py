"""The `clusters:` configuration: which cluster (cloud, region, GPU node pools) a manifest runs
in, for what the manifests cannot say (docs/configuration.md#clusters).

Linking reads it first (facts/kubernetes/clusters.py): a workload of a declared cluster links only
to that cluster's pools, and a pod that picks GPU nodes by tolerations alone is priced from the
cluster's pool for its accelerator.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpulint.config.cluster_checks import parse_taint
from gpulint.config.load import Config, display, key_path

CAPACITIES = ("on-demand", "spot")


@dataclass(frozen=True)
class DeclaredPool:
    """A cluster's node pool: one in the scan (a Terraform `address` glob, or the `name` of a
    Karpenter NodePool or eksctl node group), or one described here by its `instance_type`."""

    where: str  # file:line: key path, for messages
    file: str = ""  # the configuration file and the entry's line, for diagnostics
    line: int | None = None
    type_where: str = ""  # the same for its instance_type
    address: str | None = None
    name: str | None = None
    instance_type: str | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Mapping[str, str | None], ...] = ()
    capacity: str = "on-demand"

    @property
    def described(self) -> bool:
        return self.instance_type is not None


@dataclass(frozen=True)
class Cluster:
    name: str
    cloud: str
    where: str
    region_where: str = ""
    region: str | None = None
    paths: tuple[str, ...] = ()  # absolute path globs (globs.py)
    namespaces: tuple[str, ...] = ()  # namespace globs
    pools: tuple[DeclaredPool, ...] = ()

    @property
    def catch_all(self) -> bool:
        """A cluster that names no paths or namespaces holds every workload not claimed by an
        earlier one (a repository of one cluster: its default cloud and region)."""
        return not self.paths and not self.namespaces


def _where(config: Config, keys: tuple[Any, ...]) -> str:
    line = config.lines.get(keys)
    return f"{display(config.path)}{f':{line}' if line else ''}: {key_path(keys)}"


def _pool(config: Config, keys: tuple[Any, ...], data: Mapping[str, Any]) -> DeclaredPool:
    taints = tuple(t for t in map(parse_taint, data.get("taints") or ()) if t)
    return DeclaredPool(
        _where(config, keys), display(config.path), config.lines.get(keys),
        _where(config, (*keys, "instance_type")), address=data.get("address"),
        name=data.get("name"), instance_type=data.get("instance_type"),
        labels={str(k): str(v) for k, v in (data.get("labels") or {}).items()},
        taints=taints, capacity=data.get("capacity", "on-demand"))


def from_config(config: Config | None) -> tuple[Cluster, ...]:
    if config is None:
        return ()
    out = []
    for i, c in enumerate(config.data.get("clusters") or ()):
        keys = ("clusters", i)
        pools = tuple(_pool(config, (*keys, "node_pools", j), p)
                      for j, p in enumerate(c.get("node_pools") or ()))
        out.append(Cluster(
            str(c["name"]), str(c["cloud"]).lower(), _where(config, keys),
            _where(config, (*keys, "region")), region=c.get("region"),
            paths=tuple(config.relative(p) for p in c.get("paths") or ()),
            namespaces=tuple(c.get("namespaces") or ()), pools=pools))
    return tuple(out)
