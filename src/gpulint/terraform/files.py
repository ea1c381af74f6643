"""Files that Terraform functions read (`file`, `fileexists`, `templatefile`, `fileset`) and
the YAML they decode, confined to the scanned tree.

A path is resolved (symlinks included) before anything is opened; one that leads outside the
scanned paths is unknown ("outside the scanned tree") and never read. Reading goes through the
scan's own reader, so the size limit and encoding checks are those of every scanned file.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import yaml

from gpulint.files import containment
from gpulint.files.safe_yaml import MAX_NESTING_DEPTH, node_graph_problem, too_deep_line
from gpulint.model import Diagnostic, Unknown
from gpulint.terraform.fileset import GlobError
from gpulint.terraform.fileset import fileset as glob

try:  # libyaml when available, as for manifests
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]

ReadText = Callable[[str], "tuple[str | None, Diagnostic | None]"]


class FileAccess:
    """Reads files under the scan's roots, each once."""

    def __init__(self, roots: tuple[str, ...], read: ReadText, cwd: str = ".",
                 cache: dict[str, Any] | None = None) -> None:
        self.roots = tuple(os.path.realpath(r) for r in roots)
        self._read = read
        self.cwd = cwd  # where Terraform runs: the root module's directory
        self._cache: dict[str, Any] = {} if cache is None else cache

    def rooted(self, root_module: str) -> FileAccess:
        """The same access for a root module: relative paths are from its directory, as when
        Terraform runs there."""
        return FileAccess((), self._read, root_module, self._cache)._with_roots(self.roots)

    def _with_roots(self, roots: tuple[str, ...]) -> FileAccess:
        self.roots = roots
        return self

    def _inside(self, path: str) -> str | Unknown:
        real = os.path.realpath(os.path.join(self.cwd, path))
        if not self.contains(real):
            return Unknown(f"{path} is outside the scanned tree (not read)")
        return real

    def contains(self, real: str) -> bool:
        """Inside a root and not in its version-control metadata (`.git/config` holds the
        checkout's token)."""
        return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep)
                   for r in self.roots) and not containment.in_vcs(real, self.roots)

    def read_paths(self) -> set[str]:
        """Real paths of the files read so far (shared by every root module of the scan)."""
        return {path for path, text in self._cache.items() if isinstance(text, str)}

    def fileset(self, path: str, pattern: str) -> list[str] | Unknown:
        """fileset(): the regular files under `path` matching `pattern`, in the tree only."""
        real = self._inside(path)
        if isinstance(real, Unknown):
            return real
        if not os.path.isdir(real):
            return []  # as Terraform: no such directory, no files
        try:
            return glob(real, pattern, self.contains)
        except GlobError as e:
            return Unknown(f"{path}, {pattern!r}: {e}")

    def exists(self, path: str) -> bool | Unknown:
        real = self._inside(path)
        return real if isinstance(real, Unknown) else os.path.isfile(real)

    def read(self, path: str) -> str | Unknown:
        real = self._inside(path)
        if isinstance(real, Unknown):
            return real
        if real not in self._cache:
            if not os.path.isfile(real):
                self._cache[real] = Unknown(f"{path} does not exist")
            else:
                text, diag = self._read(real)
                self._cache[real] = text if text is not None else \
                    Unknown(f"{path} could not be read: {diag.message if diag else 'unreadable'}")
        found: str | Unknown = self._cache[real]
        return found


def yaml_decode(text: str) -> Any:
    """One YAML document as Terraform's yamldecode reads it, with the alias and depth bounds
    of manifests; Unknown (with why) otherwise."""
    deep = too_deep_line(text)  # before libyaml's composer recurses (it segfaulted)
    if deep is not None:
        return Unknown(f"yamldecode(): nested deeper than {MAX_NESTING_DEPTH} levels "
                       f"(line {deep})")
    loader = _SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        problem = node_graph_problem(node, "&" in text)
        if problem:
            return Unknown(f"yamldecode(): {problem}")
        return _plain(loader.construct_document(node))
    except yaml.YAMLError as e:
        return Unknown(f"yamldecode(): not valid YAML ({str(e).splitlines()[0]})")
    except (ValueError, OverflowError) as e:  # a date-shaped scalar that is not a date
        return Unknown(f"yamldecode(): {e}")
    finally:
        loader.dispose()


def _plain(value: Any) -> Any:
    """Dates and other YAML scalars as the strings Terraform keeps them as."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)
