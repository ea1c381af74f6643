"""SageMaker ml.* hosting rates: SageMaker charges more than EC2 for the same instance, so an
endpoint is priced at its own rate where the bundled table has it (data/sagemaker_rates.csv,
whose header names the source), else at the EC2 rate as a labelled lower bound."""

from __future__ import annotations

import csv
import io
from functools import lru_cache
from importlib import resources

SOURCE = "SageMaker on-demand hosting rate (AWS Price List, AmazonSageMaker us-east-1, 2026-08)"


@lru_cache(maxsize=1)
def _rates() -> dict[tuple[str, str], float]:
    text = resources.files("gpulint.data").joinpath("sagemaker_rates.csv").read_text("utf-8")
    rows = csv.DictReader(io.StringIO("".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("#"))))
    return {(r["instance_type"], r["region"]): float(r["ondemand_usd_hr"]) for r in rows}


def hosting_rate(ml_type: str, region: str) -> float | None:
    """USD per instance-hour of an ml.* type hosting an endpoint in `region`, or None."""
    return _rates().get((ml_type, region))
