"""Loading: every discovered file read once and parsed once (cached, on all cores when worth it),
plan JSON read, Terraform modules resolved with their variables, and the suppression comments of
the files read. The objects rendered from charts and kustomizations (render/, which runs first)
are added as they are, and the files rendering consumed are not parsed again.

`load(found, settings, rendered, cache)` is the stage's one entry point; it never raises on bad
input (a file that cannot be read or parsed is a diagnostic).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from gpulint import globs
from gpulint.files.json_input import load_json
from gpulint.model import Diagnostic, SourceFile

# The package's modules (source, cache, parallel…) are imported by workers and light commands:
# this module imports the heavy ones only when a scan loads.
if TYPE_CHECKING:
    from gpulint.config.settings import ScanSettings
    from gpulint.discover import Discovery
    from gpulint.load.cache import ParseCache
    from gpulint.load.evidence import EvidenceNote
    from gpulint.load.kubernetes import K8sObject
    from gpulint.load.plan import PlanInstance
    from gpulint.suppressions import Suppression
    from gpulint.terraform.loader import TerraformProject
    from gpulint.terraform.module import LoadResult

ReadText = Callable[[str], "tuple[str | None, Diagnostic | None]"]


class Rendered(Protocol):
    """What rendering hands to loading (render.templates.TemplatePlan)."""

    objects: list[K8sObject]
    diagnostics: list[Diagnostic]
    skip: set[str]  # files rendering consumed: not parsed one by one
    notes: list[Any]  # accelerator evidence rendering could not read (load.evidence)
    profiles: dict[str, dict[str, Any]]  # resource profiles charts define by name


@dataclass
class Loaded:
    plans: list[PlanInstance] = field(default_factory=list)  # from plan JSON files, in order
    kubernetes: list[K8sObject] = field(default_factory=list)
    # Terraform modules resolved (remote calls still unexpanded: recognising community
    # modules is fact building's business).
    terraform: LoadResult | None = None
    suppressions: list[Suppression] = field(default_factory=list)  # from comments
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[Any] = field(default_factory=list)  # evidence not read: "could not evaluate"
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # from chart values


def load(found: Discovery, settings: ScanSettings, rendered: Rendered,
         cache: ParseCache | None) -> Loaded:
    from gpulint import suppressions
    from gpulint.files.text import read_text
    from gpulint.load import parallel
    from gpulint.load.source import PARSED_KINDS, is_template_name, template_file_diagnostics
    from gpulint.terraform.loader import TerraformProject

    out = Loaded(diagnostics=list(found.diagnostics))

    def read(path: str) -> tuple[str | None, Diagnostic | None]:
        return read_text(path, settings.max_file_bytes)

    out.diagnostics.extend(rendered.diagnostics)
    out.kubernetes.extend(rendered.objects)
    out.notes.extend(rendered.notes)
    out.profiles.update(rendered.profiles)
    files = [sf for sf in found.files if sf.path not in rendered.skip]
    # Texts are kept for the suppression comments of Terraform files read later.
    texts: dict[str, str | None] = {}

    def parse_source(path: str) -> tuple[Any, list[Diagnostic]]:
        kind = "terraform-json" if path.endswith(".tf.json") else "terraform"
        outcome = parallel.parse_one(path, kind, settings.max_file_bytes, cache,
                                     settings.max_hcl_bytes)
        texts[path] = outcome.text
        out.notes.extend(outcome.notes)
        return outcome.terraform(), outcome.diagnostics()

    project = TerraformProject(read, parse_source, found.roots)
    outcomes = iter(parallel.parse_files([sf for sf in files if sf.kind in PARSED_KINDS],
                                         settings.max_file_bytes, settings.jobs, cache,
                                         settings.progress, settings.max_hcl_bytes))
    for sf in files:
        if sf.kind not in PARSED_KINDS:
            _read_json(sf.path, read, out)
            continue
        outcome = next(outcomes)
        texts[sf.path] = outcome.text
        out.notes.extend(outcome.notes)
        if sf.kind == "kubernetes":
            diags = outcome.diagnostics()
            if is_template_name(sf.path) and any(d.severity == "error" for d in diags):
                diags = template_file_diagnostics(sf.path, outcome.text or read(sf.path)[0],
                                                  diags)
            out.diagnostics.extend(diags)
            if outcome.text:
                out.suppressions += suppressions.from_text(sf.path, outcome.text)
            out.kubernetes.extend(outcome.objects())
        else:
            project.add_parsed(sf.path, outcome.terraform(), outcome.diagnostics())
    if found.scope.files is not None:
        _add_module_context(project, found.files)
    out.terraform = project.load(settings.inputs)
    # Var files no root owns are found by walking the scanned directories: the exclusions
    # apply to them too, and a scan of given files (pre-commit) reports on those files only.
    out.terraform.stray_var_files = [] if found.scope.files is not None else [
        (p, data) for p, data in out.terraform.stray_var_files
        if not (settings.exclude and globs.excluded(p, settings.exclude))]
    out.suppressions += _terraform_suppressions(
        project, lambda p: (texts[p], None) if p in texts else read(p))
    return out


def _read_json(path: str, read: ReadText, out: Loaded) -> None:
    """A .json file: a Terraform plan (`terraform show -json`) or Kubernetes manifests."""
    from gpulint.load import iac_formats

    text, diag = read(path)
    if diag:
        out.diagnostics.append(diag)
    if text is None:
        return
    planned = _plan_file(path, text, out.diagnostics)
    if planned is not None:
        out.plans.extend(planned)
    elif iac_formats.MARK.search(text) and (unread := _unread_json(path, text)) is not None:
        out.notes.extend(unread)  # CloudFormation in JSON: named, not read
    else:
        out.kubernetes.extend(_json_file(path, text, out.diagnostics))


def _unread_json(path: str, text: str) -> list[EvidenceNote] | None:
    """The named items of a JSON file in a format gpulint does not read; None for others."""
    from gpulint.load import iac_formats

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if iac_formats.kind_of(data) is None:
        return None

    def line_of(value: str) -> int | None:
        at = text.find(json.dumps(value))
        return text.count("\n", 0, at) + 1 if at >= 0 else None

    return iac_formats.notes(path, data, {}, line_of)


def _add_module_context(project: TerraformProject, files: list[SourceFile]) -> None:
    """Sibling files of each given Terraform file: variables, locals and providers live there."""
    given = {os.path.normpath(f.path) for f in files}
    for directory in sorted({os.path.dirname(f.path) for f in files
                             if f.kind in {"terraform", "terraform-json"}}):
        try:
            names = sorted(os.listdir(directory or "."))
        except OSError:
            continue
        for name in names:
            path = os.path.join(directory, name)
            if name.endswith((".tf", ".tf.json")) and os.path.normpath(path) not in given:
                project.add_file(path)


def _terraform_suppressions(project: TerraformProject, read: ReadText) -> list[Suppression]:
    from gpulint import suppressions

    out: list[Suppression] = []
    for files in project.dirs.values():
        for parsed in files:
            text, _ = read(parsed.path)
            if text is not None:
                out += suppressions.from_text(parsed.path, text)
    return out


def _plan_file(path: str, text: str,
               diagnostics: list[Diagnostic]) -> list[PlanInstance] | None:
    """The resource changes of a Terraform plan JSON, or None if the file is not one."""
    from gpulint.load import plan
    if '"resource_changes"' not in text and '"planned_values"' not in text:
        return None
    try:
        data = load_json(text)
    except (json.JSONDecodeError, RecursionError):  # _json_file reports it
        return None
    if not plan.is_plan(data):
        return None
    instances, diags = plan.load_plan(path, text, data)
    diagnostics.extend(diags)
    return instances


def _json_file(path: str, text: str, diagnostics: list[Diagnostic]) -> list[K8sObject]:
    from gpulint.load.kubernetes import is_manifest, load_documents, looks_like_kubernetes

    try:
        data = load_json(text)
    except RecursionError:
        diagnostics.append(Diagnostic(path, None, "JSON nested too deeply to read, skipped"))
        return []
    except json.JSONDecodeError as e:
        if looks_like_kubernetes(text):
            diagnostics.append(Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}"))
        return []
    if not is_manifest(data):
        return []
    objects, diags = load_documents(path, text)
    diagnostics.extend(diags)
    return objects
