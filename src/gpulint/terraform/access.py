"""Reading into values the way Terraform does: an attribute of an object, an element of a list
or a map, and a value's kind as Terraform names it in messages."""

from __future__ import annotations

from typing import Any

from gpulint.model import Unknown
from gpulint.terraform.text_functions import to_str


def type_name(value: Any) -> str:
    """A value's kind as Terraform names it, for messages (never a Python type name)."""
    if value is None:
        return "a null value"
    if isinstance(value, bool):
        return "a bool"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    return "an object" if isinstance(value, dict) else "a value of unknown type"


def get_attr(value: Any, name: str, expr: Any = None) -> Any:
    if isinstance(value, Unknown):
        return value
    if isinstance(value, dict):
        if name in value:
            return value[name]
        return Unknown(f"attribute '{name}' not found")
    return Unknown(f"cannot read attribute '{name}' of {type_name(value)}")


def index(value: Any, key: Any) -> Any:
    if isinstance(value, Unknown):
        return value
    if isinstance(key, Unknown):
        return key
    if isinstance(value, dict):
        k = _key(key)
        return value[k] if k in value else Unknown(f"key {k!r} not found")
    if isinstance(value, list):
        try:
            return value[int(key)]
        except (ValueError, TypeError, IndexError):
            return Unknown(f"index {key!r} out of range")
    return Unknown(f"cannot index {type_name(value)}")


def _key(v: Any) -> str:
    """A map key as Terraform converts it to a string."""
    if isinstance(v, (dict, list)):
        return str(v)
    return to_str(v)
