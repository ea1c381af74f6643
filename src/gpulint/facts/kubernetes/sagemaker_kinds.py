"""The ACK SageMaker controller's kinds (sagemaker.services.k8s.aws): a TrainingJob,
HyperParameterTuningJob, NotebookInstance or EndpointConfig names an ml.* instance type and a
count, and SageMaker runs those instances itself, outside the cluster's nodes. Each is read as pods
that take whole nodes of that type (instance_pods.py), plus what SageMaker pricing needs: the use
that picks the rate, the region (the `services.k8s.aws/region` annotation, else the default),
managed spot, and for jobs the run-time bound, since a job runs once and stops.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from typing import Any

from gpulint.facts.kubernetes.instance_pods import ec2_name, whole_node
from gpulint.facts.kubernetes.kinds import (
    Context,
    PodGroup,
    _count,
    _one_unit,
    as_dict,
    as_list,
    dig,
    scalar,
)
from gpulint.model import Unknown
from gpulint.pricing import catalog

REGION_ANNOTATION = "services.k8s.aws/region"
# CreateTrainingJob's StoppingCondition: "If value is not specified, default value is 1 day. The
# maximum value is 28 days." (SageMaker API reference, StoppingCondition.MaxRuntimeInSeconds)
DEFAULT_RUNTIME_S, MAX_RUNTIME_S = 86_400, 28 * 86_400
_IDLE_WORDS = re.compile(r"idle|autostop|auto-stop|auto_stop", re.I)


def _meta(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    meta = as_dict(doc.get("metadata"))
    return as_dict(meta.get("labels")), as_dict(meta.get("annotations"))


def _facts(doc: dict[str, Any], itype: Any, use: str, spot: Any = False) -> dict[str, Any]:
    """The facts every SageMaker object shares: use, EC2 name, region, capacity."""
    _, annotations = _meta(doc)
    region = scalar(annotations.get(REGION_ANNOTATION))
    facts: dict[str, Any] = {
        "sagemaker.use": use, "region": region or catalog.default_region("aws"),
        "region.source": "code" if region else "default",
        "capacity": "spot" if spot is True or str(spot).lower() == "true" else "on-demand"}
    if isinstance(itype, str) and itype.startswith("ml."):
        facts["cost.instance_type"] = ec2_name(itype)
    else:
        why = "not set" if itype is None else f"{itype!r} is not an ml.* type"
        facts["instance.type"] = Unknown(f"the SageMaker instance type is {why}")
    return facts


def _group(doc: dict[str, Any], suffix: str | None, itype: Any, count: Any, use: str,
           workload: str, facts: dict[str, Any]) -> PodGroup:
    labels, annotations = _meta(doc)
    pod, unknown = whole_node(itype, f"{doc.get('kind')} instance type", {"name": use})
    return PodGroup(suffix, pod, labels, annotations, desired=count, workload=workload,
                    certain=True, unknown_count=unknown, linkable=False, facts=facts)


def _runtime(value: Any, where: str) -> tuple[float, str]:
    """(seconds one training job runs at most, where that comes from)."""
    if value is None:
        return DEFAULT_RUNTIME_S, f"{where} not set, SageMaker's default of 1 day"
    try:
        seconds = float(str(value))
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= MAX_RUNTIME_S:
        return MAX_RUNTIME_S, (f"{where} {value!r} is not a valid time, SageMaker's maximum "
                               "of 28 days")
    return seconds, f"{where} = {value}"


def _instance_groups(spec: dict[str, Any]) -> list[tuple[str | None, Any, Any]]:
    """(suffix, ml.* type, count) for the resource config: one type, or heterogeneous groups."""
    rc = as_dict(spec.get("resourceConfig"))
    groups = [g for g in as_list(rc.get("instanceGroups")) if isinstance(g, dict)]
    if groups:
        return [(scalar(g.get("instanceGroupName")) or str(i), g.get("instanceType"),
                 _count(g.get("instanceCount"), 1, "instanceCount")) for i, g in enumerate(groups)]
    return [(None, rc.get("instanceType"), _count(rc.get("instanceCount"), 1, "instanceCount"))]


def _training_job(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """A training job runs its instances once, for at most stoppingCondition's run time."""
    spec = as_dict(doc.get("spec"))
    seconds, source = _runtime(dig(spec, "stoppingCondition", "maxRuntimeInSeconds"),
                               "stoppingCondition.maxRuntimeInSeconds")
    run = {"cost.run_hours": round(seconds / 3600, 4), "cost.run_hours_source": source}
    groups = [_group(doc, suffix, itype, count, "training", "training",
                     {**_facts(doc, itype, "training", spec.get("enableManagedSpotTraining")),
                      **run})
              for suffix, itype, count in _instance_groups(spec)]
    _one_unit(groups, "SageMaker training job")  # its instances train one model together
    return groups


def _tuning_job(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """A tuning job runs maxNumberOfTrainingJobs training jobs, maxParallelTrainingJobs at a
    time: that many sets of instances, for rounds × each job's run time at most."""
    spec = as_dict(doc.get("spec"))
    limits = as_dict(dig(spec, "hyperParameterTuningJobConfig", "resourceLimits"))
    total = _count(limits.get("maxNumberOfTrainingJobs"), 1, "maxNumberOfTrainingJobs")
    parallel = _count(limits.get("maxParallelTrainingJobs"), 1, "maxParallelTrainingJobs")
    definitions = [d for d in [spec.get("trainingJobDefinition"),
                               *as_list(spec.get("trainingJobDefinitions"))] if isinstance(d, dict)]
    out: list[PodGroup] = []
    for i, definition in enumerate(definitions):
        seconds, source = _runtime(dig(definition, "stoppingCondition", "maxRuntimeInSeconds"),
                                   "trainingJobDefinition.stoppingCondition.maxRuntimeInSeconds")
        run: dict[str, Any] = {}
        if isinstance(total, int) and isinstance(parallel, int) and parallel > 0:
            rounds = math.ceil(max(total, 1) / parallel)
            run = {"cost.run_hours": round(rounds * seconds / 3600, 4),
                   "cost.run_hours_source": f"{total} training jobs, {parallel} at a time: "
                                            f"{rounds} × ({source})"}
        name = scalar(definition.get("definitionName")) or (str(i) if len(definitions) > 1
                                                            else None)
        spot = definition.get("enableManagedSpotTraining")
        for suffix, itype, count in _instance_groups(definition):
            times = parallel if isinstance(parallel, Unknown) else \
                count if not isinstance(count, int) else count * parallel
            out.append(_group(doc, "/".join(p for p in (name, suffix) if p) or None, itype,
                              times, "training", "training",
                              {**_facts(doc, itype, "training", spot), **run}))
    return out


def _idle_script(config: dict[str, Any] | None) -> bool:
    """Whether a NotebookInstanceLifecycleConfig's scripts (base64) stop the idle instance."""
    for hook in ("onStart", "onCreate"):
        for step in as_list(dig(config, "spec", hook)):
            content = scalar(as_dict(step).get("content")) or ""
            try:
                content = base64.b64decode(content, validate=True).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                pass
            if _IDLE_WORDS.search(content):
                return True
    return False


def _notebook_instance(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Always on until stopped: one instance, 730 h, unless its lifecycle config stops it."""
    spec = as_dict(doc.get("spec"))
    itype = spec.get("instanceType")
    facts = _facts(doc, itype, "notebook")
    config_name = scalar(spec.get("lifecycleConfigName"))
    if config_name:
        ns = scalar(as_dict(doc.get("metadata")).get("namespace"))
        config = ctx.find("NotebookInstanceLifecycleConfig", ns, config_name)
        if config is None:
            facts["shutdown"] = Unknown(
                f"lifecycle config {config_name!r} is not in the scan, so whether it stops the "
                "idle instance is unknown; scan its NotebookInstanceLifecycleConfig")
        elif _idle_script(config):
            facts["shutdown"] = "idle"
    return [_group(doc, None, itype, 1, "notebook", "notebook", facts)]


def _endpoint_config(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Each production variant: instanceType × initialInstanceCount (managed instance scaling
    gives the range); serverless variants have no instances."""
    variants = [v for v in as_list(dig(doc, "spec", "productionVariants"))
                if isinstance(v, dict) and not v.get("serverlessConfig")]
    out: list[PodGroup] = []
    for i, v in enumerate(variants):
        itype = v.get("instanceType")
        count = _count(v.get("initialInstanceCount"), 1, "initialInstanceCount")
        suffix = (scalar(v.get("variantName")) or str(i)) if len(variants) > 1 else None
        group = _group(doc, suffix, itype, count, "hosting", "inference",
                       {**_facts(doc, itype, "hosting"), "capacity": "on-demand"})
        scaling = as_dict(v.get("managedInstanceScaling"))
        if str(scaling.get("status", "")).upper() == "ENABLED":
            group.minimum = _count(scaling.get("minInstanceCount"), count, "minInstanceCount")
            group.maximum = _count(scaling.get("maxInstanceCount"), count, "maxInstanceCount")
        out.append(group)
    return out


READERS = {"sagemaker-training-job": _training_job, "sagemaker-tuning-job": _tuning_job,
           "sagemaker-notebook-instance": _notebook_instance,
           "sagemaker-endpoint-config": _endpoint_config}
