"""Kustomizations: which to build, what each build reads, and builds cached by their inputs.

Only the kustomizations no other one in the scan includes are built (an overlay, or a base with
no overlay in the scan), so one Deployment in three environments is three resources, not four.
A build reads every file its kustomization refers to, recursively; it runs only when one of them
mentions an accelerator, a GPU instance type or a GPU node label, never when a reference is remote
(a build would fetch it) or leaves the scanned tree (absolute, or `..` past the scan's root: a
build would read it), and its output is cached by the content of all its inputs and the
builder's identity. CustomResourceDefinitions are dropped from the output before YAML parsing:
overlays re-emit megabytes of them and they declare no workload.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from gpulint.files import containment
from gpulint.files.safe_yaml import safe_load as safe_yaml
from gpulint.load.kubernetes import separators
from gpulint.render import kustomize_charts
from gpulint.render import values as values_reader

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_REMOTE = re.compile(r"^(https?://|git@|ssh://|github\.com/|gitlab\.com/|bitbucket\.org/)|\?ref=|"
                     r"//.+\?|\.git(/|$)")
# What a GPU workload or pool writes: accelerator resources, GPU node labels, GPU instance types.
_GPU_WORDS = ("gke-accelerator", "gke-tpu", "instance-gpu", "gpu.product",
              "kubernetes.azure.com/accelerator", "Standard_N", "standard_n")
_GPU_TYPE = re.compile(r"(?<![\w.-])(?:(?:p[2-6]|g[3-6]|gr6|inf[12]|trn[12]|dl1)[a-z]*\.\d*x?large|"
                       r"(?:a2|a3|a4|g2|g4|ct[3-6][a-z]*)-(?:high|mega|ultra|edge|standard)"
                       r"[a-z]*-\d+g?)(?![\w.-])")
_CRD = re.compile(r"^kind:[ \t]*[\"']?CustomResourceDefinition[\"']?[ \t]*$", re.MULTILINE)
# Keys of a kustomization that name files or directories it reads.
_LIST_KEYS = ("resources", "bases", "components", "crds", "patchesStrategicMerge", "transformers",
              "generators", "validators", "configurations", "openapi")
_ITEM_KEYS = ("patches", "patchesJson6902", "replacements")
_GENERATOR_KEYS = ("configMapGenerator", "secretGenerator")


@dataclass
class Kustomization:
    root: str
    file: str
    includes: list[str] = field(default_factory=list)  # kustomization directories it includes
    files: list[str] = field(default_factory=list)  # files it reads directly
    remote: str | None = None  # why a build is refused: a remote reference or one leaving the tree
    error: str | None = None


def find_file(root: str) -> str | None:
    return next((os.path.join(root, n) for n in KUSTOMIZATION_FILES
                 if os.path.isfile(os.path.join(root, n))), None)


def _references(doc: dict[str, Any]) -> list[str]:
    refs: list[str] = []
    for key in _LIST_KEYS:
        value = doc.get(key)
        refs += [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    for key in _ITEM_KEYS:
        for item in doc.get(key) or [] if isinstance(doc.get(key), list) else []:
            if isinstance(item, dict) and isinstance(item.get("path"), str):
                refs.append(item["path"])
            elif isinstance(item, str):
                refs.append(item)
    for key in _GENERATOR_KEYS:
        for gen in doc.get(key) or [] if isinstance(doc.get(key), list) else []:
            for part in ("files", "envs", "env"):
                value = gen.get(part) if isinstance(gen, dict) else None
                for v in value if isinstance(value, list) else [value] if value else []:
                    if isinstance(v, str):
                        refs.append(v.split("=", 1)[-1])
    return refs


def read_one(root: str, read: Callable[[str], str | None]) -> Kustomization:
    file = find_file(root) or os.path.join(root, KUSTOMIZATION_FILES[0])
    k = Kustomization(root, file, files=[file])
    try:
        doc = safe_yaml(read(file) or "")
    except yaml.YAMLError as e:
        k.error = f"kustomization is not valid YAML: {getattr(e, 'problem', None) or e}"
        return k
    if not isinstance(doc, dict):
        return k
    for ref in _references(doc):
        if _REMOTE.search(ref):
            k.remote = k.remote or f"refers to the remote {ref}, which a build would fetch"
            continue
        path = os.path.normpath(os.path.join(root, ref))
        if os.path.isabs(ref) or containment.escapes(path):
            k.remote = k.remote or f"refers to {ref}, outside the scanned tree, which a build " \
                "would read"
            continue
        if os.path.isdir(path):
            k.includes.append(path)
        elif os.path.isfile(path):
            k.files.append(path)
    k.files += kustomize_charts.inputs(file, read)  # charts it inflates, and their values
    return k


@dataclass
class Graph:
    known: set[str]  # absolute paths of the scan's files: nothing else is read
    nodes: dict[str, Kustomization] = field(default_factory=dict)  # by absolute root

    def closure(self, root: str, read: Callable[[str], str | None]) -> tuple[list[str], str | None,
                                                                              bool]:
        """Every file of the scan a build of `root` reads, why a build is refused, and
        whether the build also reads files outside the scan (then it is not cached)."""
        files: list[str] = []
        remote = None
        outside = False
        seen: set[str] = set()
        stack = [os.path.abspath(root)]
        while stack:
            here = stack.pop()
            if here in seen:
                continue
            seen.add(here)
            file = find_file(here)
            if file is None or os.path.abspath(file) not in self.known:
                outside = True
                continue
            node = self.nodes.get(here) or read_one(here, read)
            self.nodes[here] = node
            inside = [f for f in node.files if os.path.abspath(f) in self.known]
            outside = outside or len(inside) < len(node.files)
            files += inside
            remote = remote or node.remote
            stack += [os.path.abspath(p) for p in node.includes]
        return sorted(set(files)), remote, outside


def top_level(roots: list[str], graph: Graph, read: Callable[[str], str | None]) -> list[str]:
    """Kustomizations that no other kustomization in the scan includes."""
    included: set[str] = set()
    for root in roots:
        node = graph.nodes.setdefault(os.path.abspath(root), read_one(root, read))
        included.update(os.path.abspath(p) for p in node.includes)
    return [r for r in roots if os.path.abspath(r) not in included]


def text_mentions_gpu(text: str) -> bool:
    text = without_crds(text)  # CRDs are dropped from builds: what they mention does not count
    return values_reader.may_request(text) or any(w in text for w in _GPU_WORDS) or \
        _GPU_TYPE.search(text) is not None


def shadow(root: str, files: list[str], read: Callable[[str], str | None],
           into: str) -> str | None:
    """Copy a build's inputs under `into`, CustomResourceDefinitions removed (the builder spends
    most of its time on them and they are dropped anyway); the copy of `root`, or None when
    nothing would be saved."""
    texts = {f: read(f) or "" for f in files}
    if not any(_CRD.search(t) for t in texts.values()):
        return None
    return copy_inputs(texts, [root], into)[0]


def copy_inputs(texts: dict[str, str], roots: list[str], into: str) -> list[str]:
    """Write each input less its CRDs under `into`, at its place relative to the directory
    holding every input and root; the copy of each root."""
    common = os.path.commonpath([os.path.abspath(p) for p in [*roots, *texts]])
    for path, text in texts.items():
        target = os.path.join(into, os.path.relpath(os.path.abspath(path), common))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(without_crds(text))
    return [os.path.join(into, os.path.relpath(os.path.abspath(r), common)) for r in roots]


def builder() -> tuple[list[str], str] | None:
    """The build command's prefix and the builder's identity (path, size, mtime), or None."""
    tool = shutil.which("kustomize")
    argv = [tool, "build"] if tool else None
    if argv is None and shutil.which("kubectl"):
        argv = [str(shutil.which("kubectl")), "kustomize"]
    if argv is None:
        return None
    real = os.path.realpath(argv[0])
    try:
        st = os.stat(real)
        ident = f"{real} {st.st_size} {st.st_mtime_ns} {argv[1]}"
    except OSError:
        ident = real
    return argv, ident


def cache_key(root: str, files: list[str], ident: str, digest: Callable[[str], str]) -> bytes:
    """The hash keying a build: the builder, the root, and every input's content digest."""
    h = hashlib.sha256(f"{ident}\n{os.path.abspath(root)}\n".encode())
    for path in files:
        h.update(f"{os.path.abspath(path)}\0{digest(path)}\n".encode())
    return h.hexdigest().encode()


def content_digest(text: str | None) -> str:
    return hashlib.sha256((text or "").encode()).hexdigest()


def without_crds(out: str) -> str:
    """The build output less its CustomResourceDefinition documents."""
    if "CustomResourceDefinition" not in out:
        return out
    docs, start = [], 0
    for at, end in separators(out):
        if not out[at + 3:end].strip(" \t"):  # a `---` line and nothing else
            docs.append(out[start:at])
            start = end
    docs.append(out[start:])
    return "\n---\n".join(doc for doc in docs if not _CRD.search(doc))


def cached(cache: Any, key: bytes) -> str | None:
    if cache is None:
        return None
    value = cache.get(cache.key("kustomize-build", key))
    return value if isinstance(value, str) else None


def store(cache: Any, key: bytes, out: str) -> None:
    if cache is not None:
        cache.put(cache.key("kustomize-build", key), out)
