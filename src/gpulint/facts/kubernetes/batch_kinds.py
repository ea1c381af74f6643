"""Training and batch operators: Kubeflow Trainer v2 TrainJob joined to its TrainingRuntime or
ClusterTrainingRuntime, SageMaker HyperPod's HyperPodPyTorchJob, the Spark Operator's
SparkApplication (GPU executors and driver) and Volcano's Job. docs/kubernetes.md lists the fields.
"""

from __future__ import annotations

import copy
from typing import Any

from gpulint.facts.kubernetes.accelerators import read as read_accelerators
from gpulint.facts.kubernetes.instance_pods import INSTANCE_TYPE_LABEL, ec2_name, whole_node
from gpulint.facts.kubernetes.kinds import (
    Context,
    PodGroup,
    _count,
    _one_unit,
    _template,
    as_dict,
    as_list,
    dig,
    scalar,
)
from gpulint.model import Unknown

_TRAINER_STEP = "trainer.kubeflow.org/trainjob-ancestor-step"


# --- Kubeflow Trainer v2 ---------------------------------------------------------------------

def _runtime_trainer(runtime: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(pod template, its labels) of the runtime's trainer job: the replicated job labelled as
    the trainer step, else the one named `node`."""
    jobs = [j for j in as_list(dig(runtime, "spec", "template", "spec", "replicatedJobs"))
            if isinstance(j, dict)]
    pick = next((j for j in jobs if dig(j, "template", "metadata", "labels", _TRAINER_STEP)
                 == "trainer"), None) or next((j for j in jobs if str(j.get("name")).lower()
                                               == "node"), None)
    template = dig(pick, "template", "spec", "template") if pick else None
    if not isinstance(template, dict):
        return None
    return as_dict(template.get("spec")), as_dict(dig(template, "metadata", "labels"))


def _apply_trainer(pod: dict[str, Any], trainer: dict[str, Any]) -> dict[str, Any]:
    """The TrainJob's trainer fields override the runtime's trainer container (`node`)."""
    pod = copy.deepcopy(pod)
    containers = [c for c in as_list(pod.get("containers")) if isinstance(c, dict)]
    target = next((c for c in containers if c.get("name") in ("node", "trainer")), None)
    if target is None:
        target = {"name": "node"}
        containers.append(target)
    for key in ("image", "command", "args", "env"):
        if key in trainer:
            target[key] = trainer[key]
    if isinstance(trainer.get("resourcesPerNode"), dict):
        target["resources"] = trainer["resourcesPerNode"]
    pod["containers"] = containers
    return pod


def _trainjob(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    spec = as_dict(doc.get("spec"))
    trainer = as_dict(spec.get("trainer"))
    ref = as_dict(spec.get("runtimeRef"))
    kind = scalar(ref.get("kind")) or "ClusterTrainingRuntime"
    ns = scalar(dig(doc, "metadata", "namespace")) if kind == "TrainingRuntime" else None
    runtime = ctx.find(kind, ns, ref.get("name")) if ref.get("name") else None
    base = _runtime_trainer(runtime) if runtime else None
    pod, labels = base if base else ({}, {})
    pod = _apply_trainer(pod, trainer)
    for o in as_list(spec.get("podSpecOverrides") or spec.get("podTemplateOverrides")):
        src = as_dict(o.get("spec")) if isinstance(o, dict) and "spec" in o else as_dict(o)
        for key in ("nodeSelector", "tolerations", "affinity"):
            if key in src:
                pod[key] = src[key]
    meta = as_dict(doc.get("metadata"))
    default_nodes = dig(runtime, "spec", "mlPolicy", "numNodes") if runtime else None
    nodes = _count(trainer.get("numNodes", default_nodes), 1, "numNodes")
    group = PodGroup("trainer", pod, {**labels, **as_dict(meta.get("labels"))},
                     as_dict(meta.get("annotations")), desired=nodes, workload="training",
                     certain=True)
    if ref.get("name") and runtime is None and read_accelerators(group.pod).count == 0:
        # The accelerators may be in a runtime the scan does not hold: say so, do not drop it.
        group.pod["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": 1}}
        group.unknown_count = Unknown(
            f"the trainer's resources come from {kind} {ref.get('name')}, which is not in the "
            "scan; scan the runtime or set spec.trainer.resourcesPerNode")
        group.pod = dict(group.pod)
    groups = [group]
    _one_unit(groups, "TrainJob")
    return groups


# --- SageMaker HyperPod ----------------------------------------------------------------------

def _hyperpod(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Replica specs (a list); `ml.*` node types are the EC2 instances of the same name."""
    groups: list[PodGroup] = []
    for rs in as_list(dig(doc, "spec", "replicaSpecs")):
        if not isinstance(rs, dict):
            continue
        template = copy.deepcopy(as_dict(rs.get("template")))
        spec = as_dict(template.get("spec"))
        selector = as_dict(spec.get("nodeSelector"))
        itype = next((selector.pop(k) for k in (INSTANCE_TYPE_LABEL, "beta.kubernetes.io/"
                                                "instance-type") if k in selector), None)
        if itype is not None:
            selector[INSTANCE_TYPE_LABEL] = ec2_name(str(itype))
            spec["nodeSelector"] = selector
        template["spec"] = spec
        name = str(rs.get("name", "pods"))
        replicas = _count(rs.get("replicas"), 1, f"{name} replicas")
        found = _template(template, name, desired=replicas, workload="training", certain=True)
        for g in found:
            if itype is not None and read_accelerators(g.pod).count == 0:
                # No GPU limit: HyperPod runs one pod per node with nprocPerNode processes.
                whole, unknown = whole_node(itype, "HyperPod node type")
                limits = whole["containers"][0]["resources"]["limits"]
                if unknown is None and g.pod["containers"]:
                    g.pod["containers"][0]["resources"]["limits"].update(limits)
        groups += found
    _one_unit(groups, doc.get("kind", "HyperPodPyTorchJob"))
    return groups


# --- Spark Operator ----------------------------------------------------------------------------

def _spark_gpu(spec: dict[str, Any], role: dict[str, Any], name: str) -> dict[str, Any]:
    """The role's `gpu: {name, quantity}`, else Spark's own resource settings in sparkConf
    (`spark.executor.resource.gpu.amount` with `.vendor`), which Spark turns into a pod limit."""
    gpu = as_dict(role.get("gpu"))
    if gpu:
        return {str(gpu.get("name") or "nvidia.com/gpu"): gpu.get("quantity")}
    conf = as_dict(spec.get("sparkConf"))
    prefix = f"spark.{name.removeprefix('spark-')}.resource.gpu."
    amount = conf.get(prefix + "amount")
    if amount is None:
        return {}
    vendor = str(conf.get(prefix + "vendor") or "nvidia.com")
    return {f"{vendor}/gpu": amount}


def _spark_pod(spec: dict[str, Any], role: dict[str, Any], name: str) -> dict[str, Any]:
    limits = _spark_gpu(spec, role, name)
    pod: dict[str, Any] = {"containers": [{"name": name, "image": role.get("image") or
                                           spec.get("image"), "resources": {"limits": limits}}]}
    pod["nodeSelector"] = {**as_dict(spec.get("nodeSelector")), **as_dict(role.get("nodeSelector"))}
    for key in ("tolerations", "affinity"):
        if key in role:
            pod[key] = role[key]
    return pod


def _spark_application(doc: dict[str, Any], ctx: Context, spec: Any = None,
                       scheduled: bool = False) -> list[PodGroup]:
    """Executors (× instances, or dynamic allocation bounds) and the driver, each with its
    `gpu: {name, quantity}`."""
    spec = as_dict(spec if spec is not None else doc.get("spec"))
    meta = as_dict(doc.get("metadata"))
    labels, annotations = as_dict(meta.get("labels")), as_dict(meta.get("annotations"))
    groups: list[PodGroup] = []
    executor, driver = as_dict(spec.get("executor")), as_dict(spec.get("driver"))
    instances = _count(executor.get("instances"), 1, "executor.instances")
    kw: dict[str, Any] = {"desired": instances}
    dyn = as_dict(spec.get("dynamicAllocation"))
    if dyn.get("enabled") is True:
        lo = _count(dyn.get("minExecutors", dyn.get("initialExecutors")), 0, "minExecutors")
        kw = {"desired": lo, "minimum": lo, "scale_note": "Spark dynamic allocation",
              "maximum": _count(dyn.get("maxExecutors"), instances, "maxExecutors")}
    if scheduled:  # a ScheduledSparkApplication runs on a schedule: hours a month unknown
        kw = {"desired": Unknown("a ScheduledSparkApplication's run time per month is not known")}
    for suffix, role, extra in (("executor", executor, kw), ("driver", driver,
                                                             {"desired": kw["desired"] if scheduled
                                                              else 1})):
        groups.append(PodGroup(suffix, _spark_pod(spec, role, f"spark-{suffix}"),
                               {**labels, **as_dict(role.get("labels"))},
                               {**annotations, **as_dict(role.get("annotations"))},
                               workload="batch", **extra))
    return groups


def _scheduled_spark(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    return _spark_application(doc, ctx, dig(doc, "spec", "template"), scheduled=True)


# --- Volcano -------------------------------------------------------------------------------

_VOLCANO_TRAINING_PLUGINS = {"pytorch", "mpi", "tensorflow"}


def _volcano_job(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Each task is a pod template × replicas; the pytorch/mpi/tensorflow plugins mean training."""
    spec = as_dict(doc.get("spec"))
    plugins = set(as_dict(spec.get("plugins")))
    workload = "training" if plugins & _VOLCANO_TRAINING_PLUGINS else "batch"
    groups: list[PodGroup] = []
    for task in as_list(spec.get("tasks")):
        if not isinstance(task, dict):
            continue
        name = str(task.get("name", "task"))
        groups += _template(task.get("template"), name, workload=workload,
                            desired=_count(task.get("replicas"), 1, f"{name} replicas"),
                            certain=workload == "training")
    _one_unit(groups, "Volcano Job")
    return groups


# Readers the kind table (data/kinds.yaml) names.
READERS = {"trainjob": _trainjob, "hyperpod": _hyperpod, "spark-application": _spark_application,
           "scheduled-spark-application": _scheduled_spark, "volcano-job": _volcano_job}
