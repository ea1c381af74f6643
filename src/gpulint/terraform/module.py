"""Load Terraform modules: count/for_each, provider blocks in scope and module calls.

A module is a directory. Its resources are expanded into instances with Terraform addresses
(`module.pool.TYPE.NAME[0]`), each carrying the scope its expressions evaluate in. Local
and downloaded module calls are followed; other calls (registry or Git sources) are returned
as `RemoteCall` records for the facts layer to recognise or report.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gpulint.files import containment
from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.expansion import address_suffix, instance_keys
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.namespace import LazyOutputs, Module
from gpulint.terraform.syntax import Block, GetAttr, ObjectExpr, Var
from gpulint.terraform.values import module_refs
from gpulint.terraform.views import (
    BlockView,
    ParsedFile,
    Peers,
    ProviderBlock,
    ResourceInstance,
)

MAX_MODULE_DEPTH = 16
# Bound on expansion, so modules fanning out at every level cannot exhaust memory: resource
# instances in one scan (instances per resource or call: expansion.MAX_INSTANCES).
MAX_TOTAL_INSTANCES = 200_000
# Module instances in one scan (each costs far more than a resource instance: about 150 µs to
# set up, so this many take a few seconds); they also count against MAX_TOTAL_INSTANCES.
MAX_MODULE_INSTANCES = 20_000

# Arguments of a module call that are Terraform's own, not the module's inputs.
_CALL_META = {"source", "version", "count", "for_each", "providers", "depends_on"}

ParseDir = Callable[[str], "tuple[list[ParsedFile], list[Diagnostic]]"]


@dataclass
class ModuleCallNote:
    """A module call gpulint could not follow (registry or remote source)."""

    address: str
    path: str
    line: int
    reason: str


@dataclass
class RemoteCall:
    """A call to a module that is neither local nor downloaded (a registry or Git source).
    Its inputs are evaluated on demand, per instance of the call."""

    address: str  # module.NAME, under the calling module's address
    path: str
    line: int
    source: Any  # str, Unknown or None, as evaluated
    block: Block
    # (instance key such as `[0]` or "", scope) per instance, or why they are unknown.
    instances: list[tuple[str, Scope]] | Unknown
    providers: dict[str, ProviderBlock]  # as the called module would see them
    module_address: str  # of the calling module
    # Where the call came in the load, as (number of resources, number of notes) before it:
    # what it expands to is inserted there, so the order is the order of the code.
    position: tuple[int, int] = (0, 0)
    call_paths: tuple[str, ...] = ()  # files of the calls above it, innermost first

    def inputs(self, scope: Scope) -> dict[str, Any]:
        return {k: evaluate(a.expr, scope) for k, a in self.block.attributes.items()
                if k not in _CALL_META}


@dataclass
class SwitchedOff:
    """A resource or module call that `count`/`for_each` expands into no instance (`count =
    var.enable_vllm ? 1 : 0` with the default false): the facts layer looks in its arguments
    and the files they read for accelerators, so a GPU workload switched off by default is
    named, not dropped. (A data source creates nothing; one a resource reads is followed.)"""

    address: str
    path: str
    block: Block
    scope: Scope  # the module's scope: its variables, locals and files
    templates: dict[str, Block]  # the module's `data "template_file"` blocks, by name
    module_address: str  # "" for a root module
    given: frozenset[str]  # the module's variables given a value (the others: defaults)
    module_files: tuple[str, ...] = ()  # a local module call's: the files of its module


def _switched_off(address: str, path: str, block: Block, module: Module,
                  module_files: tuple[str, ...] = ()) -> SwitchedOff:
    return SwitchedOff(address, path, block, module.scope,
                       module.data_decls.get("template_file", {}), module.address,
                       module.given_variables(), module_files)


@dataclass
class LoadResult:
    resources: list[ResourceInstance] = field(default_factory=list)
    notes: list[ModuleCallNote] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    remote_calls: list[RemoteCall] = field(default_factory=list)
    truncated: bool = False  # MAX_TOTAL_INSTANCES was reached
    module_instances: int = 0  # counted against MAX_TOTAL_INSTANCES with the resources
    cycles: set[tuple[str, int]] = field(default_factory=set)  # module calls reported as cycles
    files: Any = None  # a files.FileAccess: what file() may read
    # Root variables that .tfvars files Terraform does not load by itself set
    # (variables.VarFileSetting): the fact builders say which of them hold GPU pools.
    var_file_settings: list[Any] = field(default_factory=list)
    # Var files under the scanned paths that no root module would be given (stray_var_files).
    stray_var_files: list[tuple[str, Any]] = field(default_factory=list)
    switched_off: list[SwitchedOff] = field(default_factory=list)


def _provider_blocks(files: list[ParsedFile], scope: Scope,
                     inherited: dict[str, ProviderBlock]) -> dict[str, ProviderBlock]:
    """The module's own provider blocks over the inherited ones, by NAME or NAME.ALIAS."""
    out = dict(inherited)
    for _, b in iter_blocks(files, "provider"):
        if not b.labels:
            continue
        view = BlockView(b, scope)
        alias = view.get("alias")
        key = b.labels[0] if not isinstance(alias, str) else f"{b.labels[0]}.{alias}"
        out[key] = ProviderBlock(b.labels[0], view)
    return out


def _instance_keys(block: Block, scope: Scope) -> list[tuple[str, Scope]] | Unknown:
    """The instances a module call expands into: (address suffix, scope) each."""
    keys = instance_keys(block, scope)
    return keys if isinstance(keys, Unknown) else \
        [(address_suffix(key), inner) for key, inner in keys]


def load_module(directory: str, files: list[ParsedFile], variables: dict[str, Any],
                providers: dict[str, ProviderBlock], address: str, depth: int,
                parse_dir: ParseDir, result: LoadResult, reader: Any = None,
                callers: tuple[str, ...] = ()) -> Module:
    """Expand one module instance into resource instances, following local module calls.
    `reader` is the root module's file access (a root module makes its own); `callers` are the
    directories of the module instances above this one, to refuse a call cycle."""
    if reader is None and result.files is not None:
        reader = result.files.rooted(directory)
    module = Module(directory, files, variables, address, depth, reader)
    module.callers = (*callers, _real(directory))
    module.providers = _provider_blocks(files, module.scope, providers)
    prefix = f"{address}." if address else ""
    peers = Peers()
    # Module calls first, so resources (and later calls) can use their outputs.
    for f, b in _calls_in_order(files, result.diagnostics):
        _load_call(module, f, b, prefix, parse_dir, result)
    for f in files:
        for b in f.root.blocks:
            if len(result.resources) + result.module_instances >= MAX_TOTAL_INSTANCES:
                if not result.truncated:
                    result.truncated = True
                    result.diagnostics.append(Diagnostic(
                        f.path, b.line, f"stopped expanding resources at {MAX_TOTAL_INSTANCES:,} "
                        "instances (gpulint's limit); later resources are not evaluated",
                        "warning"))
                return module
            if b.type in {"resource", "data"} and len(b.labels) == 2:
                _expand_resource(module, f, b, prefix, peers, result)
    return module


def _expand_resource(module: Module, f: ParsedFile, b: Block, prefix: str, peers: Peers,
                     result: LoadResult) -> None:
    keys = instance_keys(b, module.scope)
    base = f"{prefix}{'data.' if b.type == 'data' else ''}{b.labels[0]}.{b.labels[1]}"
    unknown_expansion: Unknown | None = None
    if isinstance(keys, Unknown):
        # Still report the resource once, with the expansion unknown.
        unknown_expansion = Unknown(f"{base}: {keys.reason}")
        keys = [(None, module.scope.child(count=keys, each=keys))]
    elif not keys and b.type == "resource":  # a data source creates nothing
        result.switched_off.append(_switched_off(base, f.path, b, module))
    for key, scope in keys:
        inst = ResourceInstance(base + address_suffix(key), b.labels[0], b.labels[1],
                                "data" if b.type == "data" else "managed", f.path,
                                BlockView(b, scope), module.providers, module.address,
                                peers, unknown_expansion, key=key)
        if inst.mode == "managed":
            peers.setdefault((inst.type, inst.name), []).append(inst)
        result.resources.append(inst)


@functools.lru_cache(maxsize=4096)
def _real(directory: str) -> str:
    return os.path.normcase(os.path.realpath(directory))


def _unique_calls(files: list[ParsedFile],
                  diagnostics: list[Diagnostic]) -> list[tuple[ParsedFile, Block]]:
    """Module calls by name; a second call of the same name (Terraform refuses the directory)
    is reported with both places and left out."""
    first: dict[str, tuple[ParsedFile, Block]] = {}
    for f, b in iter_blocks(files, "module"):
        if not b.labels:
            continue
        name = b.labels[0]
        if name in first:
            pf, pb = first[name]
            diagnostics.append(Diagnostic(
                f.path, b.line, f'duplicate module call "{name}": also declared at '
                f"{pf.path}:{pb.line} (Terraform refuses this directory); only the first is "
                "evaluated", "error"))
            continue
        first[name] = (f, b)
    return list(first.values())


def _calls_in_order(files: list[ParsedFile],
                    diagnostics: list[Diagnostic]) -> list[tuple[ParsedFile, Block]]:
    """Module calls, each after the calls whose outputs its arguments use (file order
    otherwise, and for cycles)."""
    calls = _unique_calls(files, diagnostics)
    names = {b.labels[0] for _, b in calls}
    deps = {b.labels[0]: (module_refs([a.expr for a in b.attributes.values()]) & names)
            - {b.labels[0]} for _, b in calls}
    ordered: list[tuple[ParsedFile, Block]] = []
    done: set[str] = set()
    while len(ordered) < len(calls):
        ready = [(f, b) for f, b in calls if b.labels[0] not in done and deps[b.labels[0]] <= done]
        batch = ready[:1] or [next((f, b) for f, b in calls if b.labels[0] not in done)]
        for f, b in batch:
            ordered.append((f, b))
            done.add(b.labels[0])
    return ordered


def _call_providers(call: Block, parent: dict[str, ProviderBlock]) -> dict[str, ProviderBlock]:
    """`providers = { NAME = NAME.ALIAS }` hands the child module the parent's aliased provider
    block under the child's own name."""
    out = {k: v for k, v in parent.items() if "." not in k}
    attr = call.attributes.get("providers")
    if attr is None or not isinstance(attr.expr, ObjectExpr):
        return dict(parent)
    for key_expr, value_expr in attr.expr.items:
        key = _traversal(key_expr)
        target = _traversal(value_expr)
        if key and target and target in parent:
            out[key] = parent[target]
    return out


def _traversal(expr: Any) -> str | None:
    if isinstance(expr, Var):
        return expr.name
    if isinstance(expr, GetAttr) and isinstance(expr.target, Var):
        return f"{expr.target.name}.{expr.name}"
    value = getattr(expr, "value", None)
    return value if isinstance(value, str) else None


def _load_call(parent: Module, f: ParsedFile, call: Block, prefix: str, parse_dir: ParseDir,
               result: LoadResult) -> None:
    name = call.labels[0]
    addr = f"{prefix}module.{name}"
    src = evaluate(call.attributes["source"].expr, parent.scope) \
        if "source" in call.attributes else None
    target = resolve_module_source(parent.directory, name, src, parent.address)
    keys = _instance_keys(call, parent.scope)
    providers = _call_providers(call, parent.providers)
    if target is None:
        if keys == []:
            result.switched_off.append(_switched_off(addr, f.path, call, parent))
        result.remote_calls.append(RemoteCall(addr, f.path, call.line, src, call, keys,
                                              providers, parent.address,
                                              (len(result.resources), len(result.notes))))
        return
    if containment.escapes(target):
        result.notes.append(ModuleCallNote(addr, f.path, call.line,
                                           f"module source: {containment.OUTSIDE}"))
        return
    if parent.depth >= MAX_MODULE_DEPTH:
        result.notes.append(ModuleCallNote(addr, f.path, call.line, "module nesting too deep"))
        return
    if _real(target) in parent.callers:
        # Terraform refuses a module that calls itself, directly or through others; following
        # it would repeat until the depth limit, multiplied by every count on the way.
        what = "its own directory" if _real(target) == parent.callers[-1] else \
            "a module above it (a cycle)"
        diag = Diagnostic(f.path, call.line, f'module "{name}" calls {what}: not followed',
                          "error")
        if (f.path, call.line) not in result.cycles:  # once, not once per instance
            result.cycles.add((f.path, call.line))
            result.diagnostics.append(diag)
        return
    child_files, diags = parse_dir(target)
    result.diagnostics.extend(diags)
    if isinstance(keys, Unknown):
        result.notes.append(ModuleCallNote(addr, f.path, call.line,
                                           f"module call not expanded: {keys.reason}"))
        return
    if not _count_instances(result, len(keys), f, call):
        return
    if not keys:
        result.switched_off.append(_switched_off(addr, f.path, call, parent,
                                                 tuple(cf.path for cf in child_files)))
    outputs: dict[str, Any] = {}
    first, first_remote = len(result.resources), len(result.remote_calls)
    for suffix, scope in keys:
        inputs = {k: evaluate(a.expr, scope) for k, a in call.attributes.items()
                  if k not in _CALL_META}
        child = load_module(target, child_files, inputs, providers, addr + suffix,
                            parent.depth + 1, parse_dir, result, parent.scope.files,
                            parent.callers)
        outputs[suffix] = LazyOutputs(child)
    for inst in result.resources[first:]:
        inst.call_paths += (f.path,)
    for remote in result.remote_calls[first_remote:]:
        remote.call_paths += (f.path,)
    if "count" in call.attributes:
        parent.calls[name] = list(outputs.values())
    elif "for_each" in call.attributes:
        parent.calls[name] = {json.loads(k[1:-1]): v for k, v in outputs.items()}
    else:
        parent.calls[name] = outputs.get("", Unknown(f"module.{name} has no instance"))


def _count_instances(result: LoadResult, n: int, f: ParsedFile, call: Block) -> bool:
    """Count `n` module instances against the scan's cap: modules fanning out at every level
    with no resources at all (count = 3 sixteen levels deep) would otherwise run for hours."""
    result.module_instances += n
    if result.module_instances <= MAX_MODULE_INSTANCES \
            and result.module_instances + len(result.resources) <= MAX_TOTAL_INSTANCES:
        return True
    if not result.truncated:
        result.truncated = True
        result.diagnostics.append(Diagnostic(
            f.path, call.line, f"stopped expanding modules at {MAX_MODULE_INSTANCES:,} module "
            f"instances or {MAX_TOTAL_INSTANCES:,} instances in all (gpulint's limits); later "
            "ones are not evaluated", "warning"))
    return False


def resolve_module_source(directory: str, name: str, source: Any,
                          parent_address: str) -> str | None:
    """A local path, or a registry module already present under .terraform/modules."""
    if isinstance(source, str) and (source.startswith("./") or source.startswith("../")):
        target = os.path.normpath(os.path.join(directory, source))
        return target if os.path.isdir(target) else None
    from gpulint.files.text import read_text

    text, _ = read_text(os.path.join(directory, ".terraform", "modules", "modules.json"))
    try:
        entries = json.loads(text).get("Modules", []) if text is not None else []
    except (ValueError, AttributeError):
        return None
    key = ".".join(p for p in (parent_address.replace("module.", ""), name) if p)
    for entry in entries:
        if isinstance(entry, dict) and entry.get("Key") == key and entry.get("Dir"):
            target = os.path.join(directory, entry["Dir"])
            return target if os.path.isdir(target) else None
    return None


def iter_blocks(files: list[ParsedFile], type_: str) -> Iterator[tuple[ParsedFile, Block]]:
    for f in files:
        for b in f.root.blocks:
            if b.type == type_:
                yield f, b
