"""Find the files to scan, classify each as Terraform, Kubernetes or neither, drop the excluded
ones, and decide what the report covers (everything, or only the files pre-commit gave)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from gpulint import globs
from gpulint.config.settings import ScanSettings
from gpulint.files import containment
from gpulint.load.source import is_template_name
from gpulint.model import Diagnostic, SourceFile
from gpulint.render.helmfile_names import is_template as _helmfile_template

SKIP_DIRS = frozenset({
    ".git", ".hg", ".svn", ".terraform", ".terragrunt-cache", "node_modules", "__pycache__",
    ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache", ".idea", ".vscode", "vendor",
})
YAML_EXTS = (".yaml", ".yml")


@dataclass(frozen=True)
class ReportScope:
    """The files the report covers: None for everything scanned, else absolute paths (the form
    a path was given in, relative or absolute, differs from the shown one)."""

    files: frozenset[str] | None = None

    def covers(self, path: str) -> bool:
        return self.files is None or os.path.abspath(path) in self.files


@dataclass
class Discovery:
    files: list[SourceFile]
    diagnostics: list[Diagnostic]
    scope: ReportScope = field(default_factory=ReportScope)
    # The scanned paths as directories (a file stands for its directory): Terraform's file()
    # reads nothing outside them.
    roots: tuple[str, ...] = ()


def classify(path: str) -> str | None:
    name = os.path.basename(path)
    if name.endswith(".tf"):
        return "terraform"
    if name.endswith(".tf.json"):
        return "terraform-json"
    if name.endswith(YAML_EXTS) or _helmfile_template(path):
        return "kubernetes"  # a helmfile is read with the charts (render/templates.py)
    if is_template_name(name):
        return "kubernetes"  # a manifest template, read if it parses (load/source.py)
    if name.endswith(".json") and not name.endswith(".tfvars.json"):
        return "json"  # a Kubernetes manifest or a Terraform plan; decided by content
    return None


def _display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _display_in(rel_dir: str, name: str, path: str) -> str:
    """`_display(path)` for the file `name` of a directory whose relative path is `rel_dir`:
    one relpath call per directory instead of one per file (relpath asks for the working
    directory each time)."""
    rel = name if rel_dir == "." else os.path.join(rel_dir, name)
    return path if rel.startswith("..") else rel


def discover(paths: list[str], settings: ScanSettings | None = None) -> Discovery:
    """The files under ``paths`` less the excluded ones, and the report's scope."""
    settings = settings or ScanSettings()
    paths, scope = _given_files(paths) if settings.report_given_files else (paths, ReportScope())
    found = _walk(paths)
    if settings.exclude:
        found.files = [f for f in found.files if not globs.excluded(f.path, settings.exclude)]
    if settings.own_files:  # the configuration and the baseline are not infrastructure
        own = set(settings.own_files)
        found.files = [f for f in found.files if os.path.abspath(f.path) not in own]
    found.scope = scope
    found.roots = tuple(os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".")
                        for p in (paths or ["."]))
    return found


def _given_files(paths: list[str]) -> tuple[list[str], ReportScope]:
    """When only files are given (pre-commit), the report covers those files alone; a changed
    .tfvars file stands for the Terraform files of its directory."""
    if not paths or not all(os.path.isfile(p) for p in paths):
        return paths, ReportScope()
    out: list[str] = []
    for p in paths:
        if p.endswith((".tfvars", ".tfvars.json")):
            directory = os.path.dirname(p) or "."
            out += [os.path.join(os.path.dirname(p), n) for n in sorted(os.listdir(directory))
                    if n.endswith((".tf", ".tf.json"))]
        else:
            out.append(p)
    return out, ReportScope(frozenset(os.path.abspath(p) for p in out))


def _utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # bytes that are not UTF-8, kept by Python as surrogates
        return False
    return True


def _printable(path: str) -> str:
    """`path` with the bytes that are not UTF-8 written as \\xNN."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _walk(paths: list[str]) -> Discovery:
    """Walk the given paths in a stable order; a missing path is a diagnostic, not a crash."""
    files: list[SourceFile] = []
    diags: list[Diagnostic] = []
    seen: set[object] = set()

    def add(path: str, explicit: bool, shown: str | None = None) -> None:
        kind = classify(path)
        if kind is None:
            return
        if not _utf8(path):
            # Reports are UTF-8 (JSON, SARIF, PR comments): such a name cannot be written.
            diags.append(Diagnostic(_printable(shown or path), None, "file name is not valid "
                                    "UTF-8, skipped (rename the file)", "warning"))
            return
        # The same file reached twice (overlapping paths, symlinks) is scanned once. One stat
        # call: realpath would lstat every component of every path.
        try:
            st = os.stat(path)
            # A hard link is its own file in its own directory (module): keep its path.
            real: object = (st.st_dev, st.st_ino) if st.st_nlink == 1 else os.path.realpath(path)
        except OSError:
            real = os.path.realpath(path)  # dangling link: reported when read
        if real in seen:
            return
        seen.add(real)
        files.append(SourceFile(shown if shown is not None else _display(path), kind))

    for root in paths:
        if os.path.isfile(root):
            add(root, True)
            continue
        if not os.path.isdir(root):
            diags.append(Diagnostic(root, None, "no such file or directory"))
            continue
        visited: set[tuple[int, int]] = set()
        def unreadable(e: OSError, root: str = root) -> None:
            diags.append(Diagnostic(_printable(_display(str(e.filename or root))), None,
                                    f"cannot read directory: {e.strerror or e}, skipped",
                                    "warning"))

        for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable, followlinks=True):
            st = os.stat(dirpath)
            if (st.st_dev, st.st_ino) in visited:  # a symlink loop
                dirnames[:] = []
                diags.append(Diagnostic(_display(dirpath), None,
                                        "symbolic link loop: directory already visited, skipped",
                                        "warning"))
                continue
            visited.add((st.st_dev, st.st_ino))
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for d in [d for d in dirnames if containment.escapes(os.path.join(dirpath, d))]:
                dirnames.remove(d)
                diags.append(Diagnostic(_display(os.path.join(dirpath, d)), None,
                                        containment.OUTSIDE, "warning"))
            rel_dir = os.path.relpath(dirpath)
            for name in sorted(filenames):
                path = os.path.join(dirpath, name)
                add(path, False, _display_in(rel_dir, name, path))
    return Discovery(files, diags)
