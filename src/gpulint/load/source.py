"""One source file from bytes to a parse outcome, the unit that is cached and run in parallel.

The outcome (`Parsed`) holds no path: it depends on the file's bytes and kind only, so it can be
cached by content hash (as JSON data, cache_codec.py) and shipped from our own worker processes
as pickled bytes. `bind` attaches the path.
"""

from __future__ import annotations

import pickle
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gpulint.files.text import _Diag, decode
from gpulint.model import Diagnostic

# Python frames a parse may use on top of its caller's, whatever the caller's depth: files nested
# too deeply for this get the same "nesting too deep" diagnostic in a worker and in-process.
PARSE_STACK_FRAMES = 1000
PARSED_KINDS = frozenset({"terraform", "terraform-json", "kubernetes"})
# Brackets open at once in native-syntax HCL beyond which the tree conversion always runs out of
# those frames: such a file is refused before the parse, which is linear but slow on them
# (7.5 s of CPU for 30,000 levels in 180 KB, only to fail).
MAX_HCL_NESTING = 1_000
# A quoted string on one line (skipped: brackets there are text, however deep), or a bracket.
_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}()]')



@dataclass
class Parsed:
    """What a file parses to: a Terraform root block or Kubernetes documents, and diagnostics."""

    kind: str
    root: Any = None  # terraform.syntax.Block for Terraform files
    docs: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, manifest)
    diags: list[_Diag] = field(default_factory=list)
    # An outcome of this run's conditions (out of memory, a time limit), not of the bytes:
    # never cached. Whatever gives up on a file for such a reason must set it.
    transient: bool = False


@contextmanager
def _stack_headroom(frames: int) -> Iterator[None]:
    """Allow exactly `frames` more Python frames than the caller already uses."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def parse(kind: str, data: bytes) -> Parsed:
    """Parse a file's bytes. Bad input becomes diagnostics; this never raises."""
    text, problem = decode(data)
    if problem is not None:
        return Parsed(kind, diags=[problem])
    try:
        with _stack_headroom(PARSE_STACK_FRAMES):
            if kind == "kubernetes":
                return _parse_yaml(text)  # type: ignore[arg-type]
            return _parse_terraform(kind, text)  # type: ignore[arg-type]
    except RecursionError:
        return Parsed(kind, diags=[(None, "nesting too deep to parse, skipped", "error")])
    except MemoryError:
        return Parsed(kind, diags=[(None, "file too large to parse in memory, skipped", "error")],
                      transient=True)
    except Exception as e:  # one odd file must not stop the scan of the others
        return Parsed(kind, diags=[(None, f"internal error while parsing ({type(e).__name__}: "
                                          f"{e}); please report it", "error")])


def parse_to_bytes(kind: str, data: bytes) -> bytes:
    """`parse`, pickled: the form a worker returns and the cache stores."""
    parsed = parse(kind, data)
    try:
        with _stack_headroom(PARSE_STACK_FRAMES):
            return pickle.dumps(parsed, protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:
        too_deep = Parsed(kind, diags=[(None, "nesting too deep to parse, skipped", "error")])
        return pickle.dumps(too_deep, protocol=pickle.HIGHEST_PROTOCOL)


def _parse_terraform(kind: str, text: str) -> Parsed:
    from gpulint.terraform.parser import parse_hcl, parse_tf_json
    from gpulint.terraform.syntax import HclSyntaxError

    if kind == "terraform":
        deep = too_deep_line(text)
        if deep is not None:
            return Parsed(kind, diags=[(deep, "nesting too deep to parse, skipped", "error")])
    try:
        root = parse_tf_json(text) if kind == "terraform-json" else parse_hcl(text)
    except HclSyntaxError as e:
        return Parsed(kind, diags=[(e.line, f"Terraform parse error: {e}", "error")])
    return Parsed(kind, root=root)


def too_deep_line(text: str) -> int | None:
    """The line where more than MAX_HCL_NESTING brackets are open at once outside quoted
    strings, or None. Comments and heredocs are counted too: a file that parses is refused
    only if a thousand brackets there are left open, and an interpolation deep enough to fail
    is only parsed (slowly) to its diagnostic."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        token = m.group()
        if token[0] == '"':
            continue
        depth += 1 if token in "[{(" else -1
        if depth > MAX_HCL_NESTING:
            return text.count("\n", 0, m.start()) + 1
    return None


_TEMPLATE_ACTION = re.compile(r"\{\{-?\s*[.$A-Za-z/(]")
# Manifests kept as templates that a script fills before `kubectl apply` (`job.yaml-template`
# through envsubst, `pod.yaml.j2`, `training.template`): read as YAML when they parse, since
# their placeholders sit in values; named, never an error, when they do not.
_TEMPLATE_NAME = re.compile(r"\.ya?ml[-._](template|tmpl|tpl|in|j2|jinja2?|envsubst|subst)$|"
                            r"\.(template|tmpl)$", re.I)


def is_template_name(path: str) -> bool:
    """A file named as a manifest template (see _TEMPLATE_NAME)."""
    return _TEMPLATE_NAME.search(path) is not None


def template_file_diagnostics(path: str, text: str | None,
                              found: list[Diagnostic]) -> list[Diagnostic]:
    """A template-named file that is not valid YAML before it is filled in is skipped with a
    notice (a warning when it asks for accelerators), not a parse error that fails the scan."""
    errors = [d for d in found if d.severity == "error"]
    if not errors:
        return found
    from gpulint.load.evidence import first_line

    asks = first_line(text or "")
    gpus = f"; it asks for accelerators (line {asks}), which are not counted" if asks else ""
    note = Diagnostic(path, errors[0].line, "skipped a template file: not valid YAML until it "
                      f"is filled in ({errors[0].message}); render it and scan the output{gpus}",
                      "warning" if asks else "info")
    return [d for d in found if d.severity != "error"] + [note]


def templated_line(text: str) -> int | None:
    """Line of the first Go template action ({{ .Values.x }}): such a file is a template, not a
    manifest. None when there is none."""
    if "{{" not in text or "}}" not in text:
        return None
    m = _TEMPLATE_ACTION.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def unreadable_template_line(text: str) -> int | None:
    """Line of the first template action of text that is not valid YAML: only such text is an
    unrendered template. `{{ }}` inside a string scalar (a value a chart passes through `tpl`,
    an Argo Workflows parameter) is just a string, and the document is read as YAML."""
    line = templated_line(text)
    if line is None:
        return None
    from gpulint.load.kubernetes import load_documents

    _, problems = load_documents("", text)
    return line if problems else None


def _parse_yaml(text: str) -> Parsed:
    from gpulint.load.kubernetes import (
        load_documents,
        looks_like_kubernetes,
        without_crds,
        without_templated_documents,
    )

    if not looks_like_kubernetes(text):
        return Parsed("kubernetes")
    text = without_crds(text)
    skipped: list[tuple[int | None, str, str]] = []
    if unreadable_template_line(text) is not None:
        from gpulint.load.evidence import first_line

        # Skip the templated documents only: the plain ones of the same file are manifests.
        whole = text
        text, lines = without_templated_documents(text, unreadable_template_line)
        asks = first_line(whole)
        gpus = f"; it asks for accelerators (line {asks}), which are not counted" \
            if asks is not None and first_line(text) != asks else ""
        if not looks_like_kubernetes(text):
            return Parsed("kubernetes", diags=[(lines[0], "skipped a template: Helm/Go template "
                                                          "syntax ({{ }}); render it first (helm "
                                                          "template) or scan its chart "
                                                          f"directory{gpus}",
                                                "warning" if gpus else "info")])
        skipped = [(line, "skipped a template: this document uses Helm/Go template syntax "
                          "({{ }}); the file's other documents are scanned"
                          f"{gpus}", "warning" if gpus else "info")
                   for line in lines]
    objects, diags = load_documents("", text)
    return Parsed("kubernetes", docs=[(o.line, o.doc) for o in objects],
                  diags=skipped + [(d.line, d.message, d.severity) for d in diags])


def diagnostics(path: str, parsed: Parsed) -> list[Diagnostic]:
    return [Diagnostic(path, line, message, severity) for line, message, severity in parsed.diags]
