"""What the Terraform loader hands on: blocks with their scope, resource instances, and
provider blocks as written.

Nothing here knows a cloud: a provider block is kept raw (its local name and a view of its
arguments) and the facts layer decides what its arguments mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.expansion import same_key
from gpulint.terraform.expressions import Scope, evaluate
from gpulint.terraform.syntax import Block, GetAttr, Var
from gpulint.terraform.values import SPLAT, WHOLE, Ref, expression_refs, expression_strings


@dataclass
class ParsedFile:
    path: str
    root: Block


class BlockView:
    """A block with its evaluation scope: attribute values on demand, dynamic blocks expanded."""

    def __init__(self, block: Block | None, scope: Scope,
                 unknown_reason: str | None = None) -> None:
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

    def blocks(self, type_: str) -> list[BlockView]:
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

    def first(self, type_: str) -> BlockView | None:
        found = self.blocks(type_)
        return found[0] if found else None

    def refs(self, name: str) -> list[Ref]:
        """Resources an attribute refers to (`TYPE.NAME[each.key].id` → that resource, and
        the key as evaluated in this block's scope)."""
        if self.block is None or name not in self.block.attributes:
            return []
        return expression_refs(self.block.attributes[name].expr,
                               lambda e: evaluate(e, self.scope))

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


@dataclass(eq=False)
class ProviderBlock:
    """A provider configuration as written: its local name (`provider "NAME"`) and a view of
    its arguments (a `BlockView`, or a `ValueView` for plan JSON). Compared by identity, so
    the facts layer can interpret each block once."""

    name: str
    view: Any


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
    # Provider blocks in scope by key: the local name, or NAME.ALIAS for an aliased block.
    providers: dict[str, ProviderBlock]
    module_address: str  # "" for the root module
    # The resources of the same module instance by (type, name), shared by all of them, so a
    # node group can read the launch template it refers to.
    peers: Peers = field(default_factory=Peers)
    # Set when count/for_each could not be evaluated and the resource is reported once.
    expansion_unknown: Unknown | None = None
    # Files of the module calls that instantiated it, innermost first: a change to the call's
    # inputs is a change to this resource (pre-commit passes only the calling file).
    call_paths: tuple[str, ...] = field(default=(), init=False)
    # Its count index or for_each key; None for a resource with neither.
    key: Any = field(default=None, kw_only=True)

    def peer(self, ref: Ref) -> ResourceInstance | Unknown | None:
        """The instance of the same module a reference names; None when the module has no
        such resource, Unknown when it has one but which instance is meant is not known (never
        a guess: another instance may be a different machine)."""
        found = self.peers.get((ref.type, ref.name))
        if not found:
            return None
        where = f"{ref.type}.{ref.name}"
        first: ResourceInstance = found[0]
        if first.expansion_unknown is not None:
            return Unknown(f"instances of {where} are unknown ({first.expansion_unknown.reason})")
        if ref.key is WHOLE or ref.key is SPLAT:
            if len(found) == 1:
                return first
            return Unknown(f"{where} has {len(found)} instances and the reference does not say "
                           "which one")
        if isinstance(ref.key, Unknown):
            return Unknown(f"which instance of {where} is meant is unknown: {ref.key.reason}")
        for inst in found:
            if same_key(inst.key, ref.key):
                return inst  # type: ignore[no-any-return]
        return Unknown(f"{where} has no instance [{ref.key!r}]")

    def provider_block(self) -> ProviderBlock | None:
        """The provider block this resource uses: its `provider = NAME.ALIAS` argument, else
        the block named by the first word of its type, as Terraform picks it."""
        block = getattr(self.view, "block", None)
        alias_ref = block.attributes.get("provider") if block is not None else None
        if alias_ref is not None:
            # provider = NAME.ALIAS is a traversal, not a value: read it syntactically.
            expr = alias_ref.expr
            if isinstance(expr, GetAttr) and isinstance(expr.target, Var):
                key = f"{expr.target.name}.{expr.name}"
                if key in self.providers:
                    return self.providers[key]
        return self.providers.get(self.type.split("_", 1)[0])
