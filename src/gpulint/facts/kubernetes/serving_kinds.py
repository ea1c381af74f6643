"""Model-serving operators: KAITO (Workspace, InferenceSet, RAGEngine, MultiRoleInference),
KServe LLMInferenceService (with its LLMInferenceServiceConfig bases) and NVIDIA NIMService.

Each is read as its users write it: KAITO names a node type and a preset, KServe a model URI,
parallelism and pod templates, NIM a model image. docs/kubernetes.md lists the fields.
"""

from __future__ import annotations

from typing import Any

import yaml

from gpulint.facts.kubernetes.instance_pods import whole_node
from gpulint.facts.kubernetes.kaito_presets import model_of
from gpulint.facts.kubernetes.kinds import (
    Context,
    PodGroup,
    _count,
    _kserve,
    as_dict,
    as_list,
    dig,
    scalar,
)
from gpulint.facts.model_decl import (
    ModelDecl,
    from_command,
    model_from_image,
    model_uri_name,
    server_from_image,
)
from gpulint.files.safe_yaml import safe_load as safe_yaml
from gpulint.model import Unknown


def _meta(doc: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    meta = as_dict(doc.get("metadata"))
    return as_dict(meta.get("labels")), as_dict(meta.get("annotations"))


def _vllm_args(ctx: Context, namespace: str | None, name: Any) -> list[str]:
    """KAITO's `inference.config` ConfigMap: `inference_config.yaml` → its `vllm:` flags."""
    data = ctx.config_maps.get(namespace, name) if ctx.config_maps and name else None
    try:
        parsed = safe_yaml((data or {}).get("inference_config.yaml") or "")
    except yaml.YAMLError:
        return []
    args: list[str] = []
    for key, value in as_dict(as_dict(parsed).get("vllm")).items():
        if scalar(value) is not None:
            args += [f"--{key.replace('_', '-')}", str(value)]
    return args


def _kaito_groups(doc: dict[str, Any], body: dict[str, Any], ctx: Context, *, replicas: Any = 1,
                  suffix: str | None = None, instance_type: Any = None) -> list[PodGroup]:
    """One KAITO workspace body (`resource` + `inference` or `tuning`): `count` nodes of
    `instanceType`, every GPU of each node used by the preset's server."""
    resource = as_dict(body.get("resource"))
    inference, tuning = as_dict(body.get("inference")), as_dict(body.get("tuning"))
    work = inference or tuning
    ns = scalar(dig(doc, "metadata", "namespace"))
    nodes = _count(resource.get("count"), 1, "resource.count")
    labels, annotations = _meta(doc)
    template = dig(work, "template", "spec")
    if isinstance(template, dict):  # a custom pod template instead of a preset
        groups = [PodGroup(suffix, template, labels, annotations, desired=_times(replicas, nodes),
                           workload="inference" if inference else "training", certain=True)]
        return groups
    itype = instance_type if instance_type is not None else resource.get("instanceType")
    preset = scalar(dig(work, "preset", "name"))
    model = model_of(preset) or preset if preset else None
    pod, unknown = whole_node(itype, f"{doc.get('kind')} resource", {"name": "kaito"})
    decl = None
    if model and inference:
        args = _vllm_args(ctx, ns, inference.get("config"))
        # KAITO splits the model over every GPU it provisions: tensor parallelism over a
        # node's GPUs, pipeline parallelism over the nodes, unless the config sets them.
        per_node = next(iter(pod["containers"][0]["resources"]["limits"].values()))
        if unknown is None and "--tensor-parallel-size" not in args:
            args += ["--tensor-parallel-size", str(per_node)]
        if isinstance(nodes, int) and nodes > 1 and "--pipeline-parallel-size" not in args:
            args += ["--pipeline-parallel-size", str(nodes)]
        decl = from_command(["vllm", "serve", model, *args], {}, f"KAITO preset {preset}")
    elif model:
        method = str(tuning.get("method") or "lora").lower()
        decl = ModelDecl(model, f"KAITO tuning preset {preset}", purpose=method)
    group = PodGroup(suffix, pod, labels, annotations, desired=_times(replicas, nodes),
                     workload="inference" if inference else "training", certain=True,
                     model=decl, unknown_count=unknown, linkable=False)
    if not isinstance(nodes, Unknown) and nodes > 1:  # multi-node: one model over the nodes
        group.unit, group.unit_name = [(group.pod, nodes)], f"KAITO workspace of {nodes} nodes"
    return [group]


def _times(a: Any, b: Any) -> Any:
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return a if isinstance(a, Unknown) else b
    return a * b


def _workspace(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    # v1alpha1/v1beta1 keep resource/inference/tuning at the top level, not under spec.
    body = doc if "resource" in doc or "inference" in doc or "tuning" in doc \
        else as_dict(doc.get("spec"))
    return _kaito_groups(doc, body, ctx)


def _inference_set(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Each replica is a Workspace made from spec.template; KEDA may scale it (annotations)."""
    spec = as_dict(doc.get("spec"))
    replicas = _count(spec.get("replicas"), 1, "replicas")
    groups = _kaito_groups(doc, as_dict(spec.get("template")), ctx, replicas=replicas)
    _, annotations = _meta(doc)
    hi = annotations.get("scaledobject.kaito.sh/max-replicas")
    if hi is not None and annotations.get("scaledobject.kaito.sh/auto-provision") == "true":
        for g in groups:
            g.maximum = _count(hi, replicas, "scaledobject.kaito.sh/max-replicas")
            g.minimum, g.scale_note = replicas, "KAITO InferenceSet autoscaling"
    return groups


def _multi_role(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """Prefill and decode roles, each an InferenceSet of `replicas` on `instanceType`."""
    spec = as_dict(doc.get("spec"))
    out: list[PodGroup] = []
    for role in as_list(spec.get("roles")):
        if not isinstance(role, dict):
            continue
        body = {"inference": {**as_dict(spec.get("inference")), "config": role.get("config")}}
        out += _kaito_groups(doc, body, ctx, replicas=_count(role.get("replicas"), 1, "replicas"),
                             suffix=str(role.get("name", "role")),
                             instance_type=role.get("instanceType"))
    return out


def _rag_engine(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """The embedding model runs on `compute.instanceType`; a CPU node type is not a GPU."""
    spec = as_dict(doc.get("spec"))
    itype = dig(spec, "compute", "instanceType")
    pod, unknown = whole_node(itype, "RAGEngine compute", {"name": "embedding"})
    if unknown is not None and isinstance(itype, str):
        return []  # a node type without accelerators in the catalog: embeddings on CPU
    labels, annotations = _meta(doc)
    model = scalar(dig(spec, "embedding", "local", "modelID"))
    decl = ModelDecl(model, "RAGEngine embedding.local.modelID") if model else None
    return [PodGroup(None, pod, labels, annotations, workload="inference", certain=True,
                     model=decl, unknown_count=unknown, linkable=False)]


# --- KServe LLMInferenceService -------------------------------------------------------------

def _merged(base: Any, over: Any) -> Any:
    """KServe merges baseRefs in order, then the service's own spec: maps merge, the rest is
    replaced by the later value."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = _merged(base.get(k), v) if k in base else v
        return out
    return over


def _llm_spec(doc: dict[str, Any], ctx: Context) -> tuple[dict[str, Any], list[str]]:
    """The effective spec and the names of bases not in the scan."""
    ns = scalar(dig(doc, "metadata", "namespace"))
    spec: dict[str, Any] = {}
    missing: list[str] = []
    for ref in as_list(dig(doc, "spec", "baseRefs")):
        name = scalar(as_dict(ref).get("name"))
        base = ctx.find("LLMInferenceServiceConfig", ns, name) if name else None
        if base is None:
            missing.append(str(name))
        else:
            spec = _merged(spec, as_dict(base.get("spec")))
    return _merged(spec, as_dict(doc.get("spec"))), missing


def _llm_model(spec: dict[str, Any]) -> ModelDecl | None:
    uri, name = scalar(dig(spec, "model", "uri")), scalar(dig(spec, "model", "name"))
    if uri and uri.startswith("hf://"):
        model, where = uri[len("hf://"):], "spec.model.uri"
    elif name:
        model, where = name, "spec.model.name"
    elif uri:
        model, where = uri, "spec.model.uri"
    else:
        return None
    par = as_dict(spec.get("parallelism"))
    tp, pp, dp = (_count(par.get(k), None, k) for k in ("tensor", "pipeline", "data"))
    tp, pp, dp = (n if isinstance(n, int) and n > 0 else None for n in (tp, pp, dp))
    if par.get("expert") is True and dp:
        # Expert parallelism spreads one copy's experts over every data-parallel rank.
        tp, dp = (tp or 1) * dp, None
    return ModelDecl(model, f"LLMInferenceService {where}", server="vllm", tensor_parallel=tp,
                     pipeline_parallel=pp, data_parallel=dp)


def _pods_per_replica(par: dict[str, Any]) -> Any:
    """Pods of one multi-node replica (a leader and its workers): data ÷ dataLocal ranks, else
    one pod per pipeline stage."""
    data, local = (_count(par.get(k), None, k) for k in ("data", "dataLocal"))
    if isinstance(data, int) and isinstance(local, int) and local > 0:
        return max(1, data // local)
    pipeline = _count(par.get("pipeline"), None, "pipeline")
    if isinstance(pipeline, int) and pipeline > 0:
        return pipeline
    return Unknown("a worker pool without parallelism.data/dataLocal or pipeline: the pods of "
                   "each replica are unknown; set spec.parallelism")


def _llm_role(doc: dict[str, Any], spec: dict[str, Any], prefix: str,
              model: ModelDecl | None) -> list[PodGroup]:
    labels, annotations = _meta(doc)
    replicas = _count(spec.get("replicas"), 1, "replicas")
    scaling = as_dict(spec.get("scaling"))
    kw: dict[str, Any] = {"desired": replicas}
    if "minReplicas" in scaling or "maxReplicas" in scaling:
        lo = _count(scaling.get("minReplicas"), 1, "minReplicas")
        if dig(scaling, "keda", "idleReplicaCount") == 0:
            lo = 0  # KEDA scales an idle service to zero
        kw = {"desired": lo, "minimum": lo, "scale_note": "LLMInferenceService scaling",
              "maximum": _count(scaling.get("maxReplicas"), lo, "maxReplicas")}
    main = as_dict(spec.get("template"))
    worker = spec.get("worker")
    groups = [PodGroup(prefix or None, main, labels, annotations, workload="inference",
                       certain=True, model=model, **kw)] if main else []
    if isinstance(worker, dict):
        size = _pods_per_replica(as_dict(spec.get("parallelism")))
        wkw = dict(kw)
        for key in ("desired", "minimum", "maximum"):
            if key in wkw:
                wkw[key] = _times(wkw[key], size - 1 if isinstance(size, int) else size)
        groups.append(PodGroup("worker" if not prefix else f"{prefix}-worker",
                               worker, labels, annotations, workload="inference", certain=True,
                               **wkw))
        if isinstance(size, int):
            unit = [(main, 1), (worker, size - 1)] if main else [(worker, size)]
            for g in groups:
                g.unit, g.unit_name = [(p, n) for p, n in unit if n], \
                    f"LLMInferenceService replica of {size} pods"
    return groups


def _llm_inference_service(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    spec, missing = _llm_spec(doc, ctx)
    model = _llm_model(spec)
    groups = _llm_role(doc, spec, "", model)
    prefill = spec.get("prefill")
    if isinstance(prefill, dict):  # disaggregated serving: a prefill pool of its own
        groups += _llm_role(doc, {"parallelism": spec.get("parallelism"), **prefill}, "prefill",
                            model)
    if missing:
        why = Unknown(f"baseRefs {', '.join(missing)} not in the scan: the pod template may come "
                      "from them; scan the LLMInferenceServiceConfig objects too")
        for g in groups:
            if not _has_accelerator(g.pod):
                g.unknown_count = why
        if not groups:
            pod = {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": 1}}}]}
            labels, annotations = _meta(doc)
            groups = [PodGroup(None, pod, labels, annotations, workload="inference",
                               certain=True, model=model, unknown_count=why)]
    return groups


def _has_accelerator(pod: dict[str, Any]) -> bool:
    from gpulint.facts.kubernetes.accelerators import read
    count = read(pod).count
    return isinstance(count, Unknown) or count > 0


# --- NVIDIA NIM Operator ----------------------------------------------------------------------

def _nim_model(spec: dict[str, Any]) -> ModelDecl | None:
    """The model of a NIM is its image (`nvcr.io/nim/meta/llama-3.1-8b-instruct`), or for the
    LLM-agnostic NIM its NIM_MODEL_NAME / NIM_MODEL_PATH env var (model_decl)."""
    env = {str(e.get("name")): e.get("value") for e in as_list(spec.get("env"))
           if isinstance(e, dict) and scalar(e.get("value")) is not None}
    for var in ("NIM_MODEL_NAME", "NIM_MODEL_PATH"):
        named = scalar(env.get(var))
        if named:
            return ModelDecl(model_uri_name(named), f"NIMService env {var}")
    repo = scalar(dig(spec, "image", "repository"))
    named = model_from_image(repo)
    if named:
        return ModelDecl(named, "NIMService image.repository", server=server_from_image(repo))
    return None


def _nim_service(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    spec = as_dict(doc.get("spec"))
    labels, annotations = _meta(doc)
    resources = as_dict(spec.get("resources"))
    container = {"name": "nim", "image": scalar(dig(spec, "image", "repository")),
                 "resources": resources}
    pod: dict[str, Any] = {"containers": [container]}
    pod.update({k: spec[k] for k in ("nodeSelector", "tolerations", "affinity") if k in spec})
    unknown = None
    if not _has_accelerator(pod):
        pod["containers"] = [{**container, "resources": {"limits": {"nvidia.com/gpu": 1}}}]
        unknown = Unknown("NIMService sets no GPU resources: the operator picks them from the "
                          "model profile; set spec.resources.limits")
    replicas = _count(spec.get("replicas"), 1, "replicas")
    kw: dict[str, Any] = {"desired": replicas}
    hpa = as_dict(dig(spec, "scale", "hpa"))
    if dig(spec, "scale", "enabled") is True and hpa:
        lo = _count(hpa.get("minReplicas"), 1, "minReplicas")
        kw = {"desired": lo, "minimum": lo, "scale_note": "NIMService scale.hpa",
              "maximum": _count(hpa.get("maxReplicas"), lo, "maxReplicas")}
    # multiNode: each replica is a LeaderWorkerSet group of one pod per pipeline stage.
    stages = _count(dig(spec, "multiNode", "parallelism", "pipeline"), 1,
                    "multiNode.parallelism.pipeline")
    if isinstance(stages, int) and stages > 1:
        kw = {k: _times(v, stages) if k in ("desired", "minimum", "maximum") else v
              for k, v in kw.items()}
    group = PodGroup(None, pod, {**labels, **as_dict(spec.get("labels"))},
                     {**annotations, **as_dict(spec.get("annotations"))}, workload="inference",
                     certain=True, model=_nim_model(spec), unknown_count=unknown, **kw)
    if isinstance(stages, int) and stages > 1:
        group.unit = [(group.pod, stages)]
        group.unit_name = f"NIM multi-node group of {stages} pods"
    return [group]


# --- KServe InferenceService, multi-node ------------------------------------------------------

def _inference_service(doc: dict[str, Any], ctx: Context) -> list[PodGroup]:
    """The predictor, plus `predictor.workerSpec` (multi-node vLLM): each replica is a head
    and pipelineParallelSize − 1 workers of tensorParallelSize GPUs (KServe's defaults 1, 1)."""
    groups = _kserve(doc)
    spec = as_dict(dig(doc, "spec", "predictor", "workerSpec"))
    if not groups or "workerSpec" not in as_dict(dig(doc, "spec", "predictor")):
        return groups
    tp = _count(spec.get("tensorParallelSize"), 1, "tensorParallelSize")
    pp = _count(spec.get("pipelineParallelSize"), 1, "pipelineParallelSize")
    head = groups[0]
    if not isinstance(tp, int) or not isinstance(pp, int) or pp < 1:
        head.unknown_count = tp if isinstance(tp, Unknown) else \
            pp if isinstance(pp, Unknown) else Unknown("pipelineParallelSize must be at least 1")
        return groups
    gpus = {"limits": {"nvidia.com/gpu": tp}}
    for c in head.pod["containers"][:1]:
        if not _has_accelerator({"containers": [c]}):
            c["resources"] = gpus  # KServe gives the head tensorParallelSize GPUs
        for flag, n in (("--tensor-parallel-size", tp), ("--pipeline-parallel-size", pp)):
            if flag not in c["args"]:
                c["args"] = [*c["args"], flag, str(n)]
    containers = [c for c in as_list(spec.get("containers")) if isinstance(c, dict)]
    worker_pod = {**{k: v for k, v in spec.items() if k not in ("containers",)},
                  "containers": containers or [{"name": "worker-container"}]}
    if not _has_accelerator(worker_pod):
        worker_pod["containers"][0] = {**worker_pod["containers"][0], "resources": gpus}
    for key in ("nodeSelector", "tolerations", "affinity"):
        if key in head.pod and key not in worker_pod:
            worker_pod[key] = head.pod[key]
    if pp > 1:
        groups.append(PodGroup("worker", worker_pod, head.labels, head.annotations,
                               desired=_times(head.desired, pp - 1), workload="inference",
                               certain=True))
    unit = [(head.pod, 1), (worker_pod, pp - 1)] if pp > 1 else [(head.pod, 1)]
    for g in groups:
        g.unit, g.unit_name = [(p, n) for p, n in unit if n], \
            f"InferenceService replica of {pp} pods"
    return groups



# Readers the kind table (data/kinds.yaml) names.
READERS = {"kaito-workspace": _workspace, "kaito-inference-set": _inference_set,
           "kaito-multi-role": _multi_role, "kaito-rag-engine": _rag_engine,
           "kserve-llm-inference-service": _llm_inference_service, "nim-service": _nim_service,
           "kserve-inference-service": _inference_service}
