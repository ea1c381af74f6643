"""GPU pools that only var files Terraform does not load by itself declare: named at the
variable by default, scanned one cluster per file with terraform.var_file_variants."""

from __future__ import annotations

import os
from typing import Any

import pytest

from gpulint import pipeline
from gpulint.config.inputs import Inputs
from gpulint.config.settings import ScanSettings, Settings
from gpulint.facts.terraform.var_files import evidence
from gpulint.report.remedies import fix_for
from gpulint.reporters.text import root_cause

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "var_files")


def _scan(root: str, **inputs: Any) -> pipeline.ScanResult:
    path = os.path.relpath(os.path.join(DATA, root))
    return pipeline.run([path], [], Settings(scan=ScanSettings(inputs=Inputs(**inputs))))


def _notes(result: pipeline.ScanResult, text: str) -> list[Any]:
    return [n for n in result.module_notes if text in n.reason]


def test_pools_only_in_var_files_are_named_at_the_variable() -> None:
    result = _scan("gke")
    assert result.resources == []  # the default ({}) declares no pool
    [note] = _notes(result, "GPU pools only in var files")
    assert note.address == "var.notebook_nodes"
    assert os.path.basename(note.path) == "variables.tf" and note.line == 10
    # The two files with accelerators, not the CPU-only one (its GPU block is switched off).
    assert "2 var files" in note.reason
    assert "projects/climate.tfvars" in note.reason and "projects/ocean.tfvars" in note.reason
    assert "teaching" not in note.reason
    fix = fix_for(root_cause(f"could not evaluate: {note.reason}"), note.reason)
    assert fix.startswith("pass --var-file ") and "var_file_variants" in fix


def test_a_var_file_beside_the_root_is_named_too() -> None:
    [note] = _notes(_scan("eks"), "GPU pools only in var files")
    assert "1 var file gives variable node_groups" in note.reason
    assert "clusters/inference.tfvars" in note.reason
    assert "serving.instance_types[0] = g5.2xlarge" in note.reason


def test_a_var_file_given_on_the_command_line_is_not_named() -> None:
    given = os.path.relpath(os.path.join(DATA, "eks", "clusters", "inference.tfvars"))
    result = _scan("eks", var_files=[given])
    assert not _notes(result, "GPU pools only in var files")
    assert [r.facts.get("instance.type") for r in result.resources] == ["g5.2xlarge"]


def test_each_var_file_is_a_cluster_with_the_setting() -> None:
    result = _scan("gke", var_file_variants=True)
    assert not _notes(result, "GPU pools only in var files")
    got = {r.address: (r.facts.get("gpu.model"), r.facts.get("gpu.count"))
           for r in result.resources}
    # One pool per file that has one; the CPU pools are no GPU resources.
    assert got == {
        'google_container_node_pool.notebook["gpu-t4"]@projects/ocean.tfvars': ("T4", 1),
        'google_container_node_pool.notebook["a100"]@projects/climate.tfvars': ("A100", 1),
    }
    a100 = next(r for r in result.resources if "climate" in r.address)
    assert (a100.facts.get("replicas.min"), a100.facts.get("replicas.max")) == (1, 4)


def test_the_setting_is_read_from_the_configuration(tmp_path: Any) -> None:
    from gpulint.config.load import load
    from gpulint.config.settings import Flags, build

    (tmp_path / ".gpulint.yaml").write_text("terraform:\n  var_file_variants: true\n")
    config = load(str(tmp_path / ".gpulint.yaml"))
    assert build(config, Flags()).scan.inputs.var_file_variants is True
    (tmp_path / ".gpulint.yaml").write_text("terraform:\n  var_files: {}\n")
    config = load(str(tmp_path / ".gpulint.yaml"))
    assert build(config, Flags()).scan.inputs.var_file_variants is False


@pytest.mark.parametrize(("value", "found"), [
    ({"gpu": {"enabled": True, "type": "nvidia-tesla-t4", "count": 1}}, "gpu"),
    ({"a": {"gpu": {"enabled": False, "type": "nvidia-tesla-t4"}}}, None),
    ({"a": {"machine_type": "n2-highmem-4", "gpu": {}}}, None),
    ({"pool": {"guest_accelerator": [{"type": "nvidia-l4", "count": 1}]}},
     "pool.guest_accelerator"),
    ({"x": {"instance_types": ["p4d.24xlarge"]}}, "x.instance_types[0] = p4d.24xlarge"),
    ({"x": {"vm_size": "Standard_NC24ads_A100_v4"}}, "x.vm_size = Standard_NC24ads_A100_v4"),
    ({"x": {"num_gpus": 0, "machine_type": "e2-standard-4"}}, None),
    ("g6e.xlarge", "value = g6e.xlarge"),
    ({"name": "gpu-team", "size": "m5.large"}, None),  # a word in a value is not evidence
    ({"gpu-demo": {"size": 100}}, None),  # nor a key that only names something (a disk)
    ({"workers": {"enable_gpu": True}}, "workers.enable_gpu"),
    # A TPU pool is a machine type alone (ai-on-gke's benchmark jetstream-sample.tfvars).
    ({"nodepool-tpu": {"machine_type": "ct5lp-hightpu-4t", "spot": True}},
     "nodepool-tpu.machine_type = ct5lp-hightpu-4t"),
    ({"pools": [{"machine_type": "ct6e-standard-8t"}]}, "pools[0].machine_type = ct6e-standard-8t"),
    ({"pools": [{"machine_type": "ct5lp-highmem-x"}]}, None),  # not a TPU machine type
])
def test_accelerator_evidence_in_a_value(value: Any, found: str | None) -> None:
    assert evidence(value) == found


def test_a_var_file_no_root_owns_is_named_when_it_holds_accelerators() -> None:
    result = _scan("stray")
    notes = _notes(result, "in a var file beside no Terraform root")
    named = sorted(os.path.relpath(n.path, os.path.join(DATA, "stray")) for n in notes)
    assert named == ["environments/prod/cluster.tfvars", "orchestration/config/stage-1.tfvars"]
    config = next(n for n in notes if n.path.endswith("stage-1.tfvars"))
    assert "nodepools.nodepool-gpu.guest_accelerator" in config.reason
    fix = fix_for(root_cause(f"could not evaluate: {config.reason}"), config.reason)
    assert root_cause(config.reason) == "GPU pools in a var file beside no Terraform root"
    assert "--var-file" in fix
    # Given on the command line, the file is the root's, not a stray.
    given = os.path.relpath(os.path.join(DATA, "stray", "orchestration", "config",
                                         "stage-1.tfvars"))
    result = _scan("stray", var_files=(given,))
    assert [os.path.basename(n.path) for n in
            _notes(result, "beside no Terraform root")] == ["cluster.tfvars"]


def test_excluded_stray_var_files_are_not_named() -> None:
    settings = Settings(scan=ScanSettings(exclude=("*/environments",)))  # as anchor("environments")
    result = pipeline.run([os.path.relpath(os.path.join(DATA, "stray"))], [], settings)
    assert [os.path.basename(n.path) for n in
            _notes(result, "beside no Terraform root")] == ["stage-1.tfvars"]


def test_a_var_file_is_named_when_terraform_tfvars_gives_no_accelerators() -> None:
    """terraform.tfvars sets the variable to CPU groups; the GPU groups are in a var file
    passed by hand. SageMaker `ml.*` types count as the EC2 types they run on."""
    notes = _notes(_scan("hyperpod"), "GPU pools only in var files")
    got = {n.address: n.reason for n in notes}
    assert set(got) == {"var.instance_groups", "var.restricted_instance_groups"}
    assert "custom.tfvars" in got["var.instance_groups"]
    assert "ml.g5.8xlarge" in got["var.instance_groups"]
    assert "a value it was given, without accelerators" in got["var.instance_groups"]
    assert "rig_custom.tfvars" in got["var.restricted_instance_groups"]
    assert "its default" in got["var.restricted_instance_groups"]
    [variant] = _notes(_scan("eks-tfvars"), "GPU pools only in var files")
    assert variant.address == "var.node_groups" and "envs/prod.tfvars" in variant.reason
    assert "training.instance_types[0] = p4d.24xlarge" in variant.reason


def test_a_given_value_with_accelerators_is_not_named_again(tmp_path: Any) -> None:
    """When terraform.tfvars itself gives the variable GPU pools, those pools are read and the
    other var files are alternatives, not something the scan missed: no note."""
    import shutil

    root = tmp_path / "eks"
    shutil.copytree(os.path.join(DATA, "eks-tfvars"), root)
    (root / "terraform.tfvars").write_text(
        'node_groups = { gpu = { instance_types = ["g5.xlarge"], size = 1 } }\n')
    result = pipeline.run([str(root)], [], Settings(scan=ScanSettings(inputs=Inputs())))
    assert not _notes(result, "GPU pools only in var files")
    assert [r.facts.get("instance.type") for r in result.resources] == ["g5.xlarge"]
