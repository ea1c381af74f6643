"""Which scanned node pools a workload may link to when no declared cluster says.

A pool serves the workloads of its own project only: those under its *home*, the directory that
defines it. Its home is the directory of its Terraform root module (for a pool a module call
creates, the root that calls it) or of its YAML file (Karpenter NodePool, eksctl ClusterConfig);
when that directory is a conventional infrastructure folder (`terraform/`, `infra/`, …), its
parent, so `sample/terraform/` serves `sample/manifests/`. A workload links only to pools whose
home holds its file: the same file is linked (and priced) the same whatever else is scanned.
docs/kubernetes.md states the rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from gpulint.fact_types import Resource

# Folder names that hold a project's infrastructure rather than the project itself.
INFRA_DIRS = frozenset({
    "terraform", "tf", "opentofu", "infra", "infrastructure", "iac", "cluster", "clusters",
    "karpenter", "eksctl", "nodepools", "node-pools", "node_pools",
})


def home(pool: Resource, called_from: Mapping[int, tuple[str, ...]]) -> str:
    """The directory whose subtree a pool serves."""
    calls = called_from.get(id(pool), ())
    defined = calls[-1] if calls else pool.path  # outermost call: the root module's file
    directory = os.path.dirname(os.path.abspath(defined))
    if os.path.basename(directory).lower() in INFRA_DIRS:
        directory = os.path.dirname(directory)
    return directory


def covers(directory: str, workload: Resource) -> bool:
    """Whether the workload's file is in the directory's subtree."""
    here = os.path.dirname(os.path.abspath(workload.path))
    return here == directory or here.startswith(directory.rstrip(os.sep) + os.sep)
