"""The one `Settings` object a scan runs with, built once from defaults < configuration file <
command-line flags. It is frozen: nothing downstream changes it, and nothing else carries
configuration into the pipeline.

A flag that was given replaces the file's value (a list flag replaces the whole list, as the
file's list would have been the flag's default); `Flags` holds None or () for a flag not given.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gpulint import globs, providers
from gpulint.config import clusters as clusters_mod
from gpulint.config import overrides as overrides_mod
from gpulint.config.cost import DEFAULT_HOURS, CostOptions
from gpulint.config.inputs import Inputs
from gpulint.config.load import Config, ConfigError, display
from gpulint.config.sizing import SizingSettings
from gpulint.config.tags import TagSettings
from gpulint.files.text import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_HCL_BYTES
from gpulint.files.words import did_you_mean
from gpulint.model import DEFAULT_FAIL_ON, Severity

MAX_HOURS = 744  # the longest month


class SettingsError(ValueError):
    """A flag value that cannot be used (a usage error)."""


@dataclass(frozen=True)
class ChartSettings:
    """A `helm.charts` entry: how one chart directory of the scan is rendered."""

    directory: str  # absolute
    values: tuple[str, ...] = ()  # absolute, after the chart's values.yaml and --helm-values
    release: str | None = None
    namespace: str | None = None


@dataclass(frozen=True)
class ScanSettings:
    """What to read and how: the loading stages' settings."""

    inputs: Inputs = field(default_factory=Inputs)
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_hcl_bytes: int = DEFAULT_MAX_HCL_BYTES  # Terraform files above it are not parsed
    helm_values: tuple[str, ...] = ()  # values files for `helm template`
    helm_charts: tuple[ChartSettings, ...] = ()  # the configuration's per-chart settings
    # helm.helmfile.environments: the helmfile environments read (None: every declared one)
    helmfile_environments: tuple[str, ...] | None = None
    exclude: tuple[str, ...] = ()  # absolute path globs (globs.py)
    # When every path given is a file (pre-commit), report on those files only; their Terraform
    # module directories are still loaded whole for context.
    report_given_files: bool = False
    jobs: int = 0  # parse workers; 0 = one per core (used only for large scans), 1 = serial
    cache_dir: str | None = None  # parse cache directory; None = no cache
    strict: bool = False  # a chart or kustomization that cannot be rendered is a warning
    # gpulint's own files (the configuration, the baseline), absolute: not scanned or counted.
    own_files: tuple[str, ...] = ()
    progress: Callable[[int, int], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ModelSpec:
    """A `models:` entry: an address glob and/or an absolute path glob → a declared model."""

    model: str
    source: str  # where it was declared, for the report
    address: str | None = None
    path: str | None = None
    precision: str | None = None
    purpose: str | None = None
    tensor_parallel: int | None = None
    pipeline_parallel: int | None = None
    data_parallel: int | None = None


@dataclass(frozen=True)
class SuppressionSettings:
    require_reason: bool = True  # `# gpulint:ignore` needs `-- reason`
    today: dt.date | None = None  # for expiry; None means today


@dataclass(frozen=True)
class RuleSettings:
    dirs: tuple[str, ...] = ()  # extra rule directories
    # Per-rule option and severity overrides on top of the loaded rules (library use; the
    # configuration file's `rules:` section is applied to the rules when they are loaded).
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    severities: Mapping[str, Severity] = field(default_factory=dict)


@dataclass(frozen=True)
class Settings:
    scan: ScanSettings = field(default_factory=ScanSettings)
    pricing: CostOptions = field(default_factory=CostOptions)
    sizing: SizingSettings = field(default_factory=SizingSettings)  # `sizing:`
    tags: TagSettings = field(default_factory=TagSettings)  # `tags:`
    models: tuple[ModelSpec, ...] = ()
    clusters: tuple[clusters_mod.Cluster, ...] = ()  # `clusters:`, in the order written
    suppressions: SuppressionSettings = field(default_factory=SuppressionSettings)
    rules: RuleSettings = field(default_factory=RuleSettings)
    fail_on: str = DEFAULT_FAIL_ON
    select: tuple[str, ...] = ()  # `select:` rule ids or prefixes reported (all when empty)
    ignore: tuple[str, ...] = ()  # `ignore:` rule ids or prefixes not reported
    # Also fail on tool warnings and on GPU resources not priced or evaluated (report/exit.py).
    strict: bool = False
    max_increase_usd: float | None = None  # `gpulint diff` threshold
    # `baseline:` / --baseline: findings recorded there are not reported (report/baseline.py).
    baseline: str | None = None
    budget_basis: str = "expected"  # `thresholds.basis`: expected | max (the worst case)
    allow_unpriced: bool = False  # an unpriced GPU change does not fail a budgeted diff
    catalog_file: str | None = None  # price from this snapshot instead of the bundled one
    catalog_max_age_days: int | None = None  # staleness limit for the report (docs/catalog.md)
    source: Config | None = field(default=None, compare=False)  # the configuration file used


@dataclass(frozen=True)
class Flags:
    """Command-line values; None or () when the flag was not given."""

    inputs: Inputs = field(default_factory=Inputs)
    hours: float | None = None
    hours_for: tuple[str, ...] = ()  # WORKLOAD=HOURS
    default_regions: tuple[str, ...] = ()  # PROVIDER=REGION
    pricing_overrides: str | None = None  # a file
    catalog_file: str | None = None
    rules_dirs: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # relative to the working directory
    helm_values: tuple[str, ...] = ()
    max_file_kib: int | None = None
    max_hcl_kib: int | None = None
    jobs: int = 0
    cache_dir: str | None = None
    report_given_files: bool = False
    fail_on: str | None = None
    strict: bool | None = None
    max_increase_usd: float | None = None
    baseline: str | None = None
    no_baseline: bool = False  # --no-baseline: report every finding
    allow_unpriced: bool = False
    progress: Callable[[int, int], None] | None = None


def build(config: Config | None, flags: Flags) -> Settings:
    """defaults < file < flags. Raises SettingsError for a bad flag, ConfigError for a file
    value that cannot be used."""
    d: Mapping[str, Any] = config.data if config is not None else {}
    hours_cfg: Mapping[str, Any] = d.get("usage_hours", {})
    thresholds: Mapping[str, Any] = d.get("thresholds", {})
    file_paths: Callable[[str], list[str]] = \
        (lambda key: [config.relative(p) for p in d.get(key, ())]) if config is not None \
        else (lambda key: [])
    cwd = os.getcwd()
    exclude = [globs.anchor(g, cwd) for g in flags.exclude] if flags.exclude else \
        [globs.anchor(os.path.expanduser(g), config.base_dir) for g in d.get("exclude", ())] \
        if config is not None else []
    strict = flags.strict if flags.strict is not None else bool(d.get("strict", False))
    baseline = None if flags.no_baseline else flags.baseline or (
        config.relative(d["baseline"]) if config is not None and d.get("baseline") else None)
    own = tuple(os.path.abspath(p) for p in (config.path if config else None, baseline) if p)
    scan = ScanSettings(
        inputs=_with_dir_var_files(config, flags.inputs),
        max_file_bytes=(flags.max_file_kib * 1024 if flags.max_file_kib is not None
                        else DEFAULT_MAX_FILE_BYTES),
        max_hcl_bytes=(flags.max_hcl_kib * 1024 if flags.max_hcl_kib is not None
                       else DEFAULT_MAX_HCL_BYTES),
        helm_values=flags.helm_values, helm_charts=_charts(config),
        helmfile_environments=_helmfile_environments(config), exclude=tuple(exclude),
        report_given_files=flags.report_given_files, jobs=flags.jobs,
        cache_dir=flags.cache_dir, strict=strict, own_files=own, progress=flags.progress)
    pricing = CostOptions(
        hours=flags.hours if flags.hours is not None
        else float(hours_cfg.get("default", DEFAULT_HOURS)),
        hours_by_workload=_hours_for(flags.hours_for) if flags.hours_for
        else {k: float(v) for k, v in hours_cfg.get("by_workload", {}).items()},
        hours_by_address={a: float(h) for a, h in hours_cfg.get("by_resource", {}).items()},
        overrides=_overrides(config, flags.pricing_overrides),
        default_regions=_regions(flags.default_regions) if flags.default_regions
        else {k.lower(): v for k, v in d.get("regions", {}).items()})
    return Settings(
        scan=scan, pricing=pricing, models=_models(config),
        clusters=clusters_mod.from_config(config),
        sizing=SizingSettings.from_config(d.get("sizing")),
        tags=TagSettings.from_config(d.get("tags")),
        suppressions=SuppressionSettings(
            require_reason=d.get("suppressions", {}).get("require_reason", True)),
        rules=RuleSettings(dirs=flags.rules_dirs or tuple(file_paths("rules_dirs"))),
        fail_on=flags.fail_on or d.get("fail_on", DEFAULT_FAIL_ON),
        select=tuple(d.get("select", ())), ignore=tuple(d.get("ignore", ())),
        strict=strict,
        max_increase_usd=flags.max_increase_usd if flags.max_increase_usd is not None
        else _float_or_none(thresholds.get("max_increase_usd")),
        baseline=baseline,
        budget_basis=str(thresholds.get("basis", "expected")),
        allow_unpriced=flags.allow_unpriced,
        catalog_file=flags.catalog_file,
        catalog_max_age_days=d.get("catalog", {}).get("max_age_days"), source=config)


def _with_dir_var_files(config: Config | None, inputs: Inputs) -> Inputs:
    """The configuration's terraform.var_files: directory (relative to the file, wildcards
    allowed) → var files relative to that directory."""
    section = config.data.get("terraform", {}) if config is not None else {}
    by_dir = section.get("var_files", {}) if isinstance(section, dict) else {}
    if isinstance(section, dict) and section.get("var_file_variants") is True:
        inputs = dataclasses.replace(inputs, var_file_variants=True)
    if not by_dir:
        return inputs
    pairs = [(config.relative(d) if config is not None else d, list(files))
             for d, files in by_dir.items()]
    return dataclasses.replace(inputs, dir_var_files=[*inputs.dir_var_files, *pairs])


def _charts(config: Config | None) -> tuple[ChartSettings, ...]:
    """The configuration's helm.charts: chart directory → values files, release, namespace,
    paths relative to the file."""
    section = config.data.get("helm", {}) if config is not None else {}
    charts = section.get("charts", {}) if isinstance(section, dict) else {}
    if config is None or not isinstance(charts, dict):
        return ()
    return tuple(ChartSettings(os.path.abspath(config.relative(d)),
                               tuple(os.path.abspath(config.relative(v))
                                     for v in spec.get("values", ())),
                               spec.get("release"), spec.get("namespace"))
                 for d, spec in charts.items() if isinstance(spec, dict))


def _helmfile_environments(config: Config | None) -> tuple[str, ...] | None:
    section = config.data.get("helm", {}) if config is not None else {}
    helmfiles = section.get("helmfile", {}) if isinstance(section, dict) else {}
    names = helmfiles.get("environments") if isinstance(helmfiles, dict) else None
    return tuple(str(n) for n in names) if isinstance(names, list) else None


def _float_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


def _pairs(values: tuple[str, ...], flag: str, what: str) -> dict[str, str]:
    out = {}
    for item in values:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise SettingsError(f"{flag} expects {what}, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _hours_for(values: tuple[str, ...]) -> dict[str, float]:
    from gpulint.model import WORKLOADS

    known = sorted(WORKLOADS | {"unknown"})
    out: dict[str, float] = {}
    for workload, hours in _pairs(values, "--hours-for", "WORKLOAD=HOURS").items():
        if workload not in known:
            raise SettingsError(f"--hours-for: unknown workload {workload!r}"
                                f"{did_you_mean(workload, known)}; expected one of "
                                f"{', '.join(known)}")
        try:
            value = float(hours)
        except ValueError:
            value = -1.0
        if not 0 <= value <= MAX_HOURS:
            raise SettingsError(f"--hours-for {workload}: hours must be a number from 0 to "
                                f"{MAX_HOURS}, got {hours!r}")
        out[workload] = value
    return out


def _regions(values: tuple[str, ...]) -> dict[str, str]:
    regions = _pairs(values, "--default-region", "PROVIDER=REGION")
    for provider in regions:
        if providers.get(provider) is None:
            raise SettingsError(f"--default-region: unknown provider {provider!r}"
                                f"{did_you_mean(provider.lower(), providers.NAMES)}; "
                                f"expected {providers.listing()}")
    return {k.lower(): v for k, v in regions.items()}


def _overrides(config: Config | None,
               flag: str | None) -> overrides_mod.PricingOverrides | None:
    """The flag's file, else the file the configuration names, else its inline mapping."""
    written = config.data.get("pricing_overrides") if config is not None else None
    if flag is None and isinstance(written, str) and config is not None:
        flag = display(config.relative(written))
    if flag is not None:
        try:
            return overrides_mod.load(flag)
        except overrides_mod.OverridesError as e:
            raise SettingsError(str(e)) from None
    if config is None or not isinstance(written, dict):
        return None
    key = ("pricing_overrides",)
    lines = [config.lines.get((*key, "overrides", i))
             for i in range(len(written.get("overrides") or ()))]
    try:
        return overrides_mod.from_mapping(written, display(config.path), config.lines.get(key),
                                          lines)
    except overrides_mod.OverridesError as e:
        raise ConfigError(str(e)) from None


def _models(config: Config | None) -> tuple[ModelSpec, ...]:
    if config is None:
        return ()
    source = f"config {os.path.basename(config.path)}"
    return tuple(ModelSpec(
        m["model"], source, address=m.get("address"),
        path=config.relative(m["path"]) if "path" in m else None,
        precision=m.get("precision"), purpose=m.get("purpose"),
        tensor_parallel=m.get("tensor_parallel"), pipeline_parallel=m.get("pipeline_parallel"),
        data_parallel=m.get("data_parallel")) for m in config.data.get("models", []))
