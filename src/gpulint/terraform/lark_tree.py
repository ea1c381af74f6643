"""Terraform text → python-hcl2's Lark parse tree → our syntax tree (`syntax.py`).

python-hcl2's dict output loses line numbers and turns expressions back into strings; we walk
its raw Lark tree instead (every node carries its line) and keep expressions as small nodes that
`expressions.py` can evaluate.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from gpulint.terraform import heredoc, template
from gpulint.terraform.syntax import (
    Attribute,
    BinOp,
    Block,
    Call,
    Conditional,
    Expr,
    ForExpr,
    GetAttr,
    HclSyntaxError,
    Index,
    Literal,
    ObjectExpr,
    Splat,
    TupleExpr,
    UnaryOp,
    Unsupported,
    Var,
)
from gpulint.terraform.template import Mark

if TYPE_CHECKING:
    from lark import Token, Tree
else:  # imported on first conversion: a run served from the parse cache never needs Lark
    Token = Tree = None


def _import_lark() -> None:
    global Token, Tree
    from lark import Token, Tree


def parse_tree(text: str) -> Any:
    from hcl2.api import parses_to_tree
    from lark.exceptions import (
        UnexpectedCharacters,
        UnexpectedEOF,
        UnexpectedInput,
        UnexpectedToken,
    )

    text = heredoc.guard_heredocs(text)
    try:
        return parses_to_tree(text)
    except UnexpectedToken as e:
        # Tokens can carry the newlines around them; show the first visible text.
        visible = str(e.token).strip().split("\n", 1)[0][:40] if e.token.type != "$END" else ""
        if e.token.type == "$END":
            got = "end of file"
        elif not visible or e.token.type == "NL_OR_COMMENT":
            got = "end of line"
        else:
            got = repr(visible)
        line = e.line if e.line and e.line > 0 else None
        raise HclSyntaxError(f"unexpected {got}", line) from None
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream if e.pos_in_stream is not None else -1
        raise HclSyntaxError(f"unexpected character {text[pos]!r}"
                             if 0 <= pos < len(text) else "unexpected character",
                             e.line) from None
    except UnexpectedEOF:
        raise HclSyntaxError("unexpected end of file", text.count("\n") + 1) from None
    except UnexpectedInput as e:  # any other Lark input error
        raise HclSyntaxError("invalid HCL syntax", getattr(e, "line", None)) from None


# ---- conversion from the Lark tree ------------------------------------------------------

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def _unescape(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        seq = m.group(1)
        if seq[0] in "uU" and len(seq) > 1:
            return chr(int(seq[1:], 16))
        return _ESCAPES.get(seq, "\\" + seq)

    return _ESCAPE_RE.sub(repl, text)


def _line(node: Tree[Any] | Token) -> int:
    if isinstance(node, Token):
        return node.line or 0
    return getattr(node.meta, "line", 0) or 0


def _significant(children: list[Any]) -> list[Any]:
    """Children without newlines/comments and punctuation tokens."""
    out = []
    for c in children:
        if isinstance(c, Tree) and c.data == "new_line_or_comment":
            continue
        if isinstance(c, Token) and c.type in {"COMMA", "LPAR", "RPAR", "LSQB", "RSQB", "LBRACE",
                                                "RBRACE", "EQ", "COLON", "QMARK", "DBLQUOTE",
                                                "NL_OR_COMMENT"}:
            continue
        out.append(c)
    return out


def _name(node: Tree[Any] | Token) -> str:
    """Text of an identifier, keyword, literal_value or string used as a name or label."""
    if isinstance(node, Token):
        return str(node)
    if node.data == "string":
        expr = _string(node)
        if isinstance(expr, Literal):
            return str(expr.value)
        raise HclSyntaxError("block label cannot contain interpolation", _line(node))
    if node.data in {"identifier", "keyword", "literal_value"}:
        return str(node.children[0])
    if node.data == "expr_term" and len(node.children) == 1:
        return _name(node.children[0])
    raise HclSyntaxError(f"unexpected name {node.data}", _line(node))


def body(tree: Tree[Any]) -> Block:
    """Convert a parsed `start` tree into a root Block holding the file's top level."""
    if Tree is None:
        _import_lark()
    root = Block("", [], 1, 0)
    start_body = tree.children[0] if tree.data == "start" else tree
    _fill_body(root, start_body)
    return root


def _fill_body(block: Block, tree: Tree[Any]) -> None:
    for child in tree.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "attribute":
            name = _name(child.children[0])
            expr = expression(child.children[-1])
            block.attributes[name] = Attribute(name, expr, _line(child))
        elif child.data == "block":
            parts = [c for c in child.children
                     if not (isinstance(c, Token) and c.type in {"LBRACE", "RBRACE"})
                     and not (isinstance(c, Tree) and c.data == "new_line_or_comment")]
            inner = parts[-1]
            names = [_name(p) for p in parts[:-1]]
            sub = Block(names[0], names[1:], _line(child), getattr(child.meta, "end_line", 0) or 0)
            _fill_body(sub, inner)
            block.blocks.append(sub)


def _string(tree: Tree[Any]) -> Expr:
    parts: list[str | Mark] = []
    for part in tree.children:
        if isinstance(part, Token):
            continue  # quotes
        inner = part.children[0]
        if isinstance(inner, Token):
            if inner.type == "STRING_CHARS":
                parts.append(_unescape(str(inner)))
            elif inner.type in ("ESCAPED_INTERPOLATION", "ESCAPED_DIRECTIVE"):
                parts.append(str(inner)[1:])
            else:
                parts.append(str(inner))
        elif inner.data == "interpolation":
            parts.append(Mark("interp", expression(_significant(inner.children)[1])))
        else:
            parts.append(_directive(inner))
    try:
        return template.build(parts)
    except HclSyntaxError as e:
        return Unsupported(f"template with {e}" + (f" (line {e.line})" if e.line else ""))


_DIRECTIVES = {"template_if_start": "if", "template_else": "else", "template_endif": "endif",
               "template_for_start": "for", "template_endfor": "endfor"}


def _directive(tree: Tree[Any]) -> Mark:
    """`%{ if c }`, `%{ for k, v in m ~}`… of a quoted string, as a template mark."""
    kids = [c for c in tree.children
            if not (isinstance(c, Tree) and c.data == "new_line_or_comment")]
    left = len(kids) > 2 and isinstance(kids[1], Token) and kids[1].type == "STRIP_MARKER"
    right = len(kids) > 2 and isinstance(kids[-2], Token) and kids[-2].type == "STRIP_MARKER"
    kind = _DIRECTIVES[tree.data]
    if kind not in ("if", "for"):
        return Mark(kind, None, _line(tree), left, right)
    keyword = "IN" if kind == "for" else "IF"
    at = next(i for i, c in enumerate(kids) if isinstance(c, Token) and c.type == keyword)
    names = tuple(str(c.children[0]) for c in kids[:at]
                  if isinstance(c, Tree) and c.data == "identifier")
    expr = next(c for c in kids[at + 1:] if isinstance(c, Tree))
    return Mark(kind, expression(expr), _line(tree), left, right, names)


def _heredoc_body(token: str) -> str:
    """The text between a heredoc's opening line and its closing marker, without the newline
    before the marker. By slicing, in linear time: a lazy regex with `[ \t]*` before the
    marker took seconds over a long run of spaces (quadratic; 19 s for 30 KB)."""
    first = token.find("\n")
    marker = token[:first].rstrip("\r").lstrip("<").lstrip("-")
    text = token[first + 1:].replace(heredoc.GUARD, "") if first >= 0 else ""
    text = text[:-1] if text.endswith("\n") else text
    text = text[:-1] if text.endswith("\r") else text
    if not marker or not text.endswith(marker):
        return ""
    text = text[:-len(marker)].rstrip(" \t")
    text = text[:-1] if text.endswith("\n") else text
    return text[:-1] if text.endswith("\r") else text


def _heredoc(token: Any, trim: bool) -> Expr:
    text = _heredoc_body(str(token))
    if trim:
        lines = text.split("\n")
        indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
        cut = min(indents) if indents else 0
        text = "\n".join(ln[cut:] for ln in lines)
    text = text + "\n" if text else text
    if "${" not in text and "%{" not in text:
        return Literal(text)
    # Each interpolation and directive is parsed as written (a heredoc has no escapes to
    # undo), and a syntax error in one is reported at its own line of the file.
    parts = heredoc.split(text)
    first_line = (getattr(token, "line", 0) or 0) + 1
    if isinstance(parts, tuple):
        if parts[0].startswith("an interpolation"):
            raise HclSyntaxError(parts[0], first_line + parts[1])
        return Unsupported(f"template with {parts[0]} (line {first_line + parts[1]})")
    try:
        out = template.marks(
            parts, lambda source: body(parse_tree(f"x = {source}\n")).attributes["x"].expr,
            first_line)
    except template.PieceError as e:
        what = "interpolation" if e.kind == "interp" else "directive"
        raise HclSyntaxError(f"in a heredoc {what}: {e}", e.line) from None
    try:
        return template.build(out)
    except HclSyntaxError as e:
        return Unsupported(f"template with {e} (line {e.line})")


def _int(text: str) -> int | float:
    """An integer literal; one past Python's 4,300-digit conversion limit is infinite (and
    so unknown when evaluated), not a parse error that loses the file."""
    try:
        return int(text)
    except ValueError:
        return math.inf


def expression(node: Tree[Any] | Token) -> Expr:
    if Tree is None:
        _import_lark()
    if isinstance(node, Token):
        if node.type == "INT_LITERAL":
            return Literal(_int(str(node)))
        if node.type == "FLOAT_LITERAL":
            return Literal(float(node))
        return Literal(str(node))
    kind = node.data
    kids = node.children
    if kind == "expr_term":
        sig = _significant(kids)
        return expression(sig[0])
    if kind == "int_lit":
        return Literal(_int(str(kids[0])))
    if kind == "float_lit":
        return Literal(float(str(kids[0])))
    if kind == "literal_value":
        return Literal({"true": True, "false": False, "null": None}[str(kids[0])])
    if kind == "string":
        return _string(node)
    if kind == "template_string":
        return Literal(_unescape(str(kids[0])[2:-2]))
    if kind in {"heredoc_template", "heredoc_template_trim"}:
        return _heredoc(kids[0], kind.endswith("trim"))
    if kind == "identifier":
        return Var(str(kids[0]))
    if kind == "keyword":
        return Var(str(kids[0]))
    if kind == "conditional":
        sig = _significant(kids)
        return Conditional(expression(sig[0]), expression(sig[1]), expression(sig[2]))
    if kind == "binary_op":
        sig = _significant(kids)
        left = expression(sig[0])
        term = sig[1]
        term_sig = _significant(term.children)
        op = str(term_sig[0].children[0])
        return BinOp(op, left, expression(term_sig[1]))
    if kind == "unary_op":
        return UnaryOp(str(kids[0]), expression(kids[1]))
    if kind == "tuple":
        return TupleExpr(tuple(expression(c) for c in _significant(kids)))
    if kind == "object":
        items = []
        for elem in _significant(kids):
            sig = _significant(elem.children)
            key_node = sig[0]
            key_sig = _significant(key_node.children)
            key_expr = expression(key_sig[0])
            # A bare identifier as an object key is the key's name, not a variable.
            if isinstance(key_expr, Var):
                key_expr = Literal(key_expr.name)
            items.append((key_expr, expression(sig[-1])))
        return ObjectExpr(tuple(items))
    if kind == "function_call":
        sig = _significant(kids)
        names = [str(c.children[0]) for c in sig if isinstance(c, Tree) and c.data == "identifier"]
        args_node = next((c for c in sig if isinstance(c, Tree) and c.data == "arguments"), None)
        args: tuple[Expr, ...] = ()
        expand = False
        if args_node is not None:
            arg_kids = _significant(args_node.children)
            expand = any(isinstance(c, Token) and c.type == "ELLIPSIS" for c in arg_kids)
            args = tuple(expression(c) for c in arg_kids if not isinstance(c, Token))
        return Call("::".join(names), args, expand)
    if kind == "index_expr_term":
        target = expression(kids[0])
        idx = kids[1]
        if idx.data == "short_index":
            return Index(target, Literal(int(str(idx.children[1]))))
        return Index(target, expression(_significant(idx.children)[0]))
    if kind == "get_attr_expr_term":
        return GetAttr(expression(kids[0]), _name(_significant(kids[1].children)[-1]))
    if kind in {"attr_splat_expr_term", "full_splat_expr_term"}:
        steps: list[tuple[str, Any]] = []
        for step in kids[1].children[1:]:
            if step.data == "get_attr":
                steps.append(("attr", _name(_significant(step.children)[-1])))
            elif step.data == "short_index":
                steps.append(("index", Literal(int(str(step.children[1])))))
            else:
                steps.append(("index", expression(_significant(step.children)[0])))
        return Splat(expression(kids[0]), tuple(steps))
    if kind in {"for_tuple_expr", "for_object_expr"}:
        return _for(node)
    return Unsupported(kind)


def _for(node: Tree[Any]) -> Expr:
    sig = [c for c in node.children
           if not (isinstance(c, Tree) and c.data == "new_line_or_comment")]
    intro = next(c for c in sig if isinstance(c, Tree) and c.data == "for_intro")
    intro_sig = [c for c in intro.children
                 if isinstance(c, Tree) and c.data != "new_line_or_comment"]
    idents = [str(c.children[0]) for c in intro_sig if c.data == "identifier"]
    coll_node = [c for c in intro_sig if c.data != "identifier"][-1]
    key_var, value_var = (idents[0], idents[1]) if len(idents) == 2 else (None, idents[0])
    cond_node = next((c for c in sig if isinstance(c, Tree) and c.data == "for_cond"), None)
    cond = None
    if cond_node is not None:
        conds = [c for c in cond_node.children
                 if isinstance(c, Tree) and c.data != "new_line_or_comment"]
        cond = expression(conds[0])
    exprs = [c for c in sig if isinstance(c, Tree) and c.data not in {"for_intro", "for_cond"}]
    if node.data == "for_tuple_expr":
        return ForExpr(key_var, value_var, expression(coll_node), expression(exprs[0]), None, cond)
    group = any(isinstance(c, Token) and c.type == "ELLIPSIS" for c in sig)
    return ForExpr(key_var, value_var, expression(coll_node), expression(exprs[1]),
                   expression(exprs[0]), cond, group)
