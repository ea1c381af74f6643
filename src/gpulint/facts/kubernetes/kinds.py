"""Where each Kubernetes kind keeps its pods: one `PodGroup` per pod template, with its replicas.

Controllers (Deployment, Job…) have one pod template; ML operators have several (a Ray cluster's
head and worker groups, a PyTorchJob's Master and Worker). Each group becomes its own resource,
addressed `Kind/namespace/name/<group>`, because each is scheduled and billed on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpulint.model import Unknown


def as_dict(value: Any) -> dict[str, Any]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def scalar(value: Any) -> str | None:
    """A name-like field as text; None for missing or structured values."""
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) \
        else None


def _clean_container(c: dict[str, Any]) -> dict[str, Any]:
    """The container fields gpulint reads, each of the type the API requires (or left out)."""
    out = dict(c)
    res = as_dict(c.get("resources"))
    out["resources"] = {k: as_dict(res.get(k)) for k in ("limits", "requests")}
    out["resources"]["claims"] = [x for x in as_list(res.get("claims")) if isinstance(x, dict)]
    out["env"] = [e for e in as_list(c.get("env")) if isinstance(e, dict)]
    out["envFrom"] = [e for e in as_list(c.get("envFrom")) if isinstance(e, dict)]
    for key in ("command", "args"):
        value = c.get(key)
        out[key] = [str(x) for x in value if scalar(x) is not None] if isinstance(value, list) \
            else [value] if isinstance(value, str) else []
    out["name"] = scalar(c.get("name")) or "?"
    return out


def clean_pod(pod: Any) -> dict[str, Any]:
    """A PodSpec whose fields read by gpulint have the types the API requires; malformed ones
    are dropped, so a bad manifest gives unknown facts rather than an exception."""
    pod = as_dict(pod)
    out = dict(pod)
    for key in ("containers", "initContainers"):
        out[key] = [_clean_container(c) for c in as_list(pod.get(key)) if isinstance(c, dict)]
    out["nodeSelector"] = as_dict(pod.get("nodeSelector"))
    out["tolerations"] = [t for t in as_list(pod.get("tolerations")) if isinstance(t, dict)]
    out["affinity"] = as_dict(pod.get("affinity"))
    out["resourceClaims"] = [x for x in as_list(pod.get("resourceClaims")) if isinstance(x, dict)]
    return out


@dataclass
class PodGroup:
    suffix: str | None  # appended to the object's address; None for single-template kinds
    pod: dict[str, Any]  # a PodSpec (or an equivalent built from a CRD's fields)
    labels: Any = field(default_factory=dict)  # pod template labels (a dict once built)
    annotations: Any = field(default_factory=dict)  # pod template annotations
    desired: Any = 1
    minimum: Any = None  # None: same as desired
    maximum: Any = None
    workload: str | None = None  # implied by the kind, used when nothing more explicit says
    scale_note: str | None = None  # why minimum is what it is (scale to zero by default…)
    certain: bool = False  # the kind alone settles the workload (a PyTorchJob trains)
    # The pods of one multi-host unit that serves or trains one model together, as (pod spec,
    # pods): a LeaderWorkerSet group (leader + size − 1 workers), a Ray worker replica of
    # numOfHosts pods, a JobSet's jobs, a training job's replica specs. None: the pod is alone.
    unit: list[tuple[dict[str, Any], Any]] | None = None
    unit_name: str = ""  # what the unit is, for messages ("LeaderWorkerSet group of 4 pods")
    model: Any = None  # a ModelDecl the operator's fields declare (KAITO preset, model URI…)
    unknown_count: Any = None  # Unknown: why the accelerators per pod cannot be read
    linkable: bool = True  # False: the operator provisions its own nodes (KAITO), no pool match
    read_as: str | None = None  # how a kind without a reader of its own was read (generic.py)
    facts: dict[str, Any] = field(default_factory=dict)  # set last, over what the pod implies

    def __post_init__(self) -> None:
        self.pod = clean_pod(self.pod)
        self.labels = as_dict(self.labels)
        self.annotations = as_dict(self.annotations)
        if self.unit is not None:
            self.unit = [(clean_pod(pod), n) for pod, n in self.unit]


def dig(doc: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def _count(value: Any, default: Any, what: str) -> Any:
    """A replica count: a whole number, the default when absent, Unknown otherwise."""
    if value is None:
        return default
    if isinstance(value, bool):
        return Unknown(f"{what} {value!r} is not a number")
    try:
        n = value if isinstance(value, int) else int(str(value))
    except ValueError:
        return Unknown(f"{what} {value!r} is not a number")
    # The API server rejects a negative count; priced, it would subtract from the total.
    return Unknown(f"{what} {value!r} is negative") if n < 0 else n


def _template(template: Any, suffix: str | None = None, **kw: Any) -> list[PodGroup]:
    """A PodTemplateSpec (metadata + spec) as a group."""
    spec = dig(template, "spec")
    if not isinstance(spec, dict):
        return []
    meta = as_dict(dig(template, "metadata"))
    return [PodGroup(suffix, spec, meta.get("labels"), meta.get("annotations"), **kw)]


def _scaled(doc: dict[str, Any]) -> list[PodGroup]:
    replicas = _count(dig(doc, "spec", "replicas"), 1, "replicas")
    return _template(dig(doc, "spec", "template"), desired=replicas)


def _pod(doc: dict[str, Any]) -> list[PodGroup]:
    meta = as_dict(doc.get("metadata"))
    spec = doc.get("spec")
    return [PodGroup(None, spec, meta.get("labels"), meta.get("annotations"))] \
        if isinstance(spec, dict) else []


def _daemonset(doc: dict[str, Any]) -> list[PodGroup]:
    return _template(dig(doc, "spec", "template"),
                     desired=Unknown("a DaemonSet runs one pod per matching node"))


def _job(doc: dict[str, Any]) -> list[PodGroup]:
    par = _count(dig(doc, "spec", "parallelism"), 1, "parallelism")
    out = _template(dig(doc, "spec", "template"), desired=par, workload="batch")
    # An Indexed Job's pods run together with a rank each (JOB_COMPLETION_INDEX): the way
    # multi-node training is written without an operator, one model over all of them.
    together = _count(dig(doc, "spec", "completions"), par, "completions")
    if dig(doc, "spec", "completionMode") == "Indexed" and isinstance(par, int) \
            and isinstance(together, int) and min(par, together) > 1:
        for g in out:
            n = min(par, together)
            g.unit, g.unit_name = [(g.pod, n)], f"Indexed Job of {n} pods"
    return out


def _cronjob(doc: dict[str, Any]) -> list[PodGroup]:
    return _template(dig(doc, "spec", "jobTemplate", "spec", "template"), workload="batch",
                     desired=Unknown("a CronJob's run time per month is not known"))


def _notebook(doc: dict[str, Any]) -> list[PodGroup]:
    # Kubeflow stops a notebook by setting this annotation; the controller scales it to 0.
    stopped = "kubeflow-resource-stopped" in as_dict(dig(doc, "metadata", "annotations"))
    return _template(dig(doc, "spec", "template"), desired=0 if stopped else 1, workload="notebook",
                     certain=True)


def _kserve(doc: dict[str, Any]) -> list[PodGroup]:
    """InferenceService predictor: `model:` (v1beta1 new style), a framework key, or containers."""
    pred = as_dict(dig(doc, "spec", "predictor"))
    if not pred:
        return []
    containers: list[dict[str, Any]] = []
    model = pred.get("model")
    framework = next((k for k in ("huggingface", "pytorch", "triton", "tensorflow", "sklearn",
                                  "xgboost", "onnx", "lightgbm", "paddle", "pmml")
                      if isinstance(pred.get(k), dict)), None)
    spec_model = model if isinstance(model, dict) else pred.get(framework) if framework else None
    if isinstance(spec_model, dict):
        containers.append({"name": "kserve-container", **spec_model})
    containers += [c for c in as_list(pred.get("containers")) if isinstance(c, dict)]
    pod = {k: v for k, v in pred.items() if k not in {"model", "containers", framework}}
    pod["containers"] = containers
    lo = _count(pred.get("minReplicas"), 1, "minReplicas")
    hi = _count(pred.get("maxReplicas"), lo, "maxReplicas")
    if hi == 0:  # maxReplicas 0 means "no limit" in KServe
        hi = Unknown("maxReplicas 0: KServe sets no upper bound")
    meta = as_dict(doc.get("metadata"))
    return [PodGroup("predictor", pod, as_dict(meta.get("labels")),
                     as_dict(meta.get("annotations")),
                     desired=lo, minimum=lo, maximum=hi, workload="inference",
                     scale_note="KServe minReplicas", certain=True)]


def _ray_cluster_spec(spec: Any, workload: str | None) -> list[PodGroup]:
    spec = as_dict(spec)
    autoscale = spec.get("enableInTreeAutoscaling") is True
    groups = _template(dig(spec, "headGroupSpec", "template"), "head", workload=workload)
    for wg in as_list(spec.get("workerGroupSpecs")):
        if not isinstance(wg, dict):
            continue
        name = str(wg.get("groupName", "workers"))
        hosts = _count(wg.get("numOfHosts"), 1, "numOfHosts")
        lo_replicas = _count(wg.get("minReplicas"), 0, "minReplicas")
        lo = _times(lo_replicas, hosts)
        hi = _times(_count(wg.get("maxReplicas"), 2147483647, "maxReplicas"), hosts)
        replicas = _times(_count(wg.get("replicas"), lo_replicas, "replicas"), hosts)
        # Without the autoscaler KubeRay keeps `replicas` workers; with it, min..max. Each
        # replica of a multi-host group (a TPU slice) is numOfHosts pods.
        kw: dict[str, Any] = {"desired": replicas}
        if autoscale:
            kw.update(minimum=lo, maximum=hi, scale_note="Ray autoscaler")
        groups += _template(wg.get("template"), f"workers/{name}", workload=workload, **kw)
        if groups and hosts != 1 and groups[-1].suffix == f"workers/{name}":
            groups[-1].unit = [(groups[-1].pod, hosts)]
            groups[-1].unit_name = f"Ray worker replica of numOfHosts {hosts} pods"
    return groups


def _times(n: Any, hosts: Any) -> Any:
    """Replicas × hosts per replica, Unknown if either is."""
    if isinstance(n, Unknown) or isinstance(hosts, Unknown):
        return n if isinstance(n, Unknown) else hosts
    return n * hosts


def _ray(doc: dict[str, Any]) -> list[PodGroup]:
    kind = doc["kind"]
    spec = as_dict(doc.get("spec"))
    if kind == "RayJob":
        return _ray_cluster_spec(spec.get("rayClusterSpec"), "batch")
    if kind == "RayService":
        return _ray_cluster_spec(spec.get("rayClusterConfig"), "inference")
    return _ray_cluster_spec(spec, None)


_TRAINING_REPLICA_KEYS = {"PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs",
                          "MPIJob": "mpiReplicaSpecs", "XGBoostJob": "xgbReplicaSpecs",
                          "PaddleJob": "paddleReplicaSpecs", "MXJob": "mxReplicaSpecs"}


def _training_operator(doc: dict[str, Any]) -> list[PodGroup]:
    specs = as_dict(dig(doc, "spec", _TRAINING_REPLICA_KEYS[doc["kind"]]))
    elastic = as_dict(dig(doc, "spec", "elasticPolicy"))
    groups: list[PodGroup] = []
    for role in sorted(specs):
        rs = as_dict(specs[role])
        replicas = _count(rs.get("replicas"), 1, f"{role} replicas")
        kw: dict[str, Any] = {"desired": replicas}
        if role == "Worker" and elastic:
            kw = {"desired": replicas,
                  "minimum": _count(elastic.get("minReplicas"), replicas, "minReplicas"),
                  "maximum": _count(elastic.get("maxReplicas"), replicas, "maxReplicas"),
                  "scale_note": "elasticPolicy"}
        groups += _template(rs.get("template"), role, workload="training", certain=True, **kw)
    _one_unit(groups, doc["kind"])
    return groups


def _leaderworkerset(doc: dict[str, Any]) -> list[PodGroup]:
    groups = _count(dig(doc, "spec", "replicas"), 1, "replicas")
    lwt = as_dict(dig(doc, "spec", "leaderWorkerTemplate"))
    size = _count(lwt.get("size"), 1, "size")
    if size == 0:  # the API server requires size >= 1: a group is at least its leader
        size = Unknown("size 0 is below the minimum of 1")
    if isinstance(groups, Unknown) or isinstance(size, Unknown):
        bad = groups if isinstance(groups, Unknown) else size
        return _template(lwt.get("workerTemplate"), "workers", desired=bad)
    name = f"LeaderWorkerSet group of {size} pods"
    if not isinstance(lwt.get("leaderTemplate"), dict):
        # Leader and workers share one template: size pods per group.
        out = _template(lwt.get("workerTemplate"), None, desired=groups * size)
        for g in out:
            g.unit, g.unit_name = [(g.pod, size)], name
        return out
    out = (_template(lwt.get("leaderTemplate"), "leader", desired=groups)
           + _template(lwt.get("workerTemplate"), "workers", desired=groups * (size - 1)))
    leader = dig(lwt, "leaderTemplate", "spec")
    worker = dig(lwt, "workerTemplate", "spec")
    unit = [(p, n) for p, n in ((leader, 1), (worker, size - 1)) if isinstance(p, dict) and n]
    for g in out:
        g.unit, g.unit_name = list(unit), name
    return out


def _jobset(doc: dict[str, Any]) -> list[PodGroup]:
    out: list[PodGroup] = []
    for rj in as_list(dig(doc, "spec", "replicatedJobs")):
        if not isinstance(rj, dict):
            continue
        replicas = _count(rj.get("replicas"), 1, "replicas")
        par = _count(dig(rj, "template", "spec", "parallelism"), 1, "parallelism")
        desired = replicas if isinstance(replicas, Unknown) else \
            par if isinstance(par, Unknown) else replicas * par
        out += _template(dig(rj, "template", "spec", "template"), str(rj.get("name", "job")),
                         desired=desired, workload="batch")
    _one_unit(out, "JobSet")
    return out


def _one_unit(groups: list[PodGroup], what: str) -> None:
    """Every pod of the object works on one model together (a JobSet, a training job)."""
    unit = [(g.pod, g.desired) for g in groups if not isinstance(g.desired, Unknown)]
    pods = sum(n for _, n in unit)
    if len(unit) == len(groups) and pods > 1:
        for g in groups:
            g.unit, g.unit_name = list(unit), f"{what} of {pods} pods"


def _knative_service(doc: dict[str, Any]) -> list[PodGroup]:
    groups = _template(dig(doc, "spec", "template"))
    for g in groups:
        ann = g.annotations
        knative = "autoscaling.knative.dev/"
        raw_min = ann.get(knative + "min-scale", ann.get(knative + "minScale"))
        raw_max = ann.get(knative + "max-scale", ann.get(knative + "maxScale"))
        # Knative scales to zero by default (enable-scale-to-zero is on in its default config).
        g.minimum = _count(raw_min, 0, "min-scale")
        g.maximum = _count(raw_max, 0, "max-scale")
        if g.maximum == 0:
            g.maximum = Unknown("no max-scale: Knative sets no upper bound")
        g.desired = g.minimum
        g.scale_note = "Knative min-scale" if raw_min is not None else \
            "Knative default min-scale 0 (scale to zero)"
        g.workload = "inference"
    return groups


def api_group(doc: dict[str, Any]) -> str:
    """The API group of an object: `batch` for batch/v1, "" for the core v1 group."""
    api = str(doc.get("apiVersion", ""))
    return api.rsplit("/", 1)[0] if "/" in api else ""


@dataclass
class Context:
    """What a kind may need from the rest of the scan: ConfigMaps (env vars, KAITO's vLLM
    parameters) and objects other objects name (training runtimes, LLMInferenceService bases)."""

    config_maps: Any = None  # env.ConfigMaps
    named: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # chart resource profiles

    def add(self, doc: dict[str, Any]) -> None:
        meta = as_dict(doc.get("metadata"))
        name = scalar(meta.get("name"))
        if name:
            self.named[(str(doc.get("kind")), scalar(meta.get("namespace")) or "", name)] = doc

    def find(self, kind: str, namespace: str | None, name: Any) -> dict[str, Any] | None:
        """The object of that kind and name in the namespace, else the only one by that name."""
        wanted = scalar(name)
        if wanted is None:
            return None
        if (kind, namespace or "", wanted) in self.named:
            return self.named[(kind, namespace or "", wanted)]
        found = [d for (k, _, n), d in self.named.items() if k == kind and n == wanted]
        return found[0] if len(found) == 1 else None


Reader = Callable[[dict[str, Any], Context], list[PodGroup]]


def _plain(fn: Callable[[dict[str, Any]], list[PodGroup]]) -> Reader:
    return lambda doc, ctx: fn(doc)


# Readers the kind table (data/kinds.yaml) names: kinds whose semantics need code.
READERS: dict[str, Reader] = {
    "pod": _plain(_pod), "scaled": _plain(_scaled), "daemonset": _plain(_daemonset),
    "job": _plain(_job), "cronjob": _plain(_cronjob), "notebook": _plain(_notebook),
    "ray": _plain(_ray), "leaderworkerset": _plain(_leaderworkerset), "jobset": _plain(_jobset),
    "knative-service": _plain(_knative_service), "training-operator": _plain(_training_operator),
}
