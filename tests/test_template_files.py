"""Manifests named as templates (`job.yaml-template`, `pod.yml.j2`, `serve.tmpl`): read when
they parse, their placeholders named; skipped with a notice, never a parse error, when they do
not; a template-named file that is no manifest is passed over."""

from __future__ import annotations

import os

from gpulint import pipeline
from gpulint.config.settings import Settings
from gpulint.discover import classify
from gpulint.model import Unknown

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "template_files")


def _scan() -> pipeline.ScanResult:
    return pipeline.run([os.path.relpath(DATA)], [], Settings())


def test_template_names_are_scanned_as_manifests() -> None:
    for name in ("fsdp.yaml-template", "job.yaml.template", "pod.yml.j2", "svc.yaml.tmpl",
                 "train.template", "x.yaml.in"):
        assert classify(name) == "kubernetes", name
    for name in ("_helpers.tpl", "notes.txt", "terraform.tfvars.example", "values.yaml.bak"):
        assert classify(name) is None, name


def test_an_envsubst_job_is_a_gpu_resource_with_its_placeholder_named() -> None:
    got = {r.address: r for r in _scan().resources}
    job = got["PyTorchJob/fsdp/Worker"]
    count = job.facts.get("gpu.count")
    assert isinstance(count, Unknown) and "$GPU_PER_NODE" in count.reason
    serve = got["Deployment/serve"]
    # g6.xlarge: 1 NVIDIA L4 (aws.amazon.com/ec2/instance-types/g6).
    assert (serve.facts.get("gpu.model"), serve.facts.get("gpu.count")) == ("L4", 1)
    assert set(got) == {"PyTorchJob/fsdp/Worker", "Deployment/serve"}


def test_a_template_that_is_not_yaml_is_a_notice_not_a_broken_file() -> None:
    result = _scan()
    [note] = [d for d in result.diagnostics if d.path.endswith("infer.yml.j2")]
    assert note.severity == "warning"  # it asks for GPUs: visible, and --strict fails on it
    assert "skipped a template file" in note.message and "asks for accelerators" in \
        note.message
    assert not [d for d in result.diagnostics if d.severity == "error"]
    assert not [d for d in result.diagnostics if d.path.endswith("launch.template")]
