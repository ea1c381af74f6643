"""The setting, flag or edit that fixes each root cause of "could not evaluate", so a grouped
cause in the text report says what to do, not only what is missing."""

from __future__ import annotations

import re

# (pattern over the root cause, fix); the first match wins. Group 1, when present, is a name
# the fix repeats (a variable).
_FIXES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), fix) for p, fix in (
    (r"variable (\S+) has no default and no value was given",
     "give it a value: --var {0}=VALUE, --var-file FILE or TF_VAR_{0}"),
    (r"variable (\S+) is not declared", 'declare variable "{0}" or fix the reference'),
    (r"known only after apply",
     "scan a plan: terraform show -json tfplan > plan.json; gpulint scan plan.json"),
    (r"is not local and not downloaded|not a local or downloaded module",
     "run terraform init so the module is under .terraform/modules"),
    (r"local module directory (\S+) does not exist", "fix the module's source path {0}"),
    (r"no node selector or required affinity names",
     "declare the cluster and its GPU node pools under `clusters:` in the configuration (a "
     "pod that picks nodes by tolerations is priced from them), or add a nodeSelector naming "
     "the node type (node.kubernetes.io/instance-type or a GPU label)"),
    (r"links it to no single node pool",
     "scan the node pools with the workload (a directory holding both), or declare the "
     "cluster's GPU node pools and their labels under `clusters:` in the configuration"),
    (r"nothing names the cloud",
     "declare the cluster it runs in under `clusters:` (cloud, region, node pools; one with "
     "no paths is the default for every manifest), or add a cloud's node label "
     "(node.kubernetes.io/instance-type, a GKE, Karpenter, AKS or eksctl label)"),
    (r"node selection matches several pools",
     "select one pool (a nodeSelector on its name label), or list the pools of the cluster "
     "it runs in under `clusters:`"),
    (r"GPUs but nodes of pool \S+ have",
     "request at most as many GPUs as one node has, or run it on a pool of larger nodes"),
    (r"tolerations let it onto several pools",
     "select one pool with a nodeSelector on its name label"),
    (r"no \w+ node with .* GPUs in",
     "set the region of the cluster it runs in (`clusters:` region, or the cloud's default "
     "under `regions:` / --default-region)"),
    (r"does not tolerate its taint", "add the toleration, or select another pool"),
    (r"tensor parallelism is not declared",
     "declare it: the server's --tensor-parallel-size flag, the gpulint.dev/tensor-parallel "
     "label or models[].tensor_parallel in the configuration"),
    (r"is not in the model catalog|size cannot be read|size is estimated|refers to an env var"
     r"|total parameters unknown",
     "declare the model: models[] in the configuration or the gpulint.dev/model label"),
    (r"(instance|accelerator) type '[^']*' is not in the (\w+ )?catalog \(did you mean",
     "correct the {0} type as suggested"),
    (r"(instance|accelerator) type '[^']*' is not in the (\w+ )?catalog",
     "check the {0} type's spelling (one newer than the price catalog: gpulint catalog "
     "update), or price it with --pricing-overrides FILE"),
    (r"is not in the (\w+ )?catalog|no \w+ price for|current price is not known|no \S+ row in",
     "price it with --pricing-overrides FILE (pricing_overrides in the configuration)"),
    (r"without bound|no upper bound|set by an autoscaler",
     "set a maximum (the autoscaler's max size or maxReplicas)"),
    (r"requests no accelerator, yet its .* puts it on",
     "request the accelerators the pod uses in its resources.limits (nvidia.com/gpu, "
     "google.com/tpu), or select other nodes if it uses none"),
    (r"looks like GPU nodes .* but no instance type is set",
     "set the pool's instance type (instance_types, machine_type, vm_size)"),
    (r"looks like GPU nodes", "give the pool's instance type a value (-v shows where it "
     "comes from)"),
    (r"which the catalog does not list|is not in the bundled table",
     "not priced by gpulint: add its cost outside the report (its GPUs and counts are "
     "still checked)"),
    (r"a format gpulint does not read",
     "not priced by gpulint: add its cost outside the report, or describe the capacity in "
     "Terraform or Kubernetes manifests, which it reads"),
    (r"outside the scanned tree", "scan the directory that holds the file"),
    (r"in a var file beside no Terraform root", "scan the root module that file configures with "
     "--var-file pointing at it (or list it under terraform.var_files for that root)"),
    (r"limit", "a fixed safety limit (docs/performance.md); simplify the expression"),
))
DEFAULT = "state the value in the code (-v shows each resource and what is unknown)"


# A reason that names its own fix: a variable a var file of the directory sets.
_NAMED = re.compile(r"\(not auto-loaded\): (pass --var-file \S+)")
# GPU pools only unloaded var files give (facts/terraform/var_files.py): the flag or setting.
_VARIANTS = re.compile(r"; (pass --var-file \S+, or set terraform\.var_file_variants.*)$")
# Terraform switched off by default or templates no evaluated code reads
# (facts/terraform/switched_off.py, unread_templates.py): the setting that evaluates it.
_EVALUATES = re.compile(r"; ([^;]* to evaluate it)$")
# Pools of unknown machine type (facts/terraform/unknown_types.py): "(cause)" at the end.
_MIGHT_BE_GPU = re.compile(r"of unknown machine type, might be GPU \w+ \((.*)\)$")


def fix_for(cause: str, reason: str = "") -> str:
    """What fixes ``cause`` (a root cause as text.root_cause returns it); ``reason``, the whole
    reason of its first resource, when it names the fix itself."""
    inner = _MIGHT_BE_GPU.search(cause)
    if inner:  # pools of unknown machine type: the fix of what left the type unknown
        return fix_for(inner.group(1), reason)
    variants = _VARIANTS.search(reason) or _EVALUATES.search(reason)
    if variants:
        return variants.group(1)
    named = _NAMED.search(reason)
    if named:
        return f"{named.group(1)} (or list it under terraform.var_files in the configuration)"
    for pattern, fix in _FIXES:
        m = pattern.search(cause)
        if m:
            return fix.format(*(g or "" for g in m.groups()))
    return DEFAULT
