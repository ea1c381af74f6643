"""An autoscaler gives its bounds to the workload of its own kustomize overlay and, when several
projects of a scan name the same workload, of its own project (the nearest directory); two
autoscalers with different bounds for one workload make its replicas unknown, never a guess.

tests/data/autoscaler-monorepo: two teams' `inference` Deployments in the default namespace, each
with its own HorizontalPodAutoscaler. tests/data/kustomize-regions: one service, one overlay per
cluster in the same namespace, each patching the autoscaler's bounds.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.model import Unknown

DATA = Path(__file__).parent / "data"
CATALOG = Path(__file__).parent.parent / "src" / "gpulint" / "data" / "gpu_catalog.json"
HOURS = 730


def _on_demand(instance: str, region: str = "us-east-1") -> float:
    return float(json.loads(CATALOG.read_text())["providers"]["aws"]["prices"][instance][region][0])


def test_each_team_takes_its_own_autoscaler() -> None:
    result = scan.run([str(DATA / "autoscaler-monorepo")], [])
    got = {Path(r.path).parts[-3]: r for r in result.resources}
    assert sorted(got) == ["chat", "search"]
    for team, instance, lo, hi in (("search", "g5.xlarge", 2, 6), ("chat", "g6e.xlarge", 1, 3)):
        res = got[team]
        assert (res.facts["replicas.min"], res.facts["replicas.max"]) == (lo, hi), team
        assert str(res.facts["replicas.source"]).endswith(
            str(Path("teams", team, "k8s", "hpa.yaml")) + ":1)")
        assert res.facts["cost.monthly"] == pytest.approx(_on_demand(instance) * HOURS * lo,
                                                          abs=0.01)


def test_two_autoscalers_for_one_workload_leave_its_replicas_unknown(tmp_path: Path) -> None:
    team = tmp_path / "search"
    shutil.copytree(DATA / "autoscaler-monorepo" / "teams" / "search" / "k8s", team)
    second = (team / "hpa.yaml").read_text().replace("name: inference\nspec:",
                                                     "name: inference-burst\nspec:", 1)
    (team / "hpa-burst.yaml").write_text(second.replace("maxReplicas: 6", "maxReplicas: 12"))
    (res,) = scan.run([str(tmp_path)], []).resources
    reasons = dict(res.unknowns)
    assert reasons["replicas.desired"].startswith("autoscalers with different bounds target it: "
                                                  "HorizontalPodAutoscaler inference")
    assert "HorizontalPodAutoscaler inference-burst" in reasons["replicas.desired"]
    cost = res.facts["cost.monthly"]
    assert isinstance(cost, Unknown) and "autoscalers with different bounds" in str(cost)


@pytest.mark.skipif(not (shutil.which("kustomize") or shutil.which("kubectl")),
                    reason="needs kustomize or kubectl")
def test_each_overlay_takes_its_own_autoscaler_in_a_shared_namespace() -> None:
    result = scan.run([str(DATA / "kustomize-regions")], [])
    got = {r.address: r for r in result.resources}
    for overlay, lo, hi in (("us-east-1", 3, 8), ("eu-west-1", 1, 2)):
        res = got[f"Deployment/inference/reranker@{overlay}"]
        assert (res.facts["replicas.min"], res.facts["replicas.max"]) == (lo, hi), overlay
        assert res.facts["cost.monthly"] == pytest.approx(_on_demand("g6.xlarge") * HOURS * lo,
                                                          abs=0.01)
