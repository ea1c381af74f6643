"""Helm values rendered by `data "template_file"` and passed to a remote chart through
`helm_release`: the GPU requests in the template are read, an unknown var stays a placeholder,
and a release with count = 0 deploys nothing."""

from __future__ import annotations

import os

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.facts.model_decl import declared_model

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "template_file")


def test_gpu_requests_in_a_rendered_template_are_read() -> None:
    result = pipeline.run([os.path.relpath(DATA)], [], Settings())
    [res] = result.resources
    assert res.address == "HelmValues/vllm-gpu-stack/servingEngineSpec.modelSpec[0]"
    assert os.path.basename(res.path) == "main.tf" and res.line == 34  # the values line
    # requestGPU: 2 on GKE L4 nodes, replicaCount from the template var (2).
    assert res.facts.get("gpu.count") == 2 and res.facts.get("gpu.model") == "L4"
    assert res.facts.get("replicas.desired") == 2
    assert declared_model(res) is not None
    assert declared_model(res).id == "meta-llama/Llama-3.1-8B-Instruct"
    # The sensitive token was unknown: a placeholder, not a failure to read the values.
    assert not [d for d in result.diagnostics if d.severity != "info"]


def test_the_release_that_is_not_deployed_is_not_read() -> None:
    result = pipeline.run([os.path.relpath(DATA)], [], Settings())
    assert not [r for r in result.resources if "/off/" in r.address]
