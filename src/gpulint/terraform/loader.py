"""From Terraform files to resource instances: parse each file once, group by module directory,
evaluate root modules, follow local module calls."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import replace

from gpulint.config.inputs import Inputs
from gpulint.model import Diagnostic
from gpulint.terraform import bounds, stray_var_files
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.files import FileAccess
from gpulint.terraform.module import LoadResult, iter_blocks, load_module, resolve_module_source
from gpulint.terraform.parser import parse_hcl, parse_tf_json
from gpulint.terraform.syntax import HclSyntaxError
from gpulint.terraform.variables import (
    ParseSource,
    VarFileSetting,
    loaded_files,
    root_variables,
    unloaded_settings,
)
from gpulint.terraform.views import ParsedFile

ReadText = Callable[[str], "tuple[str | None, Diagnostic | None]"]


def parse_file(path: str, text: str) -> tuple[ParsedFile | None, Diagnostic | None]:
    try:
        root = parse_tf_json(text) if path.endswith(".tf.json") else parse_hcl(text)
    except HclSyntaxError as e:
        return None, Diagnostic(path, e.line, f"Terraform parse error: {e}")
    except RecursionError:
        return None, Diagnostic(path, None, "Terraform parse error: nesting too deep")
    return ParsedFile(path, root), None


def _absolute(directory: str) -> str:
    """Absolute on both sides: the scanned paths may be relative or absolute."""
    return os.path.normpath(os.path.abspath(directory))


class TerraformProject:
    """All Terraform directories of a scan, parsed once and shared by module calls."""

    def __init__(self, read_text: ReadText, parse_source: ParseSource | None = None,
                 roots: tuple[str, ...] = ()) -> None:
        self.read_text = read_text
        self.roots = roots  # the scanned paths: file() reads nothing outside them
        self.parse_source = parse_source  # read + parse in one step (cached), when given
        self.dirs: dict[str, list[ParsedFile]] = {}
        self.diagnostics: list[Diagnostic] = []

    def add_parsed(self, path: str, parsed: ParsedFile | None, diags: list[Diagnostic]) -> None:
        """A file parsed elsewhere (in a worker process or taken from the cache)."""
        self.diagnostics.extend(diags)
        files = self.dirs.setdefault(os.path.dirname(path) or ".", [])
        if parsed:
            files.append(parsed)

    def add_file(self, path: str) -> None:
        if self.parse_source is not None:
            self.add_parsed(path, *self.parse_source(path))
            return
        text, diag = self.read_text(path)
        if diag:
            self.diagnostics.append(diag)
        directory = os.path.dirname(path) or "."
        self.dirs.setdefault(directory, [])
        if text is None:
            return
        parsed, diag = parse_file(path, text)
        if diag:
            self.diagnostics.append(diag)
        if parsed:
            self.dirs[directory].append(parsed)

    def parse_dir(self, directory: str) -> tuple[list[ParsedFile], list[Diagnostic]]:
        """Files of a module directory; ones outside the scanned paths are read on demand."""
        key = os.path.relpath(directory) if not os.path.relpath(directory).startswith("..") \
            else directory
        for candidate in (directory, key):
            if candidate in self.dirs:
                return self.dirs[candidate], []
        before = len(self.diagnostics)
        self.dirs[key] = []
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            names = []
        for n in names:
            if n.endswith((".tf", ".tf.json")):
                self.add_file(os.path.join(key, n))
        new = self.diagnostics[before:]
        return self.dirs[key], new

    def _calls(self) -> dict[str, set[str]]:
        """Local module calls between scanned directories: caller -> called, both absolute."""
        out: dict[str, set[str]] = {}
        for directory, files in self.dirs.items():
            targets = out.setdefault(_absolute(directory), set())
            for _, call in iter_blocks(files, "module"):
                if "source" not in call.attributes:
                    continue
                src = evaluate(call.attributes["source"].expr, Scope({}))
                target = resolve_module_source(directory, call.labels[0] if call.labels else "",
                                               src, "")
                if target:
                    targets.add(_absolute(target))
        return out

    def root_dirs(self) -> list[str]:
        """Directories evaluated as root modules: those no other directory calls; then, so a
        cycle of calls (a -> b -> a) does not lose its resources, the first directory of each
        group that no root reaches. A directory calling itself is not called by another."""
        calls = self._calls()
        called = {t for d, targets in calls.items() for t in targets - {d}}
        order = [d for d in sorted(self.dirs) if self.dirs[d]]
        roots = [d for d in order if _absolute(d) not in called]
        reached: set[str] = set()

        def reach(start: str) -> None:
            stack = [start]
            while stack:
                d = stack.pop()
                if d not in reached:
                    reached.add(d)
                    stack.extend(calls.get(d, ()))

        for d in roots:
            reach(_absolute(d))
        for d in order:
            if _absolute(d) not in reached:
                roots.append(d)
                reach(_absolute(d))
        return sorted(roots)

    def load(self, inputs: Inputs) -> LoadResult:
        result = LoadResult(files=FileAccess(self.roots, self.read_text))
        bounds.new_scan()
        declared: set[str] = set()
        for directory in self.root_dirs():
            files = self.dirs[directory]
            kept, kept_calls = len(result.resources), len(result.remote_calls)
            declared.update(b.labels[0] for f in files for b in f.root.blocks
                            if b.type == "variable" and b.labels)
            try:
                found = unloaded_settings(files, directory, loaded_files(directory, inputs),
                                          self.parse_source)
                variants: list[str | None] = list(_variants(found)) \
                    if inputs.var_file_variants else []
                for variant in variants or [None]:
                    values = root_variables(files, directory, inputs, result.diagnostics,
                                            self.parse_source, variant)
                    if not variants:  # what the files would set that nothing given sets
                        result.var_file_settings += [
                            replace(f, used=values[f.variable], given=True)
                            if f.variable in values else f for f in found]
                    before = (len(result.resources), len(result.remote_calls),
                              len(result.notes))
                    load_module(directory, files, values, {}, "", 0, self.parse_dir, result)
                    if variant is not None:
                        _mark(result, before, os.path.relpath(variant, directory))
            except RecursionError:
                # Expressions or locals chained too deeply to evaluate: lose this module only.
                del result.resources[kept:]
                del result.remote_calls[kept_calls:]
                result.diagnostics.append(Diagnostic(directory, None, "Terraform module not "
                                                     "evaluated: expressions nested too deeply"))
        result.diagnostics[:0] = self.diagnostics + _undeclared(inputs, declared)
        given = {os.path.abspath(p) for p in inputs.var_files}
        result.stray_var_files = [(p, data) for p, data in stray_var_files.find(
            self.roots, self.root_dirs(), self.parse_source) if os.path.abspath(p) not in given]
        return result


def _variants(found: list[VarFileSetting]) -> list[str]:
    """The var files scanned one by one (terraform.var_file_variants): each that sets a
    variable of the root."""
    return sorted({path for setting in found for path, _ in setting.files})


def _mark(result: LoadResult, before: tuple[int, int, int], variant: str) -> None:
    """What one var file's evaluation made is addressed `…@<var file>`: the same code is a
    cluster per file, and each is its own line of the bill."""
    resources, calls, notes = before
    for inst in result.resources[resources:]:
        inst.address = f"{inst.address}@{variant}"
    for call in result.remote_calls[calls:]:
        call.address = f"{call.address}@{variant}"
    for note in result.notes[notes:]:
        note.address = f"{note.address}@{variant}"


def _undeclared(inputs: Inputs, declared: set[str]) -> list[Diagnostic]:
    """A --var no root module declares is ignored, as Terraform ignores it with a warning: a
    misspelt name must not leave the variable at its default silently."""
    import difflib

    out = []
    for name in sorted(set(inputs.vars) - declared):
        near = difflib.get_close_matches(name, sorted(declared), n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        out.append(Diagnostic("<command line>", None, f"--var {name}: no root module declares a "
                              f"variable named {name!r}{hint}; the value is ignored", "warning"))
    return out
