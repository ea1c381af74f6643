"""Offline GPU price and spec catalog.

The data ships as ``gpulint/data/gpu_catalog.json`` (built by ``scripts/build_catalog.py``).
Parsed once per process. ``gpulint catalog update`` installs newer ones in the user's data
directory (catalog_store); the newest valid one not older than the bundled file is used by
default, ``use_catalog_file(path)`` picks a file.

Lookups never guess: anything unknown returns None, never 0 ("free" is not "not priceable").
"""

from __future__ import annotations

import copy
import functools
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from gpulint.providers import ANY_REGION

__all__ = [
    "Catalog",
    "InstanceSpec",
    "Price",
    "active_origin",
    "cheapest_per_gpu_hour",
    "default_region",
    "gcp_accelerator",
    "gcp_accelerator_price",
    "gcp_accelerators",
    "gcp_host_price",
    "gpu_models",
    "instance",
    "instances",
    "load",
    "metadata",
    "price",
    "price_table",
    "regions",
    "use_catalog_file",
]

SUPPORTED_SCHEMA_VERSIONS = frozenset({1})
_BUNDLED = "gpu_catalog.json"


@dataclass(frozen=True)
class InstanceSpec:
    """One instance type, or one GCP accelerator (a GPU device or a TPU slice).

    ``gpu_memory_gib`` is the memory of one full device. For fractional GPUs
    (AWS g6f, Azure NVadsA10 v5) the instance sees ``gpu_count * gpu_memory_gib``.
    For non-GPU accelerators ``gpu_model`` names the accelerator (``Inferentia2``,
    ``TPU-v6e``); GPU-memory rules should only look at ``accelerator_kind == "gpu"``.
    """

    provider: str
    name: str
    accelerator_kind: str
    gpu_model: str | None
    gpu_count: float
    gpu_memory_gib: float | None
    vcpus: float | None
    memory_gib: float | None
    note: str | None = None  # source caveat, e.g. "NVv4 partitions one MI25 ..."

    @property
    def total_gpu_memory_gib(self) -> float | None:
        if self.gpu_memory_gib is None:
            return None
        return round(self.gpu_count * self.gpu_memory_gib, 2)


@dataclass(frozen=True)
class Price:
    """USD per hour. None means the snapshot has no such price."""

    ondemand: float | None
    spot: float | None


class Catalog:
    """Parsed catalog with lookup indexes. Build with ``load()``; treat as read-only."""

    def __init__(self, data: dict[str, Any], origin: str) -> None:
        if not isinstance(data, dict):
            raise ValueError(f"{origin}: not a gpulint catalog (not a JSON object)")
        version = data.get("schema_version")
        if version not in SUPPORTED_SCHEMA_VERSIONS:
            raise ValueError(f"{origin}: unsupported catalog schema_version {version!r}")
        if "providers" not in data:
            raise ValueError(f"{origin}: not a gpulint catalog (no 'providers')")
        from gpulint.pricing.catalog_shape import problem

        found = problem(data)
        if found:
            raise ValueError(f"{origin}: not a usable gpulint catalog: {found}")
        self.data = data
        self.origin = origin
        # Azure size names are case-insensitive in the Azure API and in Terraform.
        self._azure_names = {n.lower(): n for n in self._provider("azure").get("instances", {})}

    def _provider(self, provider: str) -> dict[str, Any]:
        found: dict[str, Any] = self.data["providers"].get(provider.lower(), {})
        return found

    def canonical_name(self, provider: str, name: str) -> str | None:
        table = self._provider(provider).get("instances", {})
        if name in table:
            return name
        if provider.lower() == "azure":
            return self._azure_names.get(name.lower())
        return None

    def spec(self, provider: str, name: str) -> InstanceSpec | None:
        key = self.canonical_name(provider, name)
        if key is None:
            return None
        return _to_spec(provider.lower(), key, self._provider(provider)["instances"][key])

    def price(self, provider: str, name: str, region: str) -> Price | None:
        key = self.canonical_name(provider, name)
        if key is None:
            return None
        regions = self._provider(provider).get("prices", {}).get(key, {})
        found = regions.get(_region_key(provider, region))  # else the one price everywhere
        return _to_price(found if found is not None else regions.get(ANY_REGION))


def _region_key(provider: str, region: str) -> str:
    # Terraform accepts Azure display names ("East US"); the catalog keys are "eastus".
    if provider.lower() == "azure":
        return region.replace(" ", "").lower()
    return region


def _to_spec(provider: str, name: str, rec: dict[str, Any]) -> InstanceSpec:
    return InstanceSpec(
        provider=provider,
        name=name,
        accelerator_kind=rec["kind"],
        gpu_model=rec["model"],
        gpu_count=float(rec["count"]),
        gpu_memory_gib=rec["mem"],
        vcpus=rec["vcpus"],
        memory_gib=rec["ram"],
        note=rec.get("note"),
    )


def _to_price(pair: list[float | None] | None) -> Price | None:
    if pair is None:
        return None
    return Price(ondemand=pair[0], spot=pair[1])


@functools.cache
def _load_cached(path: str | None) -> Catalog:
    if path is None:
        text = resources.files("gpulint.data").joinpath(_BUNDLED).read_text(encoding="utf-8")
        return Catalog(json.loads(text), f"gpulint/data/{_BUNDLED}")
    from gpulint.files.reader import TOOL_FILE_LIMIT, read_file_text

    return Catalog(json.loads(read_file_text(path, TOOL_FILE_LIMIT)), path)


def load(path: str | None = None) -> Catalog:
    """The bundled catalog (path None) or the catalog in ``path``; parsed once per path."""
    return _load_cached(None if path is None else str(Path(path).resolve()))


_active_path: str | None = None


def use_catalog_file(path: str | None) -> Catalog:
    """Make the module-level functions read ``path`` (None: back to the default catalog, the
    newest installed one or the bundled file).

    The file is loaded and validated first, so a bad path leaves the active catalog as it was.
    """
    global _active_path
    catalog = load(path) if path is not None else _default()
    _active_path = None if path is None else str(Path(path).resolve())
    return catalog


_REQUIRED_KEYS = ("snapshot_date", "default_regions", "gpu_models", "sources", "providers")


@functools.cache
def _default_for(data_dir: str, xdg_data_home: str) -> Catalog:
    from gpulint.pricing import catalog_store

    bundled = load(None)
    for path in catalog_store.installed():
        try:
            candidate = load(str(path))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # a damaged file: the next newest, or the bundled one
        if any(k not in candidate.data for k in _REQUIRED_KEYS):
            continue
        if str(candidate.data.get("snapshot_date")) >= str(bundled.data.get("snapshot_date")):
            return candidate
        break  # older than this release's own snapshot: the bundled one is newer
    return bundled


def _default() -> Catalog:
    """The newest valid installed catalog, else the bundled one (per data directory)."""
    # Keyed by the variables that choose the directory: lookups run in hot loops.
    return _default_for(os.environ.get("GPULINT_DATA_DIR", ""), os.environ.get("XDG_DATA_HOME", ""))


def forget_installed() -> None:
    """Look for installed catalogs again (after an install)."""
    _default_for.cache_clear()


def _active() -> Catalog:
    return load(_active_path) if _active_path is not None else _default()


# --------------------------------------------------------------------------- public API


def metadata() -> dict[str, Any]:
    data = _active().data
    keys = ("snapshot_date", "sources", "currency", "schema_version",
            "hours_per_month_default", "default_regions", "adjustments")
    meta = {k: copy.deepcopy(data[k]) for k in keys if k in data}
    meta["origin"] = _active().origin
    return meta


def kind() -> str:
    """"bundled", "installed" (by `gpulint catalog update`) or "file" (--catalog)."""
    cat = _active()
    if cat.origin == f"gpulint/data/{_BUNDLED}":
        return "bundled"
    return "file" if _active_path is not None else "installed"


def active_origin() -> str:
    """Which catalog file the module-level functions read (a cache key for derived data)."""
    return _active().origin


def default_region(provider: str) -> str:
    regions = _active().data["default_regions"]
    try:
        return str(regions[provider.lower()])
    except KeyError:
        known = ", ".join(sorted(regions))
        raise ValueError(f"unknown provider {provider!r}; expected one of: {known}") from None


def instance(provider: str, name: str) -> InstanceSpec | None:
    """Case-sensitive for aws/gcp names, case-insensitive for Azure VM sizes."""
    return _active().spec(provider, name)


def price(provider: str, name: str, region: str) -> Price | None:
    """Whole-instance USD/h. For GCP bundled types (a2/a3/a4/g2) this already includes
    the GPUs. None when the type or the region is not in the snapshot."""
    return _active().price(provider, name, region)


def regions(provider: str, name: str) -> list[str]:
    cat = _active()
    key = cat.canonical_name(provider, name)
    if key is None:
        return []
    return sorted(cat._provider(provider).get("prices", {}).get(key, {}))


def price_table(provider: str, name: str) -> dict[str, Price]:
    """Every region's price of an instance type, or of a GCP accelerator when ``provider`` is
    "gcp-accelerator" (per GPU-hour or per slice-hour)."""
    cat = _active()
    if provider == "gcp-accelerator":
        key = _gcp_accelerator_key(name)
        rows = cat._provider("gcp").get("accelerator_prices", {}).get(key, {}) if key else {}
    else:
        key = cat.canonical_name(provider, name)
        rows = cat._provider(provider).get("prices", {}).get(key, {}) if key else {}
    out = {region: _to_price(pair) for region, pair in sorted(rows.items())}
    return {region: p for region, p in out.items() if p is not None}


def gcp_accelerators() -> list[InstanceSpec]:
    table = _active()._provider("gcp").get("accelerators", {})
    return [_to_spec("gcp", name, table[name]) for name in sorted(table)]


def gke_accelerator_name(model: object) -> str | None:
    """The API name GKE labels a GPU model's nodes with (bundled machine types too), when one."""
    names = [a.name for a in gcp_accelerators()
             if a.accelerator_kind == "gpu" and a.gpu_model == model]
    return names[0] if len(names) == 1 else None


def providers() -> list[str]:
    return sorted(_active().data["providers"])


def instances(provider: str) -> list[InstanceSpec]:
    table = _active()._provider(provider).get("instances", {})
    return [_to_spec(provider.lower(), name, table[name]) for name in sorted(table)]


def _gcp_accelerator_key(api_name: str) -> str | None:
    table = _active()._provider("gcp").get("accelerators", {})
    name = api_name.strip().lower()
    # Terraform google_tpu_* resources write TPU types without the "tpu-" prefix ("v6e-8").
    for key in (name, "tpu-" + name):
        if key in table:
            return key
    return None


def gcp_accelerator(api_name: str) -> InstanceSpec | None:
    """A GCE accelerator by API name ("nvidia-tesla-t4", "nvidia-l4", "nvidia-a100-80gb")
    or a TPU slice ("tpu-v6e-8" or "v6e-8"). ``note`` says whether a GPU attaches to
    n1 hosts or only comes bundled in a machine type."""
    key = _gcp_accelerator_key(api_name)
    if key is None:
        return None
    return _to_spec("gcp", key, _active()._provider("gcp")["accelerators"][key])


def gcp_accelerator_price(api_name: str, region: str) -> Price | None:
    """USD per GPU-hour for GPUs; per slice-hour for TPU slices. Do not add this to the
    price of a bundled machine type: that price already includes the GPUs."""
    key = _gcp_accelerator_key(api_name)
    if key is None:
        return None
    return _to_price(_active()._provider("gcp")["accelerator_prices"].get(key, {}).get(region))


def gcp_host_price(machine_type: str, region: str) -> Price | None:
    """USD/h of an n1-* host VM, to combine as host + N x gcp_accelerator_price()."""
    host_prices = _active()._provider("gcp").get("host_prices", {})
    return _to_price(host_prices.get(machine_type, {}).get(region))


def components(provider: str) -> dict[str, float]:
    """USD/h of one vCPU and one GiB ("vcpu", "memory_gib") where a pod pays them (CoreWeave)."""
    found = _active()._provider(provider).get("components", {})
    return {k: float(v) for k, v in found.items() if isinstance(v, (int, float))}


def gpu_models() -> dict[str, float]:
    """GPU model -> GiB per device (smallest figure any source reports)."""
    return dict(_active().data["gpu_models"])


def cheapest_per_gpu_hour(
    gpu_model: str, provider: str | None = None
) -> tuple[float, str, str, str] | None:
    """Lowest on-demand USD per GPU-hour for ``gpu_model`` over whole instances:
    (usd, provider, instance type, region).

    Only instances with at least one whole device count (a pod asking for one GPU
    cannot run on a 1/8 slice). GCP GPUs that attach to n1 hosts are not instances
    and are not considered; price them with gcp_accelerator_price + gcp_host_price.
    """
    cat = _active()
    wanted = gpu_model.casefold()
    providers = [provider.lower()] if provider else sorted(cat.data["providers"])
    best: tuple[float, str, str, str] | None = None
    for prov in providers:
        table = cat._provider(prov)
        for name, rec in table.get("instances", {}).items():
            if (rec["model"] or "").casefold() != wanted or rec["count"] < 1:
                continue
            for region, (ondemand, _spot) in table.get("prices", {}).get(name, {}).items():
                if ondemand is None:
                    continue
                candidate = (round(ondemand / rec["count"], 6), prov, name, region)
                if best is None or candidate < best:
                    best = candidate
    return best
