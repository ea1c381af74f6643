"""A Karpenter NodePool chart (one pool per release, as the EKS data add-ons ship it) installed
by helmfile releases: rendered by the real Helm engine when it is there, read from the same
values when it is not, with the same node pool either way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpulint import pipeline as scan
from gpulint.model import Resource
from gpulint.render import helm

FIXTURE = Path(__file__).parent / "fixtures" / "helm-karpenter"


def _pool(monkeypatch: pytest.MonkeyPatch, sdk: bool) -> tuple[Resource, list[str]]:
    monkeypatch.setenv("PATH", str(FIXTURE / "no-such-bin"))  # no helm binary
    if not sdk:
        monkeypatch.setattr(helm, "_sdk_dirs", lambda: None)
    result = scan.run([str(FIXTURE)], [])
    (pool,) = result.resources  # the general-purpose pool launches no accelerator
    return pool, sorted(d.message for d in result.diagnostics)


def _check(pool: Resource) -> None:
    assert pool.address == "NodePool/g6e-inference"
    assert pool.facts["gpu.model"] == "L40S" and pool.facts["gpu.count"] == 16  # its GPU limit
    assert pool.facts["capacity"] == "spot"  # spot allowed: Karpenter prefers it
    assert pool.facts["cost.monthly"] == 0


def test_nodepool_chart_rendered_by_the_helm_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("helm_python")
    pool, notes = _pool(monkeypatch, sdk=True)
    _check(pool)
    assert pool.path.endswith(os.path.join("templates", "node-pool.yaml")) and pool.line == 3
    version = pytest.importorskip("helm_python").helm_sdk_version()
    assert notes == [f"chart rendered with Helm SDK {version} (release g6e-inference)",
                     f"chart rendered with Helm SDK {version} (release general)"]


def test_nodepool_chart_read_from_values_without_a_renderer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pool, notes = _pool(monkeypatch, sdk=False)
    _check(pool)
    assert pool.path.endswith(os.path.join("values", "g6e-inference.yaml")) and pool.line == 2
    assert len(notes) == 2 and all(n.endswith("; read 1 NodePool from its values") for n in notes)
