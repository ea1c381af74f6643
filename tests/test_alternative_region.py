"""An alternative stays in the cloud and region the workload is priced in: a pod in a configured
region is told about node shapes of that region, priced from that region's catalog rows, never
the cheapest region of the catalog."""

from __future__ import annotations

import os

from gpulint import pipeline as scan
from gpulint.config.cost import CostOptions
from gpulint.config.settings import Settings
from gpulint.pricing import adjustments, catalog
from gpulint.ruleset import load_rules

SERVE = os.path.join(os.path.dirname(__file__), "rules", "gpu-model-does-not-fit", "serve.yaml")


def _big(region: str | None) -> tuple[str, dict[str, object]]:
    regions = {"gcp": region} if region else {}
    rules = [r for r in load_rules() if r.id == "gpu-model-does-not-fit"]
    result = scan.run([SERVE], rules, Settings(pricing=CostOptions(default_regions=regions)))
    found = [f for f in result.findings if f.address == "Deployment/big"]
    assert len(found) == 1, [f.message for f in result.findings]
    res = next(r for r in result.resources if r.address == "Deployment/big")
    return found[0].message, dict(res.facts)


def test_alternative_stays_in_the_configured_region() -> None:
    """A 70B model on one GKE L4: the fit is 8 L4 on g2-standard-96 in europe-west4, where the
    pod runs, at europe-west4's row (not us-central1's, which is cheaper)."""
    message, facts = _big("europe-west4")
    assert (facts["cost.cloud"], facts["cost.region"]) == ("gcp", "europe-west4")
    here = catalog.price("gcp", "g2-standard-96", "europe-west4")
    home = catalog.price("gcp", "g2-standard-96", "us-central1")
    assert here is not None and here.ondemand and home is not None and home.ondemand
    assert here.ondemand != home.ondemand  # the test can tell the two regions apart
    assert f"8× L4 (178.8 GiB, ${here.ondemand:,.4g}/h in europe-west4)" in message
    assert "us-central1" not in message
    # The pod's own price: its share (1 of 1 GPU) of the cheapest L4 node in that region.
    node = catalog.price("gcp", "g2-standard-4", "europe-west4")
    assert node is not None and node.ondemand
    assert facts["cost.monthly"] == round(node.ondemand * 730, 2)


def test_without_a_configured_region_the_alternative_is_in_the_default_region() -> None:
    message, facts = _big(None)
    region = catalog.default_region("gcp")
    assert facts["cost.region"] == region
    row = catalog.price("gcp", "g2-standard-96", region)
    assert row is not None and row.ondemand
    assert f"8× L4 (178.8 GiB, ${row.ondemand:,.4g}/h in {region})" in message


def test_a_pod_whose_shapes_were_replaced_there_is_priced_as_an_estimate(
        tmp_path: object) -> None:
    """8 A100 80GB in us-central1: a2-ultragpu-8g's row there is another rate, replaced by the
    catalog check with its host part + 8 A100 80GB at the GPU's nearest-region price; the pod
    is priced, and its basis says how."""
    import pathlib

    path = pathlib.Path(str(tmp_path)) / "job.yaml"
    path.write_text(
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: a100-80\nspec:\n  template:\n"
        "    spec:\n      nodeSelector:\n        cloud.google.com/gke-accelerator: "
        "nvidia-a100-80gb\n      containers:\n        - name: train\n          image: t\n"
        "          resources:\n            limits:\n              nvidia.com/gpu: 8\n")
    donor = adjustments.replaced_row("gcp", "a2-ultragpu-8g", "us-central1")
    assert donor and adjustments.dropped_row("gcp", "a2-ultragpu-8g", "us-central1") is None
    result = scan.run([str(path)], [])
    facts = result.resources[0].facts
    assert isinstance(facts["cost.monthly"], float)
    assert (f"(derived: host + 8× nvidia-a100-80gb, the GPUs at the {donor} price; the "
            "source's us-central1 row failed") in facts["cost.basis"]
