"""SageMaker ml.* rates by use. SageMaker bills an instance at a rate of its own, above EC2's, and
the rate depends on what the instance runs: an endpoint (hosting), a training job, a notebook
instance or a HyperPod cluster. The fact builders say which (`sagemaker.use`); the resource is
priced at that use's rate where the bundled table has it (data/sagemaker_rates.csv, whose header
names each row's source and date), else at the EC2 rate of the same instance as a labelled lower
bound.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from weakref import WeakKeyDictionary

from gpulint.fact_types import Resource
from gpulint.model import Unknown
from gpulint.pricing.price_types import HourlyPrice

USES = ("hosting", "training", "notebook", "hyperpod")
_SOURCE_LINE = re.compile(r"# source (\w+): (.*)")
# The source label of each resource priced at a SageMaker rate, for the end of its basis.
_PRICED_AT: WeakKeyDictionary[Resource, str] = WeakKeyDictionary()


@dataclass(frozen=True)
class Rate:
    usd_hr: float
    source: str  # the public figure's source and date (its label), for the price basis


def _text() -> str:
    return resources.files("gpulint.data").joinpath("sagemaker_rates.csv").read_text("utf-8")


def _sources(text: str) -> dict[str, str]:
    """Source key → its label: the `# source KEY: label` lines of the header (the indented
    lines under each say where the figure was read; they are for readers of the file)."""
    return {m.group(1): m.group(2).strip()
            for m in map(_SOURCE_LINE.match, text.splitlines()) if m}


@lru_cache(maxsize=1)
def _rates() -> dict[tuple[str, str, str], Rate]:
    text = _text()
    sources = _sources(text)
    rows = csv.DictReader(io.StringIO("".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("#"))))
    return {(r["use"], r["instance_type"], r["region"]):
            Rate(float(r["ondemand_usd_hr"]), sources.get(r["source"], r["source"]))
            for r in rows}


def rate(use: str, ml_type: str, region: str) -> Rate | None:
    """USD per instance-hour of an ml.* type used for `use` in `region`, or None."""
    return _rates().get((use, ml_type, region))


def regions(use: str, ml_type: str) -> list[str]:
    """Regions the table has a `use` rate for this type in (for hints)."""
    return sorted(r for u, t, r in _rates() if u == use and t == ml_type)


_WHAT = {"hosting": "real-time inference (hosting)", "training": "training job",
         "notebook": "notebook instance", "hyperpod": "HyperPod cluster"}


def price(use: str, ml_type: str, region: str, how: str, capacity: object) -> HourlyPrice | None:
    """The SageMaker price of one instance, or None when the table has no such rate. Managed
    spot has no per-type list price: a spot resource is priced at the on-demand rate, an upper
    bound, and the basis says so."""
    found = rate(use, ml_type, region)
    if found is None:
        return None
    basis = f"aws {ml_type} {region} ({how}; SageMaker on-demand {use} rate)"
    if str(capacity).lower() == "spot":
        return HourlyPrice(found.usd_hr, found.usd_hr, basis + "; managed spot has no per-type "
                           "list price, so spot is priced at the on-demand rate, an upper bound")
    return HourlyPrice(found.usd_hr, None, basis)


def lower_bound_note(ml_type: str, use: str) -> str:
    """The basis note of an ml.* type priced at its EC2 rate."""
    where = regions(use, ml_type)
    hint = f" (the table has it in {', '.join(where)})" if where else ""
    return (f"SageMaker {ml_type} priced at the EC2 {ml_type.removeprefix('ml.')} rate: "
            f"gpulint has no SageMaker {_WHAT.get(use, use)} rate for it in this region{hint}, "
            "and SageMaker charges more than EC2 for the same instance, so this is a lower bound")


def resource_price(res: Resource, region: str, how: str,
                   ec2: HourlyPrice | Unknown) -> HourlyPrice | Unknown:
    """One instance of a SageMaker resource (`sagemaker.use` set, `cost.instance_type` the EC2
    name) at its use's rate, else at `ec2`, the EC2 rate of the same instance, labelled."""
    f = res.facts
    use, ml_type = str(f.get("sagemaker.use")), f"ml.{f.get('cost.instance_type')}"
    if res.source == "kubernetes":  # an ACK object: priced in its own region, like a pod
        f["cost.cloud"], f["cost.region"] = "aws", region
    own = price(use, ml_type, region, how, f.get("capacity"))
    found = rate(use, ml_type, region)
    _PRICED_AT.pop(res, None)
    if own is not None and found is not None:
        _PRICED_AT[res] = found.source
        if isinstance(ec2, HourlyPrice) and ec2.ondemand is not None:
            # Alternatives are EC2 offers: compared on the EC2 rate, the same basis.
            f["cost.compare_hourly"] = ec2.ondemand
        return own
    if isinstance(ec2, Unknown):
        return ec2
    return replace(ec2, basis=f"{ec2.basis} ({how}; {lower_bound_note(ml_type, use)})")


def source_of(res: Resource) -> str | None:
    """The source label of the SageMaker rate `res` was priced at, or None."""
    return _PRICED_AT.get(res)
