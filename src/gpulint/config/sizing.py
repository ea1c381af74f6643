"""The `sizing:` configuration section: how much memory a model needs and when a cheaper GPU
does the same work. docs/sizing.md ("Settings") gives every default with its reasoning.

Older configurations set these as options of the rules that used them
(`rules.<id>.options.headroom`…). Each rule file names the options it used to have under
`deprecated_options` (option → setting); `from_rule_options` maps them here, once, with a
deprecation note.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gpulint.config.tags import TagSettings

DEFAULT_HEADROOM = 0.9  # leave 10% of GPU memory for fragmentation and spikes
# Sequences decoded at once when none is declared: a modest interactive service; 8 x 8k = 64k
# tokens of KV cache.
DEFAULT_CONCURRENCY = 8

# setting -> (type, lowest, highest); the configuration schema says the same.
LIMITS: dict[str, tuple[type, float, float]] = {
    "headroom": (float, 0.05, 1.0), "fit_headroom": (float, 0.05, 1.0),
    "concurrency": (int, 1, 100_000), "context": (int, 1, 100_000_000),
    "min_relative_throughput": (float, 0.0, 100.0), "fit_margin": (float, 0.0, 1.0),
}


@dataclass(frozen=True)
class SizingSettings:
    headroom: float = DEFAULT_HEADROOM  # share of GPU memory an alternative may fill
    fit_headroom: float = DEFAULT_HEADROOM  # share the model must start within
    # "Does not fit" only when the need exceeds the usable memory by more than this share: an
    # estimate is not exact, and a false error blocks a pull request.
    fit_margin: float = 0.1
    concurrency: int | None = DEFAULT_CONCURRENCY  # typical-load sequences
    context: int | None = None  # tokens when the manifest declares none (None: sizing's)
    # A current-generation GPU must give this share of the memory bandwidth and tensor
    # throughput of the GPUs it replaces.
    min_relative_throughput: float = 0.9

    @classmethod
    def from_config(cls, section: Mapping[str, Any] | None) -> SizingSettings:
        """The `sizing:` section (already validated by the configuration schema)."""
        values = {k: v for k, v in (section or {}).items() if k in LIMITS}
        return dataclasses.replace(cls(), **{k: _typed(k, v) for k, v in values.items()})


def _typed(name: str, value: Any) -> Any:
    return None if value is None else LIMITS[name][0](value)


def _problem(name: str, value: Any) -> str | None:
    if value is None and name in ("concurrency", "context"):
        return None
    kind, lo, hi = LIMITS[name]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and lo <= value <= hi \
            and (kind is float or float(value).is_integer()):
        return None
    return (f"must be {'a whole number' if kind is int else 'a number'} from {lo:g} to {hi:g}; "
            "using the default")


def from_rule_options(rules: Iterable[Any], sizing: SizingSettings, tags: TagSettings,
                      rule_options: Mapping[str, Mapping[str, Any]] | None = None
                      ) -> tuple[SizingSettings, TagSettings, list[str]]:
    """Settings with the deprecated rule options a configuration (or a custom rule file) still
    sets applied over them, and one note per option: deprecated, or unusable."""
    size: dict[str, Any] = {}
    tag: dict[str, Any] = {}
    notes: list[str] = []
    for rule in rules:
        options = {**(rule.options or {}), **(rule_options or {}).get(rule.id, {})}
        for option, target in sorted((rule.deprecated_options or {}).items()):
            if option not in options:
                continue
            value = options[option]
            section, name = target.split(".", 1)
            where = f"rule option {rule.id}.{option}"
            problem = _problem(name, value) if section == "sizing" else None
            if problem:
                notes.append(f"{where} = {value!r} {problem}")
                continue
            (size if section == "sizing" else tag)[name] = value
            notes.append(f"{where} is deprecated: set {target} in the configuration instead")
    return (dataclasses.replace(sizing, **{k: _typed(k, v) for k, v in size.items()}),
            dataclasses.replace(tags, **TagSettings.fields_from(tag)), notes)
