"""The region a Terraform configuration's cloud provider blocks name, for the Kubernetes objects
that configuration applies (kubectl_manifest, kubernetes_*, Helm values of a helm_release or of
an add-on module input).

Those objects run in the cluster the configuration talks to, which a blueprint creates with the
same provider (`provider "aws" { region = local.region }` next to `module "eks"`). A pod whose
own nodes name no region is priced there rather than in the catalog's default region; the price
basis says so. Only default (unaliased) blocks count: an aliased one (`aws.ecr` pinned to
us-east-1 for ECR Public) is not the cluster's.
"""

from __future__ import annotations

import os
from typing import Any

from gpulint import providers as clouds
from gpulint.facts.terraform.common import ZONE_RE
from gpulint.facts.terraform.providers import interpret

# Provider block name → the cloud the price tables call it (azurerm's blocks name no region).
_CLOUDS = {name: c.name for c in clouds.CLOUDS for name in c.terraform_providers}


def regions(providers: dict[str, Any]) -> dict[str, str]:
    """cloud → region of the default provider blocks whose region is known."""
    out: dict[str, str] = {}
    for key, block in providers.items():
        cloud = _CLOUDS.get(key)
        if cloud is None or cloud in out:
            continue
        region = interpret(block).region
        if isinstance(region, str) and region:
            m = ZONE_RE.match(region)
            out[cloud] = m.group(1) if m else region
    return out


def by_file(result: Any) -> dict[str, dict[str, str]]:
    """Real path of each Terraform file with resources or module calls → its provider regions."""
    out: dict[str, dict[str, str]] = {}
    for item in [*result.resources, *result.remote_calls]:
        path = os.path.realpath(item.path)
        if path not in out:
            out[path] = regions(item.providers)
    return out
