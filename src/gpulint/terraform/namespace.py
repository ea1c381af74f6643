"""One module instance and the names its expressions see: var, local, module, path and the
arguments of its own resources, each evaluated on first use."""

from __future__ import annotations

import os
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.expansion import address_suffix, instance_keys
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import Block
from gpulint.terraform.types import apply_type
from gpulint.terraform.views import ParsedFile, ProviderBlock


class Module:
    """One module instance: its files, its variable values and its lazily evaluated locals."""

    def __init__(self, directory: str, files: list[ParsedFile], variables: dict[str, Any],
                 address: str, depth: int, reader: Any = None) -> None:
        self.directory = directory
        self.files = files
        self.address = address
        self.depth = depth
        self.callers: tuple[str, ...] = ()  # real directories of this instance and those above
        self.providers: dict[str, ProviderBlock] = {}
        self._var_values = variables
        self._locals: dict[str, tuple[Block, Any]] = {}
        self._local_cache: dict[str, Any] = {}
        self._resolving: set[str] = set()
        self.var_decls: dict[str, Block] = {}
        self.output_decls: dict[str, Block] = {}
        # Managed resources by type and name: `TYPE.NAME.location` of a resource group is the
        # value written in that block, known before apply.
        self.resource_decls: dict[str, dict[str, Block]] = {}
        # Data sources whose result is computed from their arguments alone (_READ_DATA).
        self.data_decls: dict[str, dict[str, Block]] = {}
        self.resolving: set[tuple[Any, ...]] = set()
        self.configured: dict[tuple[Any, ...], Any] = {}  # evaluated once each
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
                elif b.type == "data" and len(b.labels) == 2 and b.labels[0] in _READ_DATA:
                    self.data_decls.setdefault(b.labels[0], {})[b.labels[1]] = b
        # `reader` (a FileAccess) lets file() read inside the scanned tree.
        self.scope = Scope(resolver=self._resolve_root, files=reader)

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

    def given_variables(self) -> frozenset[str]:
        """Variables given a value (by the caller, --var or a var file): the others have
        their default."""
        return frozenset(self._var_values)

    def _resolve_root(self, name: str) -> Any:
        if name == "var":
            return _LazyVars(self)
        if name == "local":
            return _LazyLocals(self)
        if name == "path":
            # As Terraform gives them when run in the root module: relative to it.
            root = getattr(self.scope.files, "cwd", None) or self.directory
            return {"module": os.path.relpath(self.directory, root), "root": ".",
                    "cwd": os.path.abspath(root)}
        if name == "terraform":
            return {"workspace": "default"}
        if name == "data":
            return _DataSources(self)
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


class LazyOutputs(_LazyVars):
    """A module instance's outputs, as `module.NAME` shows them to its caller."""

    def __getitem__(self, key: str) -> Any:
        return self._m.output(key)


class _ModuleCalls(_LazyVars):
    """`module.NAME`: the outputs of a local module call, or unknown for one not followed."""

    def __getitem__(self, key: str) -> Any:
        found = self._m.calls.get(key)
        return found if found is not None else \
            Unknown(f"module.{key} was not evaluated (not a local or downloaded module)")


class _DataSources(_LazyVars):
    """`data.TYPE`: the data sources computed from their own arguments (a template rendered
    with its vars); any other is read from the cloud at plan time."""

    def __getitem__(self, key: str) -> Any:
        if key in self._m.data_decls:
            return _Resources(self._m, key, data=True)
        return Unknown("data values are known only after apply")


class _Resources(_LazyVars):
    """`TYPE.NAME` of a resource in the module: its configured arguments; for a resource with
    count or for_each, its instances by index or key, each with its own `each`/`count`."""

    def __init__(self, module: Module, type_: str, data: bool = False) -> None:
        super().__init__(module)
        self._type = type_
        self._data = data

    def __getitem__(self, key: str) -> Any:
        decls = self._m.data_decls if self._data else self._m.resource_decls
        block = decls[self._type].get(key)
        address = f"{'data.' if self._data else ''}{self._type}.{key}"
        if block is None:
            return Unknown(f"'{address}' refers to another resource, known only after apply")
        if "count" not in block.attributes and "for_each" not in block.attributes:
            return _configured(self._m, block, address, self._m.scope)
        marker = (id(block), "instances")
        if marker in self._m.resolving:
            return Unknown(f"the instances of '{address}' depend on themselves")
        if marker not in self._m.configured:
            self._m.resolving.add(marker)
            try:
                self._m.configured[marker] = _instances(self._m, block, address)
            finally:
                self._m.resolving.discard(marker)
        return self._m.configured[marker]


def _instances(module: Module, block: Block, address: str) -> Any:
    keys = instance_keys(block, module.scope)
    if isinstance(keys, Unknown):
        return Unknown(f"instances of '{address}': {keys.reason}")
    configured = {key: _configured(module, block, f"{address}{address_suffix(key)}", scope)
                  for key, scope in keys}
    return list(configured.values()) if "count" in block.attributes else configured


class _Configured(_LazyVars):
    """A resource's arguments as written; the rest (ids, computed values) only after apply."""

    def __init__(self, module: Module, block: Block, address: str, scope: Scope) -> None:
        super().__init__(module)
        self._block, self._address, self._scope = block, address, scope

    @property
    def block(self) -> Block:
        return self._block

    @property
    def scope(self) -> Scope:
        """The scope its arguments are evaluated in (its own `each`/`count`)."""
        return self._scope

    def __getitem__(self, key: str) -> Any:
        attr = self._block.attributes.get(key)
        marker = (id(self._block), self._address, key)
        if attr is None or marker in self._m.resolving:  # computed, or a reference cycle
            return Unknown(f"'{self._address}.{key}' is known only after apply")
        if marker not in self._m.configured:
            self._m.resolving.add(marker)
            try:
                self._m.configured[marker] = evaluate(attr.expr, self._scope)
            finally:
                self._m.resolving.discard(marker)
        return self._m.configured[marker]


# The template provider's `data "template_file"` (archived, still common in tutorials):
# `rendered` is its `template` with its `vars` substituted, as templatefile() renders a file.
_READ_DATA = frozenset({"template_file"})


class RenderedTemplate(_Configured):
    """A `data "template_file"` instance: its arguments, and `rendered`."""

    def __getitem__(self, key: str) -> Any:
        if key != "rendered":
            return super().__getitem__(key)
        from gpulint.terraform.reading import render_template

        text = super().__getitem__("template")
        names = super().__getitem__("vars") if "vars" in self._block.attributes else {}
        for value in (text, names):
            if isinstance(value, Unknown):
                return Unknown(f"{self._address}.rendered: {value.reason}")
        if not isinstance(text, str) or not isinstance(names, dict):
            return Unknown(f"{self._address}: template must be a string and vars a map")
        parsed = render_template(text, names, self._address)
        return parsed if isinstance(parsed, Unknown) else \
            evaluate(parsed.expr, Scope(parsed.names))


def _configured(module: Module, block: Block, address: str, scope: Scope) -> _Configured:
    kind = RenderedTemplate if block.type == "data" and block.labels[:1] == ["template_file"] \
        else _Configured
    return kind(module, block, address, scope)
