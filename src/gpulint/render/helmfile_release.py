"""A helmfile release as helmfile completes it before use: its `inherit:` templates merged
under it, and the release template actions it carries (`{{`{{ .Release.Name }}`}}` in a
template: `chart: charts/{{ .Release.Name }}`, `values: [config/{{ .Release.Name }}.yaml]`)
evaluated with `.Release.Name`, `.Release.Namespace`, `.Release.Labels` and `.Release.Chart`.
YAML merge keys (`<<: *default`, the older way to share a template) are merged by the YAML
reader itself. Its `set:` entries apply over its values files, as `helm --set` does.
"""

from __future__ import annotations

from typing import Any

from gpulint.render import gotmpl, helm_set


def templates(docs: list[Any]) -> dict[str, dict[str, Any]]:
    """The `templates:` of every document of a helmfile and its bases, later ones winning."""
    out: dict[str, dict[str, Any]] = {}
    for doc in docs:
        given = doc.get("templates") if isinstance(doc, dict) else None
        for name, spec in (given.items() if isinstance(given, dict) else ()):
            if isinstance(spec, dict):
                out[str(name)] = spec
    return out


def inherit(rel: dict[str, Any], known: dict[str, dict[str, Any]]) -> tuple[dict[str, Any],
                                                                            list[str]]:
    """The release with its `inherit:` templates under it (minus their `except:` keys), and
    the templates it names that do not exist."""
    entries = rel.get("inherit")
    if not isinstance(entries, list):
        return rel, []
    merged: dict[str, Any] = {}
    missing = []
    for entry in entries:
        name = entry.get("template") if isinstance(entry, dict) else None
        if str(name) not in known:
            missing.append(str(name))
            continue
        skip = entry.get("except") if isinstance(entry.get("except"), list) else []
        merged.update({k: v for k, v in known[str(name)].items() if k not in skip})
    merged.update({k: v for k, v in rel.items() if k != "inherit"})
    return merged, missing


def evaluate(rel: dict[str, Any], values: dict[str, Any], env: str) -> tuple[dict[str, Any], int]:
    """String fields with template actions rendered in the release's own scope; also the
    number of actions not evaluated."""
    left = 0

    def walk(node: Any, scope: dict[str, Any] | None) -> Any:
        nonlocal left
        if isinstance(node, str) and "{{" in node:
            text, n = gotmpl.render(node, values, env, scope)
            left += n
            return text
        if isinstance(node, dict):
            return {k: walk(v, scope) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, scope) for v in node]
        return node

    first = {k: walk(rel.get(k), None) for k in ("name", "namespace", "chart") if k in rel}
    labels = rel.get("labels") if isinstance(rel.get("labels"), dict) else {}
    scope = {"Release": {"Name": first.get("name"), "Namespace": first.get("namespace") or "",
                         "Chart": first.get("chart"), "Labels": labels}}
    out = {k: first[k] if k in first else walk(v, scope) for k, v in rel.items()}
    return out, left


Overrides = tuple[dict[str, Any], dict[tuple[Any, ...], int]]  # values map, line of each path


def sets(rel: dict[str, Any], lines: dict[tuple[Any, ...], int], index: int,
         fallback: int) -> tuple[Overrides | None, list[tuple[int, str]]]:
    """The release's `set:` entries (`--set name=value`, after every values file) as one
    values map with the line of each entry, and the entries Helm would refuse (line, why);
    `file:` entries (`--set-file`) are not read."""
    entries = rel.get("set")
    tree: dict[str, Any] = {}
    where: dict[tuple[Any, ...], int] = {}
    refused: list[tuple[int, str]] = []
    for j, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        if "value" in entry:
            value = helm_set.scalar(entry["value"])
        elif isinstance(entry.get("values"), list):
            value = helm_set.scalar(entry["values"])
        else:
            continue
        line = lines.get(("releases", index, "set", j), fallback)
        try:
            path = helm_set.path(entry["name"])
        except helm_set.Refused as e:
            refused.append((line, f"set {entry['name']!r} not applied: {e}"))
            continue
        tree = helm_set.put(tree, path, value)
        where[path] = line
    return ((tree, where) if tree else None), refused
