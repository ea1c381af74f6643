"""Many kustomizations built by one builder run.

Starting the builder costs about 0.1 s of CPU (`kubectl kustomize` of an empty kustomization),
more than building a typical overlay once its CRDs are removed; a repository of 35 GPU overlays
spent 5 of its 6.4 CPU seconds starting builders. So the overlays of a scan are built in batches,
one builder run per core: each overlay is wrapped in a kustomization of its own that adds a name
prefix (two overlays' objects never share an id) and an annotation on every object (each output
document goes back to its overlay), and an umbrella kustomization includes the wrappers. Prefix
and annotation are random per batch and removed from the output, which is then byte for byte
what a build of the overlay alone prints (a test compares both).

A batch that does not build (one broken overlay, two overlays emitting the same Namespace, a
builder too old for inline transformers) is split in two and each half built again; small
batches are built one kustomization at a time, as before.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from gpulint.render import kustomize
from gpulint.render.helm import run, spent

Job = tuple[str, list[str]]  # a kustomization's root and every input file of its build
Result = tuple[str | None, str]  # the build's output, or None and why it failed
_SMALLEST_BATCH = 3  # below this a failed batch is built one kustomization at a time
_DOC = re.compile(r"(?m)^---[ \t]*\n")


def build_all(jobs: list[Job], argv: list[str], read: Callable[[str], str | None]) -> list[Result]:
    """Build each (root, input files): in one batch per core, each batch one builder run."""
    lanes = max(1, min(len(jobs), os.cpu_count() or 1))
    size = -(-len(jobs) // lanes)
    batches = [list(range(i, min(i + size, len(jobs)))) for i in range(0, len(jobs), size)]
    results: list[Result] = [(None, "not built")] * len(jobs)

    def lane(batch: list[int]) -> None:
        for i, result in zip(batch, _build_batch([jobs[i] for i in batch], argv, read),
                             strict=True):
            results[i] = result

    with ThreadPoolExecutor(len(batches) or 1) as pool:
        list(pool.map(lane, batches))
    return results


def _build_batch(jobs: list[Job], argv: list[str],
                 read: Callable[[str], str | None]) -> list[Result]:
    if len(jobs) < _SMALLEST_BATCH:
        return [build_one(job, argv, read) for job in jobs]
    outs, err = _umbrella(jobs, argv, read)
    if outs is not None:
        return [(out, "") for out in outs]
    if err == spent():
        return [(None, err)] * len(jobs)
    half = len(jobs) // 2
    return _build_batch(jobs[:half], argv, read) + _build_batch(jobs[half:], argv, read)


def build_one(job: Job, argv: list[str], read: Callable[[str], str | None]) -> Result:
    """One kustomization: from a copy without CRDs when that saves work, else (or when the copy
    does not build) from the tree itself."""
    root, files = job
    with tempfile.TemporaryDirectory(prefix="gpulint-kustomize-") as tmp:
        try:
            copy = kustomize.shadow(root, files, read, tmp)
        except OSError:
            copy = None
        if copy is not None:
            out, err = run([*argv, copy])
            if out is not None or err.startswith("took longer") or err == spent():
                return out, err  # the tree itself would take as long
    return run([*argv, root])


def _salt(texts: list[str]) -> str:
    """A name prefix stem found in no input, so removing it from the output removes only ours."""
    while True:
        salt = f"g{secrets.token_hex(4)}u"
        if not any(salt in t for t in texts):
            return salt


def _umbrella(jobs: list[Job], argv: list[str],
              read: Callable[[str], str | None]) -> tuple[list[str] | None, str]:
    """Every job's output from one builder run over wrappers of copies of their inputs."""
    files = sorted({f for _, fs in jobs for f in fs})
    texts = {f: read(f) or "" for f in files}
    salt = _salt(list(texts.values()))
    with tempfile.TemporaryDirectory(prefix="gpulint-kustomize-") as tmp:
        top = os.path.join(tmp, "umbrella")
        try:
            copies = kustomize.copy_inputs(texts, [r for r, _ in jobs], os.path.join(tmp, "tree"))
            for i, copy in enumerate(copies):
                wrapper = os.path.join(top, f"w{i}")
                os.makedirs(wrapper)
                with open(os.path.join(wrapper, "kustomization.yaml"), "w",
                          encoding="utf-8") as fh:
                    fh.write(_wrapper(os.path.relpath(copy, wrapper), salt, i))
            with open(os.path.join(top, "kustomization.yaml"), "w", encoding="utf-8") as fh:
                fh.write("resources:\n" + "".join(f"  - w{i}\n" for i in range(len(jobs))))
        except OSError as e:
            return None, str(e)
        out, err = run([*argv, top])
    if out is None:
        return None, err
    split = _split(out, salt, len(jobs))
    return (split, "") if split is not None else (None, "the batch's output was not understood")


def _wrapper(resource: str, salt: str, index: int) -> str:
    return (f"resources:\n  - {json.dumps(resource)}\n"
            f"namePrefix: {salt}{index}-\n"
            "transformers:\n"
            "  - |-\n"
            "    apiVersion: builtin\n"
            "    kind: AnnotationsTransformer\n"
            "    metadata:\n"
            f"      name: {salt}-mark\n"
            "    annotations:\n"
            f"      {salt}.gpulint/batch: \"{index}\"\n"
            "    fieldSpecs:\n"
            "      - path: metadata/annotations\n"
            "        create: true\n")


def _split(out: str, salt: str, count: int) -> list[str] | None:
    """Each wrapper's documents, marker annotation and name prefix removed; None when a document
    carries no marker (the builder did not apply the wrappers as expected)."""
    mark = re.compile(rf"^([ \t]+){salt}\.gpulint/batch: \"?(\d+)\"?[ \t]*\n", re.MULTILINE)
    prefix = re.compile(rf"{salt}\d+-")
    parts: list[list[str]] = [[] for _ in range(count)]
    for doc in _DOC.split(out):
        if not doc.strip():
            continue
        found = mark.search(doc)
        if found is None or int(found.group(2)) >= count:
            return None
        before, after = doc[:found.start()], doc[found.end():]
        head, _, last = before[:-1].rpartition("\n")
        if last == found.group(1)[:-2] + "annotations:" and not after.startswith(found.group(1)):
            before = head + "\n" if head else ""  # the marker was the only annotation
        parts[int(found.group(2))].append(prefix.sub("", before + after))
    return ["---\n".join(docs) for docs in parts]
