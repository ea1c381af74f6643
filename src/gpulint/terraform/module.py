"""Load Terraform modules: variables, locals, providers, count/for_each and local module calls.

A module is a directory. Its resources are expanded into instances with Terraform addresses
(`module.gpu.aws_instance.this[0]`), each carrying the scope its expressions evaluate in.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Iterator

from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.parser import parse_hcl
from gpulint.terraform.syntax import Block, GetAttr, HclSyntaxError, ObjectExpr, Var
from gpulint.terraform.values import expression_refs, expression_strings, module_refs
from gpulint.terraform.types import apply_type

MAX_MODULE_DEPTH = 16
# Bounds on expansion, so `count = 1e9` or modules fanning out at every level cannot exhaust
# memory: instances per resource or module call, and resource instances in one scan.
MAX_INSTANCES = 10_000
MAX_TOTAL_INSTANCES = 200_000


@dataclass
class ParsedFile:
    path: str
    root: Block


@dataclass
class Inputs:
    """Values set for a root module's variables, from tfvars files, CLI and the environment."""

    var_files: list[str] = field(default_factory=list)
    vars: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    # -var and -var-file in command-line order, as Terraform applies them: ("var-file", index
    # into var_files) or ("var", (name, value)). Empty when the order is not known: every var
    # file, then every var.
    cli_order: list[tuple[str, Any]] = field(default_factory=list)


@dataclass
class ProviderConfig:
    name: str
    region: Any = None  # str | Unknown | None
    default_tags: dict[str, Any] = field(default_factory=dict)


class BlockView:
    """A block with its evaluation scope: attribute values on demand, dynamic blocks expanded."""

    def __init__(self, block: Block | None, scope: Scope, unknown_reason: str | None = None) -> None:
        self.block = block
        self.scope = scope
        self.unknown_reason = unknown_reason

    @property
    def line(self) -> int:
        return self.block.line if self.block else 0

    def has(self, name: str) -> bool:
        return self.block is not None and name in self.block.attributes

    def get(self, name: str, default: Any = None) -> Any:
        if self.unknown_reason is not None:
            return Unknown(self.unknown_reason)
        if self.block is None or name not in self.block.attributes:
            return default
        return evaluate(self.block.attributes[name].expr, self.scope)

    def blocks(self, type_: str) -> list["BlockView"]:
        if self.unknown_reason is not None:
            return [BlockView(None, self.scope, self.unknown_reason)]
        if self.block is None:
            return []
        views = [BlockView(b, self.scope) for b in self.block.children(type_)]
        for dyn in self.block.children("dynamic"):
            if dyn.labels != [type_]:
                continue
            views.extend(_expand_dynamic(dyn, self.scope))
        return views

    def first(self, type_: str) -> "BlockView | None":
        found = self.blocks(type_)
        return found[0] if found else None

    def refs(self, name: str) -> list[tuple[str, str]]:
        """Resources an attribute refers to (`aws_launch_template.gpu.id` → that template)."""
        if self.block is None or name not in self.block.attributes:
            return []
        return expression_refs(self.block.attributes[name].expr)

    def raw_strings(self, name: str) -> list[str]:
        """The attribute's value when it is a string, and the literal strings written in it
        (a script passed through file() or base64encode() still names its file)."""
        if self.block is None or name not in self.block.attributes:
            return []
        value = self.get(name)
        own = [value] if isinstance(value, str) else []
        return own + expression_strings(self.block.attributes[name].expr)


def _expand_dynamic(dyn: Block, scope: Scope) -> list[BlockView]:
    content = next(iter(dyn.children("content")), None)
    if content is None:
        return []
    iterator = dyn.labels[0]
    if "iterator" in dyn.attributes:
        it = dyn.attributes["iterator"].expr
        iterator = getattr(it, "name", iterator)
    coll = evaluate(dyn.attributes["for_each"].expr, scope) if "for_each" in dyn.attributes else []
    if isinstance(coll, Unknown):
        return [BlockView(content, scope, f"dynamic {dyn.labels[0]} blocks: {coll.reason}")]
    pairs = coll.items() if isinstance(coll, dict) else enumerate(coll)
    return [BlockView(content, scope.child(**{iterator: {"key": k, "value": v}})) for k, v in pairs]


class Peers(dict):  # type: ignore[type-arg]
    """The resources of one module instance by (type, name), and values derived from all of
    them (`memo`), so that finding which groups use a template is done once per module."""

    def __init__(self) -> None:
        super().__init__()
        self.memo: dict[str, Any] = {}


@dataclass
class ResourceInstance:
    address: str
    type: str
    name: str
    mode: str  # managed | data
    path: str
    view: Any  # BlockView, or a ValueView for plan JSON and community-module inputs
    providers: dict[str, ProviderConfig]
    module_address: str  # "" for the root module
    # The resources of the same module instance by (type, name), shared by all of them, so a
    # node group can read the launch template it refers to.
    peers: Peers = field(default_factory=Peers)
    # Set when count/for_each could not be evaluated and the resource is reported once.
    expansion_unknown: Unknown | None = None
    # Files of the module calls that instantiated it, innermost first: a change to the call's
    # inputs is a change to this resource (pre-commit passes only the calling file).
    call_paths: tuple[str, ...] = field(default=(), init=False)

    def peer(self, type_: str, name: str) -> "ResourceInstance | None":
        found = self.peers.get((type_, name))
        return found[0] if found else None

    def provider(self) -> ProviderConfig | None:
        prefix = self.type.split("_", 1)[0]
        alias_ref = self.view.block.attributes.get("provider") if self.view.block else None
        if alias_ref is not None:
            # provider = aws.west is a traversal, not a value: read it syntactically.
            expr = alias_ref.expr
            if isinstance(expr, GetAttr) and isinstance(expr.target, Var):
                key = f"{expr.target.name}.{expr.name}"
                if key in self.providers:
                    return self.providers[key]
        return self.providers.get(prefix)


@dataclass
class ModuleCallNote:
    """A module call gpulint could not follow (registry or remote source)."""

    address: str
    path: str
    line: int
    reason: str


@dataclass
class LoadResult:
    resources: list[ResourceInstance] = field(default_factory=list)
    notes: list[ModuleCallNote] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    truncated: bool = False  # MAX_TOTAL_INSTANCES was reached


def _read_tfvars(path: str, parse: Any = None) -> tuple[dict[str, Any], Diagnostic | None]:
    if parse is not None and not path.endswith(".json"):
        # The scan's cached parser: a warm run then needs no HCL parser at all.
        parsed, diags = parse(path)
        if parsed is None:
            return {}, diags[0] if diags else None
        empty = Scope({})
        return {k: evaluate(a.expr, empty) for k, a in parsed.root.attributes.items()}, None
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as e:
        return {}, Diagnostic(path, None, f"cannot read variables file: {e}")
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            return {}, Diagnostic(path, e.lineno, f"invalid JSON: {e.msg}")
        return (data if isinstance(data, dict) else {}), None
    try:
        root = parse_hcl(text)
    except HclSyntaxError as e:
        return {}, Diagnostic(path, e.line, f"parse error: {e}")
    empty = Scope({})
    return {k: evaluate(a.expr, empty) for k, a in root.attributes.items()}, None


def _cli_value(raw: str) -> Any:
    """-var and TF_VAR_ values are strings unless they parse as HCL (lists, maps, numbers)."""
    try:
        from gpulint.terraform.parser import parse_expression

        value = evaluate(parse_expression(raw), Scope({}))
        if not isinstance(value, Unknown):
            return value
    except HclSyntaxError:
        pass
    return raw


class Module:
    """One module instance: its files, its variable values and its lazily evaluated locals."""

    def __init__(self, directory: str, files: list[ParsedFile], variables: dict[str, Any],
                 providers: dict[str, ProviderConfig], address: str, depth: int) -> None:
        self.directory = directory
        self.files = files
        self.address = address
        self.depth = depth
        self.providers = providers
        self._var_values = variables
        self._locals: dict[str, tuple[Block, Any]] = {}
        self._local_cache: dict[str, Any] = {}
        self._resolving: set[str] = set()
        self.var_decls: dict[str, Block] = {}
        self.output_decls: dict[str, Block] = {}
        # Managed resources by type and name: `azurerm_resource_group.rg.location` is the
        # value written in that block, known before apply.
        self.resource_decls: dict[str, dict[str, Block]] = {}
        self.resolving: set[tuple[int, str]] = set()
        self.configured: dict[tuple[int, str], Any] = {}  # evaluated once each
        # Local module calls by name: their outputs, one per instance ([i] / ["key"]) when
        # the call has count or for_each.
        self.calls: dict[str, Any] = {}
        for f in files:
            for b in f.root.blocks:
                if b.type == "locals":
                    for name, attr in b.attributes.items():
                        self._locals[name] = (b, attr.expr)
                elif b.type == "variable" and b.labels:
                    self.var_decls[b.labels[0]] = b
                elif b.type == "output" and b.labels:
                    self.output_decls[b.labels[0]] = b
                elif b.type == "resource" and len(b.labels) == 2:
                    self.resource_decls.setdefault(b.labels[0], {})[b.labels[1]] = b
        self.scope = Scope(resolver=self._resolve_root)

    # -- names --------------------------------------------------------------------------
    def variables(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        empty = Scope({})
        for name, decl in self.var_decls.items():
            if name in self._var_values:
                out[name] = self._var_values[name]
            elif "default" in decl.attributes:
                out[name] = evaluate(decl.attributes["default"].expr, empty)
            else:
                out[name] = Unknown(f"variable {name} has no default and no value was given")
                continue
            if "type" in decl.attributes:  # optional() attribute defaults
                out[name] = apply_type(out[name], decl.attributes["type"].expr)
        return out

    def _resolve_root(self, name: str) -> Any:
        if name == "var":
            return _LazyVars(self)
        if name == "local":
            return _LazyLocals(self)
        if name == "path":
            return {"module": self.directory, "root": self.directory, "cwd": os.getcwd()}
        if name == "terraform":
            return {"workspace": "default"}
        if name == "data":
            return Unknown("data values are known only after apply")
        if name == "module":
            return _ModuleCalls(self)
        if name in {"each", "count", "self"}:
            return Unknown(f"{name} is only valid inside a resource")
        if name in self.resource_decls:
            return _Resources(self, name)
        return Unknown(f"'{name}.…' refers to another resource, known only after apply")

    def local(self, name: str) -> Any:
        if name in self._local_cache:
            return self._local_cache[name]
        if name not in self._locals:
            return Unknown(f"local.{name} is not defined")
        if name in self._resolving:
            return Unknown(f"local.{name} refers to itself")
        self._resolving.add(name)
        try:
            value = evaluate(self._locals[name][1], self.scope)
        finally:
            self._resolving.discard(name)
        self._local_cache[name] = value
        return value

    def output(self, name: str) -> Any:
        """An output's value, evaluated in this module (outputs of resources stay unknown)."""
        key = f"output.{name}"
        if key in self._local_cache:
            return self._local_cache[key]
        decl = self.output_decls.get(name)
        if decl is None or "value" not in decl.attributes:
            return Unknown(f"output {name} is not defined in {self.address or 'the module'}")
        if key in self._resolving:
            return Unknown(f"output {name} refers to itself")
        self._resolving.add(key)
        try:
            value = evaluate(decl.attributes["value"].expr, self.scope)
        finally:
            self._resolving.discard(key)
        self._local_cache[key] = value
        return value

    def var(self, name: str) -> Any:
        values = self.variables_cache
        return values[name] if name in values else Unknown(f"variable {name} is not declared")

    @property
    def variables_cache(self) -> dict[str, Any]:
        if not hasattr(self, "_vars_cache"):
            self._vars_cache = self.variables()
        return self._vars_cache


class _LazyVars(dict):  # type: ignore[type-arg]
    """`var` as a mapping, so var.x and var["x"] both work without evaluating every variable."""

    def __init__(self, module: Module) -> None:
        super().__init__()
        self._m = module

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: str) -> Any:
        return self._m.var(key)


class _LazyLocals(_LazyVars):
    def __getitem__(self, key: str) -> Any:
        return self._m.local(key)


class _LazyOutputs(_LazyVars):
    def __getitem__(self, key: str) -> Any:
        return self._m.output(key)


class _ModuleCalls(_LazyVars):
    """`module.NAME`: the outputs of a local module call, or unknown for one not followed."""

    def __getitem__(self, key: str) -> Any:
        found = self._m.calls.get(key)
        return found if found is not None else \
            Unknown(f"module.{key} was not evaluated (not a local or downloaded module)")


class _Resources(_LazyVars):
    """`TYPE.NAME` of a resource in the module: its configured arguments."""

    def __init__(self, module: Module, type_: str) -> None:
        super().__init__(module)
        self._type = type_

    def __getitem__(self, key: str) -> Any:
        block = self._m.resource_decls[self._type].get(key)
        if block is None or "count" in block.attributes or "for_each" in block.attributes:
            return Unknown(f"'{self._type}.{key}' refers to another resource, known only after "
                           "apply")
        return _Configured(self._m, block, f"{self._type}.{key}")


class _Configured(_LazyVars):
    """A resource's arguments as written; the rest (ids, computed values) only after apply."""

    def __init__(self, module: Module, block: Block, address: str) -> None:
        super().__init__(module)
        self._block, self._address = block, address

    def __getitem__(self, key: str) -> Any:
        attr = self._block.attributes.get(key)
        marker = (id(self._block), key)
        if attr is None or marker in self._m.resolving:  # computed, or a reference cycle
            return Unknown(f"'{self._address}.{key}' is known only after apply")
        if marker not in self._m.configured:
            self._m.resolving.add(marker)
            try:
                self._m.configured[marker] = evaluate(attr.expr, self._m.scope)
            finally:
                self._m.resolving.discard(marker)
        return self._m.configured[marker]


def _providers(files: list[ParsedFile], scope: Scope,
               inherited: dict[str, ProviderConfig]) -> dict[str, ProviderConfig]:
    out = dict(inherited)
    for f in files:
        for b in f.root.blocks:
            if b.type != "provider" or not b.labels:
                continue
            view = BlockView(b, scope)
            alias = view.get("alias")
            key = b.labels[0] if not isinstance(alias, str) else f"{b.labels[0]}.{alias}"
            cfg = ProviderConfig(b.labels[0])
            region = view.get("region") if b.labels[0] == "aws" else view.get("region")
            if b.labels[0] == "azurerm":
                region = None  # Azure sets location per resource
            elif region is None and b.labels[0] in ("google", "google-beta"):
                region = view.get("zone")  # a zone names its region (facts strip the suffix)
            cfg.region = region
            tags: dict[str, Any] = {}
            if b.labels[0] == "aws":
                for dt in view.blocks("default_tags"):
                    value = dt.get("tags", {})
                    if isinstance(value, dict):
                        tags.update(value)
            elif b.labels[0] == "google":
                value = view.get("default_labels", {})
                if isinstance(value, dict):
                    tags.update(value)
            cfg.default_tags = tags
            out[key] = cfg
    return out


def _instance_keys(block: Block, scope: Scope) -> list[tuple[str, Scope]] | Unknown:
    """The instances a resource or module call expands into, each with its scope."""
    if "count" in block.attributes:
        n = evaluate(block.attributes["count"].expr, scope)
        if isinstance(n, Unknown):
            return Unknown(f"count: {n.reason}")
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n) or n < 0:
            # Terraform rejects these at plan time; say so instead of guessing an instance count.
            return Unknown(f"count must be a whole number of 0 or more, got {n!r}")
        n = int(n)
        if n > MAX_INSTANCES:
            return Unknown(f"count = {n:,} exceeds gpulint's limit of {MAX_INSTANCES:,} instances")
        return [(f"[{i}]", scope.child(count={"index": i})) for i in range(max(n, 0))]
    if "for_each" in block.attributes:
        coll = evaluate(block.attributes["for_each"].expr, scope)
        if isinstance(coll, Unknown):
            return Unknown(f"for_each: {coll.reason}")
        if isinstance(coll, list):
            coll = {str(v): v for v in coll}
        if not isinstance(coll, dict):
            return Unknown("for_each is not a map or set")
        if len(coll) > MAX_INSTANCES:
            return Unknown(f"for_each over {len(coll):,} items exceeds gpulint's limit of "
                           f"{MAX_INSTANCES:,} instances")
        return [(f"[{json.dumps(str(k))}]", scope.child(each={"key": k, "value": v}))
                for k, v in coll.items()]
    return [("", scope)]


def load_module(directory: str, files: list[ParsedFile], variables: dict[str, Any],
                providers: dict[str, ProviderConfig], address: str, depth: int,
                parse_dir: Any, result: LoadResult) -> "Module":
    """Expand one module instance into resource instances, following local module calls."""
    module = Module(directory, files, variables, {}, address, depth)
    module.providers = _providers(files, module.scope, providers)
    prefix = f"{address}." if address else ""
    peers = Peers()
    # Module calls first, so resources (and later calls) can use their outputs.
    for f, b in _calls_in_order(files):
        _load_call(module, f, b, prefix, parse_dir, result)
    for f in files:
        for b in f.root.blocks:
            if len(result.resources) >= MAX_TOTAL_INSTANCES:
                if not result.truncated:
                    result.truncated = True
                    result.diagnostics.append(Diagnostic(
                        f.path, b.line, f"stopped expanding resources at {MAX_TOTAL_INSTANCES:,} "
                        "instances (gpulint's limit); later resources are not evaluated",
                        "warning"))
                return
            if b.type in {"resource", "data"} and len(b.labels) == 2:
                keys = _instance_keys(b, module.scope)
                base = f"{prefix}{'data.' if b.type == 'data' else ''}{b.labels[0]}.{b.labels[1]}"
                unknown_expansion: Unknown | None = None
                if isinstance(keys, Unknown):
                    # Still report the resource once, with the expansion unknown.
                    unknown_expansion = Unknown(f"{base}: {keys.reason}")
                    keys = [("", module.scope.child(count=keys, each=keys))]
                for suffix, scope in keys:
                    inst = ResourceInstance(base + suffix, b.labels[0], b.labels[1],
                                            "data" if b.type == "data" else "managed", f.path,
                                            BlockView(b, scope), module.providers, address,
                                            peers, unknown_expansion)
                    if inst.mode == "managed":
                        peers.setdefault((inst.type, inst.name), []).append(inst)
                    result.resources.append(inst)
    return module


def _calls_in_order(files: list[ParsedFile]) -> list[tuple[ParsedFile, Block]]:
    """Module calls, each after the calls whose outputs its arguments use (file order
    otherwise, and for cycles)."""
    calls = [(f, b) for f, b in iter_blocks(files, "module") if b.labels]
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


def _call_providers(call: Block, parent: dict[str, ProviderConfig]) -> dict[str, ProviderConfig]:
    """`providers = { aws = aws.west }` hands the child module the parent's aliased provider
    (with its region and default tags) under the child's own name."""
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


def _load_call(parent: Module, f: ParsedFile, call: Block, prefix: str, parse_dir: Any,
               result: LoadResult) -> None:
    from gpulint.facts.terraform import community

    name = call.labels[0]
    addr = f"{prefix}module.{name}"
    src = evaluate(call.attributes["source"].expr, parent.scope) if "source" in call.attributes else None
    target = resolve_module_source(parent.directory, name, src, parent.address)
    keys = _instance_keys(call, parent.scope)
    providers = _call_providers(call, parent.providers)
    meta = {"source", "version", "count", "for_each", "providers", "depends_on"}
    if target is None:
        known = community.recognise(src)
        if known is not None and isinstance(keys, Unknown):
            result.notes.append(ModuleCallNote(addr, f.path, call.line,
                                               f"module call not expanded: {keys.reason}"))
            return
        if known is not None and not isinstance(keys, Unknown):
            for suffix, scope in keys:
                inputs = {k: evaluate(a.expr, scope) for k, a in call.attributes.items()
                          if k not in meta}
                result.resources.extend(known(addr + suffix, f.path, call.line, inputs,
                                              providers, parent.address))
            return
        result.notes.append(ModuleCallNote(addr, f.path, call.line,
                                           f"module source {src!r} is not local and not "
                                           "downloaded under .terraform/modules: not evaluated"))
        return
    if parent.depth >= MAX_MODULE_DEPTH:
        result.notes.append(ModuleCallNote(addr, f.path, call.line, "module nesting too deep"))
        return
    child_files, diags = parse_dir(target)
    result.diagnostics.extend(diags)
    if isinstance(keys, Unknown):
        result.notes.append(ModuleCallNote(addr, f.path, call.line,
                                           f"module call not expanded: {keys.reason}"))
        return
    outputs: dict[str, Any] = {}
    first = len(result.resources)
    for suffix, scope in keys:
        inputs = {k: evaluate(a.expr, scope) for k, a in call.attributes.items() if k not in meta}
        child = load_module(target, child_files, inputs, providers, addr + suffix,
                            parent.depth + 1, parse_dir, result)
        outputs[suffix] = _LazyOutputs(child)
    for inst in result.resources[first:]:
        inst.call_paths += (f.path,)
    if "count" in call.attributes:
        parent.calls[name] = list(outputs.values())
    elif "for_each" in call.attributes:
        parent.calls[name] = {json.loads(k[1:-1]): v for k, v in outputs.items()}
    else:
        parent.calls[name] = outputs.get("", Unknown(f"module.{name} has no instance"))


def resolve_module_source(directory: str, name: str, source: Any, parent_address: str) -> str | None:
    """A local path, or a registry module already present under .terraform/modules."""
    if isinstance(source, str) and (source.startswith("./") or source.startswith("../")):
        target = os.path.normpath(os.path.join(directory, source))
        return target if os.path.isdir(target) else None
    manifest = os.path.join(directory, ".terraform", "modules", "modules.json")
    try:
        with open(manifest, encoding="utf-8") as fh:
            entries = json.load(fh).get("Modules", [])
    except (OSError, ValueError, AttributeError):
        return None
    key = ".".join(p for p in (parent_address.replace("module.", ""), name) if p)
    for entry in entries:
        if isinstance(entry, dict) and entry.get("Key") == key and entry.get("Dir"):
            target = os.path.join(directory, entry["Dir"])
            return target if os.path.isdir(target) else None
    return None


def root_variables(files: list[ParsedFile], directory: str, inputs: Inputs,
                   diagnostics: list[Diagnostic], parse: Any = None) -> dict[str, Any]:
    """Variable values for a root module, in Terraform's precedence order (later wins)."""
    values: dict[str, Any] = {}
    for key, raw in inputs.env.items():
        if key.startswith("TF_VAR_"):
            values[key[len("TF_VAR_"):]] = _cli_value(raw)
    auto = []
    for fname in ("terraform.tfvars", "terraform.tfvars.json"):
        if os.path.isfile(os.path.join(directory, fname)):
            auto.append(os.path.join(directory, fname))
    try:
        listing = sorted(os.listdir(directory))
    except OSError:
        listing = []
    auto += [os.path.join(directory, n) for n in listing
             if n.endswith(".auto.tfvars") or n.endswith(".auto.tfvars.json")]
    order = inputs.cli_order or ([("var-file", i) for i in range(len(inputs.var_files))]
                                 + [("var", pair) for pair in inputs.vars.items()])
    for path in auto:
        _apply_tfvars(values, path, diagnostics, parse)
    for kind, item in order:
        if kind == "var-file":
            _apply_tfvars(values, inputs.var_files[item], diagnostics, parse)
        else:
            values[item[0]] = _cli_value(item[1])
    return values


def _apply_tfvars(values: dict[str, Any], path: str, diagnostics: list[Diagnostic],
                  parse: Any) -> None:
    data, diag = _read_tfvars(path, parse)
    if diag:
        diagnostics.append(diag)
    values.update(data)


def iter_blocks(files: list[ParsedFile], type_: str) -> Iterator[tuple[ParsedFile, Block]]:
    for f in files:
        for b in f.root.blocks:
            if b.type == type_:
                yield f, b
