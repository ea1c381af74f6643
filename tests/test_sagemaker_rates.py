"""A SageMaker endpoint is priced at SageMaker's own ml.* rate, not EC2's.

Reference (written here, not read from gpulint's data): ml.g5.2xlarge real-time inference in
us-east-1, $1.515 per instance-hour on demand (aws.amazon.com/sagemaker/pricing; AWS Price List
API, AmazonSageMaker offer for us-east-1, as transcribed 2026-08) = $1,105.95 a month at 730 h.
The EC2 g5.2xlarge is $1.212/h (aws.amazon.com/ec2/pricing/on-demand, tsaol/aws-gpu snapshot
2026-01-21), the $885/month the endpoint used to be priced at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

ENDPOINT = """provider "aws" {{ region = "{region}" }}
resource "aws_sagemaker_endpoint_configuration" "ep" {{
  name = "chat"
  production_variants {{
    variant_name           = "main"
    model_name             = "chat"
    instance_type          = "ml.g5.2xlarge"
    initial_instance_count = 1
  }}
}}
"""


def _resource(tmp_path: Path, region: str) -> dict[str, object]:
    (tmp_path / "main.tf").write_text(ENDPOINT.format(region=region))
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--format", "json", "--fail-on",
                                   "never", "--no-cache"]).stdout
    (res,) = json.loads(out)["resources"]
    return res


def test_an_endpoint_is_priced_at_the_sagemaker_rate(tmp_path: Path) -> None:
    res = _resource(tmp_path, "us-east-1")
    assert res["monthly_cost_usd"] == pytest.approx(1.515 * 730, rel=0.05)
    assert "SageMaker on-demand hosting rate" in str(res["price_basis"])


def test_elsewhere_the_ec2_rate_is_a_labelled_lower_bound(tmp_path: Path) -> None:
    res = _resource(tmp_path, "us-west-2")
    assert "this is a lower bound" in str(res["price_basis"])
