"""Terraform template files that ask for accelerators and that no evaluated code reads.

A root module often keeps several values templates (`gpu-llama.tpl`, `gpu-qwen.tpl`) and picks
one with a variable (`templatefile("${path.module}/${var.helm_config}", …)`); scanned with the
defaults, only the default's file is read and the others would vanish. Each `.tpl`/`.tftpl`
file under a Terraform module's directory that holds accelerator evidence, that no evaluated
`file()`/`templatefile()` read and that no other note names, is named at its evidence.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from gpulint.facts.terraform.string_evidence import text_evidence
from gpulint.files.text import read_text
from gpulint.load.evidence import EvidenceNote

SUFFIXES = (".tpl", ".tftpl")
MAX_TEMPLATES = 5_000  # template files looked at in one scan
_SKIP_DIRS = frozenset({"node_modules", "vendor", "__pycache__"})
CAUSE = "a Terraform template file no evaluated file() or templatefile() reads (a variable " \
    "may select it)"


def _in_chart(directory: str) -> bool:
    """Inside a Helm chart's templates/ (Go templates, read with their chart)."""
    parts = directory.split(os.sep)
    return any(p == "templates" and os.path.isfile(os.sep.join([*parts[:i], "Chart.yaml"]))
               for i, p in enumerate(parts))


def templates(roots: tuple[str, ...]) -> Iterator[str]:
    seen = 0
    for root in roots:
        for directory, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
            if _in_chart(directory):
                continue
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    seen += 1
                    if seen > MAX_TEMPLATES:
                        return
                    yield os.path.join(directory, name)


def terraform_dir(path: str, root: str, has_tf: dict[str, bool]) -> str | None:
    """The nearest directory above the file, up to the scan root, that holds Terraform."""
    directory = os.path.dirname(path)
    while True:
        if directory not in has_tf:
            try:
                has_tf[directory] = any(n.endswith((".tf", ".tf.json"))
                                        for n in os.listdir(directory))
            except OSError:
                has_tf[directory] = False
        if has_tf[directory]:
            return directory
        if os.path.realpath(directory) == os.path.realpath(root) or \
                os.path.dirname(directory) == directory:
            return None
        directory = os.path.dirname(directory)


def notes(loaded: Any, named: list[Any]) -> list[EvidenceNote]:
    """A note per template file with evidence that neither evaluated code nor `named` (the
    notes made so far) accounts for."""
    access = getattr(loaded, "files", None)
    if access is None:
        return []
    read = access.read_paths()
    noted = {os.path.realpath(n.path) for n in named}
    has_tf: dict[str, bool] = {}
    out = []
    for root in access.roots:
        for path in templates((root,)):
            real = os.path.realpath(path)
            module = None if real in read or real in noted else \
                terraform_dir(path, root, has_tf)
            if module is None:
                continue
            text, _ = read_text(path)
            if not text:
                continue
            hits = text_evidence(text, path)
            if not hits:
                continue
            shown, rel = os.path.relpath(path), os.path.relpath(path, module)
            line, first = min(hits, key=lambda h: h[0])
            more = f" and {len(hits) - 1} more" if len(hits) > 1 else ""
            chooser = _chooser(module, rel)
            picks = f", variable {chooser[0]} picks {chooser[1]} by default" if chooser else ""
            out.append(EvidenceNote(
                f"template {os.path.basename(path)}", shown, line,
                f"{first.describe()}{more} in {shown}{picks}: {CAUSE}; "
                + (f"pass --var {chooser[0]}={rel}" if chooser else
                   "set the variables that make Terraform read it (--var)")
                + " to evaluate it"))
    return out


def _chooser(module: str, rel: str) -> tuple[str, str] | None:
    """The root variable whose default names another template of the same directory and
    kind (`gpu_vllm_helm_config = "config/helm/gpu/gpu-llama.tpl"`): the one that selects."""
    from gpulint.terraform.expressions import Scope, evaluate
    from gpulint.terraform.parser import parse_hcl
    from gpulint.terraform.syntax import HclSyntaxError

    suffix = next(s for s in SUFFIXES if rel.endswith(s))
    for name in sorted(os.listdir(module)):
        text, _ = read_text(os.path.join(module, name)) if name.endswith(".tf") else (None, None)
        if not text or "variable" not in text:
            continue
        try:
            root = parse_hcl(text)
        except (HclSyntaxError, RecursionError):
            continue
        for block in root.children("variable"):
            attr = block.attributes.get("default")
            value = evaluate(attr.expr, Scope()) if attr is not None and block.labels else None
            if isinstance(value, str) and value.endswith(suffix) and os.path.dirname(
                    os.path.normpath(value)) == os.path.dirname(rel) and \
                    os.path.normpath(value) != rel:  # naming it, yet a condition reads another
                return block.labels[0], value
    return None
