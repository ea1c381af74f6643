"""GPU workloads read from Helm values that could not be rendered.

A chart that cannot be rendered (no renderer, remote dependencies, a helmfile release of a remote
chart) still says in its values what it asks for. Each mapping that requests accelerators becomes
a pod-shaped object, read with its siblings exactly as a pod would be, so the same facts, rules
and prices apply:

- any mapping with `resources.limits`/`requests` naming an accelerator (NIM, KubeRay `head`,
  `worker` and `additionalWorkerGroups`, most serving charts), with `image`, `command`, `args`,
  `env`, `nodeSelector`, `tolerations`, `affinity` (the nearest enclosing ones when the mapping
  has none: charts share them), `replicaCount`/`replicas`, and `autoscaling` or
  `minReplicas`/`maxReplicas` as a HorizontalPodAutoscaler would set them;
- vLLM production-stack `servingEngineSpec.modelSpec[]` (`requestGPU`, `modelURL`,
  `vllmConfig`), rendered by that chart as `vllm serve <modelURL>`;
- JupyterHub `singleuser.profileList[]` (and `profile_options` choices) whose
  `kubespawner_override.extra_resource_limits` name an accelerator, and `singleuser.extraResource`:
  one notebook server per user; the chart's idle culler (`cull.enabled`, on by default) is the
  shutdown schedule;
- Karpenter NodePools written as chart values: a mapping with `nodePool.requirements` (the
  `karpenter-resources` chart of the EKS data add-ons: `name`, `nodePool.labels`, `taints`,
  `requirements`, `limits`), rendered by that chart as a `karpenter.sh/v1` NodePool;
- whole manifests embedded in values (the `raw` chart's `resources:`, `extraObjects:`): read as
  the objects they are.

Objects carry an address `HelmValues/<release>/<path>` and are reported at the line that set them.
"""

from __future__ import annotations

import re
from typing import Any

from gpulint.load.kubernetes import K8sObject, is_manifest
from gpulint.render.values_tree import Path, Values

VALUES_TYPE = "HelmValues"
# Cheap test before parsing: text that may ask for an accelerator.
MARKERS = ("nvidia.com/", "amd.com/gpu", "google.com/tpu", "aws.amazon.com/neuron", "requestGPU",
           "nodePool:", "kind: NodePool")
_ACCELERATOR = re.compile(r"^(nvidia\.com/(gpu(\.shared)?|mig-\d+g\.\d+gb)|amd\.com/gpu|"
                          r"google\.com/tpu|aws\.amazon\.com/neuron(device|core)?)$")
_POD_KEYS = ("nodeSelector", "tolerations", "affinity")
_MODEL_KEYS = ("modelName", "model_name", "modelId", "model_id", "modelURL")


def may_request(text: str) -> bool:
    return any(m in text for m in MARKERS)


def is_accelerator(key: str) -> bool:
    """A resource name that requests an accelerator (`nvidia.com/gpu`, `aws.amazon.com/neuron`)."""
    return _ACCELERATOR.match(key) is not None


def _accelerators(resources: Any) -> bool:
    if not isinstance(resources, dict):
        return False
    return any(isinstance(part, dict) and any(_ACCELERATOR.match(str(k)) for k in part)
               for part in (resources.get("limits"), resources.get("requests")))


def _dotted(path: Path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _image(value: Any) -> str | None:
    """`image: repo:tag` or `image: {repository, tag}` (most charts' convention)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("repository"), str):
        repo = value["repository"]
        if isinstance(value.get("registry"), str) and value["registry"]:
            repo = f"{value['registry']}/{repo}"
        tag = value.get("tag")
        return f"{repo}:{tag}" if tag not in (None, "") else repo
    return None


def _env(*values: Any) -> list[dict[str, Any]]:
    """Env as a list of {name, value}: charts write a list or a name → value mapping."""
    out: list[dict[str, Any]] = []
    for value in values:
        if isinstance(value, list):
            out += [e for e in value if isinstance(e, dict) and "name" in e]
        elif isinstance(value, dict):
            out += [{"name": str(k), "value": v if isinstance(v, dict) else str(v)}
                    if not isinstance(v, dict) else {"name": str(k), **v}
                    for k, v in value.items()]
    return out


def _inherited(tree: dict[str, Any], path: Path, key: str) -> Any:
    """`key` of the mapping at `path`, else of the nearest enclosing mapping that has it."""
    for n in range(len(path), -1, -1):
        node: Any = tree
        for p in path[:n]:
            node = node[p] if isinstance(node, (dict, list)) else None
        if isinstance(node, dict) and node.get(key) not in (None, "", {}, []):
            return node[key]
    return None


def _ray_autoscaling(tree: dict[str, Any]) -> bool:
    """KubeRay's chart: worker minReplicas/maxReplicas apply with the head's autoscaler only."""
    head = tree.get("head")
    return isinstance(head, dict) and head.get("enableInTreeAutoscaling") is True


class _Reader:
    def __init__(self, values: Values, release: str, namespace: str | None) -> None:
        self.values, self.release, self.namespace = values, release, namespace
        self.objects: list[K8sObject] = []
        self.covered: list[Path] = []  # paths read as objects (values_evidence.py)
        self.disabled: list[Path] = []  # mappings switched off with `enabled: false`

    def _emit(self, path: Path, kind: str, api: str, spec: dict[str, Any],
              labels: dict[str, str], scale: tuple[Any, Any] | None = None,
              annotations: dict[str, str] | None = None) -> None:
        file, line = self.values.locate(path)
        self.covered.append(path)
        name = _dotted(path)
        address = f"{VALUES_TYPE}/{self.release}" + (f"/{name}" if name else "")
        name = name or self.release
        meta: dict[str, Any] = {"name": name, "labels": labels}
        if annotations:
            meta["annotations"] = annotations
        if self.namespace:
            meta["namespace"] = self.namespace
        doc = {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec}
        self.objects.append(K8sObject(file, line, doc, address=address, type=VALUES_TYPE))
        if scale is not None:  # as the chart's HorizontalPodAutoscaler would set the replicas
            hpa = {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                   "metadata": {k: v for k, v in meta.items() if k != "labels"},
                   "spec": {"scaleTargetRef": {"kind": kind, "name": name},
                            "minReplicas": scale[0], "maxReplicas": scale[1]}}
            self.objects.append(K8sObject(file, line, hpa))

    def _pod(self, path: Path, container: dict[str, Any]) -> dict[str, Any]:
        pod: dict[str, Any] = {"containers": [container]}
        for key in _POD_KEYS:
            value = _inherited(self.values.tree, path, key)
            if value is not None:
                pod[key] = value
        return pod

    def generic(self, path: Path, node: dict[str, Any]) -> None:
        tree = self.values.tree
        container: dict[str, Any] = {"name": str(path[-1]) if path else self.release,
                                     "resources": node["resources"]}
        image = _image(node.get("image")) or _image(_inherited(tree, path, "image"))
        if image:
            container["image"] = image
        for key in ("command", "args"):
            if node.get(key) is not None:
                container[key] = node[key]
        env = _env(node.get("env"), node.get("extraEnv"), node.get("containerEnv"),
                   _inherited(tree, path, "containerEnv") if "containerEnv" not in node else None)
        if env:
            container["env"] = env
        labels = {}
        model = next((node[k] for k in _MODEL_KEYS if isinstance(node.get(k), str)), None)
        if model is None and isinstance(node.get("model"), dict):
            named = node["model"].get("name")
            model = named if isinstance(named, str) else None
        elif model is None and isinstance(node.get("model"), str):
            model = node["model"]
        if model:
            labels["gpulint.dev/model"] = model
        replicas = node.get("replicaCount", node.get("replicas", self._owner_replicas(path)))
        auto: dict[str, Any] = node["autoscaling"] if isinstance(node.get("autoscaling"),
                                                                   dict) else {}
        scale = None
        if auto.get("enabled") is True:
            low = auto.get("minReplicas", 1)
            scale = (low, auto.get("maxReplicas", low))
        elif ("minReplicas" in node or "maxReplicas" in node) and _ray_autoscaling(tree):
            scale = (node.get("minReplicas", replicas), node.get("maxReplicas", replicas))
        spec = {"replicas": replicas, "template": {"spec": self._pod(path, container)}}
        self._emit(path, "Deployment", "apps/v1", spec, labels, scale)

    def _owner_replicas(self, path: Path) -> Any:
        """Replicas of the mapping that owns a container-like one: `decode.replicas` for
        `decode.containers[0]`, `nodesets.gpu.replicas` for `nodesets.gpu.slurmd`."""
        owner = path[:-2] if len(path) >= 2 and isinstance(path[-1], int) else path[:-1]
        node: Any = self.values.tree
        for p in owner:
            node = node[p] if isinstance(node, (dict, list)) else None
        if owner and isinstance(node, dict) and not _accelerators(node.get("resources")):
            return node.get("replicaCount", node.get("replicas", 1))
        return 1

    def vllm_stack(self, path: Path, node: dict[str, Any]) -> None:
        """production-stack renders each modelSpec as a Deployment running `vllm serve`."""
        gpus = node.get("requestGPU")
        if gpus in (None, 0, "0"):
            return
        key = str(node.get("requestGPUType") or "nvidia.com/gpu")
        cfg: dict[str, Any] = node["vllmConfig"] if isinstance(node.get("vllmConfig"), dict) else {}
        command = ["vllm", "serve", str(node.get("modelURL", ""))]
        for field, flag in (("tensorParallelSize", "--tensor-parallel-size"),
                            ("pipelineParallelSize", "--pipeline-parallel-size"),
                            ("maxModelLen", "--max-model-len"), ("dtype", "--dtype")):
            if cfg.get(field) is not None:
                command += [flag, str(cfg[field])]
        extra = cfg.get("extraArgs")
        command += [str(a) for a in extra] if isinstance(extra, list) else []
        container: dict[str, Any] = {"name": "vllm", "command": command,
                                     "resources": {"limits": {key: gpus}},
                                     "env": _env(node.get("env"))}
        image = _image({"repository": node.get("repository"), "tag": node.get("tag")})
        if image:
            container["image"] = image
        pod = self._pod(path, container)
        terms = node.get("nodeSelectorTerms")
        if isinstance(terms, list) and "affinity" not in pod:
            pod["affinity"] = {"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}}}
        spec = {"replicas": node.get("replicaCount", 1), "template": {"spec": pod}}
        self._emit(path, "Deployment", "apps/v1", spec, {})

    def notebook(self, path: Path, override: dict[str, Any], limits: Any) -> None:
        """One JupyterHub user server (KubeSpawner's pod), per user who picks the profile."""
        container: dict[str, Any] = {"name": "notebook", "resources": {"limits": limits}}
        singleuser = self.values.tree.get("singleuser")
        base = singleuser if isinstance(singleuser, dict) else {}
        image = _image(override.get("image")) or _image(base.get("image"))
        if image:
            container["image"] = image
        pod: dict[str, Any] = {"containers": [container]}
        for ours, theirs in (("node_selector", "nodeSelector"), ("tolerations", "tolerations")):
            value = override.get(ours, base.get(theirs))
            if value:
                pod[theirs] = value
        cull = self.values.tree.get("cull")
        labels = {}
        if not (isinstance(cull, dict) and cull.get("enabled") is False):
            timeout = cull.get("timeout", 3600) if isinstance(cull, dict) else 3600
            labels["gpulint.dev/idle-shutdown"] = f"jupyterhub-idle-culler-{timeout}s"
        self._emit(path, "Notebook", "kubeflow.org/v1", {"template": {"spec": pod}}, labels,
                   annotations=self._profile_option(path))

    def _profile_option(self, path: Path) -> dict[str, str] | None:
        """A profileList entry (or one of its profile_options choices) is a server size each
        user may pick at spawn time, not a server that runs: the `gpulint.dev/option`
        annotation says so, with the name JupyterHub shows for it."""
        if "profileList" not in path:
            return None
        at = path.index("profileList")
        names = []
        node: Any = self.values.tree
        for i, key in enumerate(path):
            node = node.get(key) if isinstance(node, dict) else \
                node[key] if isinstance(node, list) and isinstance(key, int) \
                and key < len(node) else None
            if i > at and isinstance(node, dict):
                shown = node.get("display_name") or node.get("slug")
                if isinstance(shown, str) and shown.strip():
                    names.append(shown.strip())
        label = " / ".join(names) or _dotted(path)
        return {"gpulint.dev/option": f"JupyterHub profile {label}"}

    def node_pool(self, path: Path, node: dict[str, Any]) -> None:
        """The karpenter-resources chart: one NodePool named `name`, its node class alike."""
        pool: dict[str, Any] = node["nodePool"]
        name = str(node.get("name") or self.release)
        labels: dict[str, Any] = {"NodePool": name, "NodeGroupType": name}
        given = pool.get("labels")
        for item in given if isinstance(given, list) else [given]:  # the chart takes both
            labels.update(item if isinstance(item, dict) else {})
        template = {"metadata": {"labels": labels}, "spec": {
            "nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": name},
            "requirements": pool["requirements"],
            "taints": pool.get("taints") if isinstance(pool.get("taints"), list) else []}}
        spec: dict[str, Any] = {"template": template}
        for key in ("limits", "disruption", "weight"):
            if pool.get(key) is not None:
                spec[key] = pool[key]
        file, line = self.values.locate((*path, "nodePool"))
        self.covered.append(path)
        doc = {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": name},
               "spec": spec}
        self.objects.append(K8sObject(file, line, doc))

    def walk(self, node: Any, path: Path) -> None:
        if isinstance(node, list):
            for i, item in enumerate(node):
                self.walk(item, (*path, i))
            return
        if not isinstance(node, dict):
            return
        if path and is_manifest(node):  # a whole object in the values: the chart emits it
            self.objects.append(K8sObject(*self.values.locate(path), node))
            self.covered.append(path)
            return
        if path and node.get("enabled") is False:  # charts render nothing for it
            self.disabled.append(path)
            return
        pool = node.get("nodePool")
        if isinstance(pool, dict) and isinstance(pool.get("requirements"), list) \
                and pool.get("enabled") is not False:
            self.node_pool(path, node)
        if len(path) >= 2 and path[-3:-1] == ("servingEngineSpec", "modelSpec"):
            self.vllm_stack(path, node)
            return
        override = node.get("kubespawner_override")
        if isinstance(override, dict) and _accelerators(
                {"limits": override.get("extra_resource_limits"),
                 "requests": override.get("extra_resource_guarantees")}):
            limits = override.get("extra_resource_limits") or override.get(
                "extra_resource_guarantees")
            self.notebook(path, override, limits)
        if path == ("singleuser",) and _accelerators(node.get("extraResource")):
            self.notebook(path, {}, node["extraResource"].get("limits")
                          or node["extraResource"].get("requests"))
        if _accelerators(node.get("resources")):
            self.generic(path, node)
            return
        for key, value in node.items():
            if key != "kubespawner_override":
                self.walk(value, (*path, key))


def read(values: Values, release: str, namespace: str | None = None,
         under: Path = ()) -> list[K8sObject]:
    """Pod-shaped objects for every accelerator request in merged values (or in the part of
    them under a subchart's key)."""
    reader = _Reader(values, release, namespace)
    node: Any = values.tree
    for key in under:
        node = node.get(key) if isinstance(node, dict) else None
    reader.walk(node, under)
    return reader.objects


def count(objects: list[K8sObject]) -> int:
    """GPU requests among the objects (not the autoscalers that go with them)."""
    return sum(1 for o in objects if o.type == VALUES_TYPE)


def describe(objects: list[K8sObject]) -> str:
    """`2 GPU requests`, `1 GPU request and 1 NodePool`: what values were read as."""
    n = count(objects)
    out = f"{n} GPU request{'' if n == 1 else 's'}"
    kinds: dict[str, int] = {}
    for o in objects:
        if o.type != VALUES_TYPE and o.doc.get("kind") != "HorizontalPodAutoscaler":
            kinds[str(o.doc.get("kind"))] = kinds.get(str(o.doc.get("kind")), 0) + 1
    parts = [out] if n or not kinds else []
    parts += [f"{k} {kind}{'' if k == 1 else 's'}" for kind, k in sorted(kinds.items())]
    return ", ".join(parts)
