"""Accelerators in Terraform strings and template files: read as objects when Terraform
creates them, named at the evidence when `count`/`for_each` switches them off by default or
when no evaluated code reads the template (tests/data/terraform_strings)."""

from __future__ import annotations

import os
from typing import Any

from gpulint import pipeline
from gpulint.config.inputs import Inputs
from gpulint.config.settings import ScanSettings, Settings
from gpulint.facts.terraform.string_evidence import text_evidence
from gpulint.load.evidence import find, is_gpu_instance
from gpulint.report.coverage import FOUND, NAMED, UNACCOUNTED, measure
from gpulint.report.remedies import fix_for
from gpulint.reporters.text import root_cause

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "terraform_strings")


def _scan(root: str, **variables: str) -> pipeline.ScanResult:
    path = os.path.relpath(os.path.join(DATA, root))
    inputs = Inputs(vars=dict(variables))
    return pipeline.run([path], [], Settings(scan=ScanSettings(inputs=inputs)))


def _by_place(result: pipeline.ScanResult) -> dict[tuple[str, int], Any]:
    return {(os.path.basename(n.path), n.line): n for n in result.module_notes}


def _fix(reason: str) -> str:
    return fix_for(root_cause(f"could not evaluate: {reason}"), reason)


def test_a_release_switched_off_by_default_is_named_at_its_values_template() -> None:
    result = _scan("toggle_helm")
    assert result.resources == []
    note = _by_place(result)[("gpu-llama-light.tpl", 14)]  # the line of `requestGPU: 1`
    assert note.address == "helm_release.vllm_stack"
    assert "servingEngineSpec.modelSpec[0].requestGPU = 1" in note.reason
    assert "`count = var.enable_vllm ? 1 : 0`" in note.reason
    assert root_cause(note.reason) == "switched off by default (variable enable_vllm = false)"
    assert _fix(note.reason) == "pass --var enable_vllm=true to evaluate it"


def test_the_flag_the_note_gives_reads_the_release() -> None:
    result = _scan("toggle_helm", enable_vllm="true")
    [res] = result.resources
    assert res.address.startswith("HelmValues/vllm-gpu-stack/")
    assert res.facts.get("gpu.count") == 1
    assert ("gpu-llama-light.tpl", 14) not in _by_place(result)


def test_an_empty_for_each_names_its_templatefile_and_the_variable() -> None:
    note = _by_place(_scan("toggle_helm"))[("embedding.yaml.tftpl", 7)]
    assert note.address == "helm_release.embeddings"
    assert root_cause(note.reason) == "switched off by default (variable embedding_models = {})"
    assert _fix(note.reason) == ("give embedding_models a value that creates it (--var or "
                                 "--var-file) to evaluate it")


def test_a_template_no_default_selects_is_named_and_a_cpu_one_is_not() -> None:
    notes = _by_place(_scan("toggle_helm"))
    note = notes[("gpu-qwen-multi.tpl", 8)]
    assert "requestGPU = 4 and 1 more" in note.reason
    # The variable whose default names the other template of its directory selects it.
    assert "variable gpu_vllm_helm_config picks config/helm/gpu/gpu-llama-light.tpl" in note.reason
    assert _fix(note.reason) == ("pass --var gpu_vllm_helm_config=config/helm/gpu/"
                                 "gpu-qwen-multi.tpl to evaluate it")
    assert not [n for n in notes if n[0] == "cpu-tinyllama.tpl"]
    # Each template is named once, by the release that reads it or as unread.
    assert len(notes) == 3


def test_coreweave_node_pools_in_kubectl_manifest_are_named() -> None:
    notes = _by_place(_scan("nodepool_heredoc"))
    heredoc, templated = notes[("main.tf", 22)], notes[("main.tf", 37)]
    assert heredoc.reason.startswith("spec.instanceType = gd-8xl40s-i128: ")
    # The template's `%{ for }` directive is rendered and its type comes from the alias map.
    assert templated.reason.startswith("spec.instanceType = gd-8xh100ib-i128: ")
    assert "kind NodePool (compute.coreweave.com)" in templated.reason
    assert len(notes) == 2  # the CPU pool (cd-gp-i64-erapids) asks for nothing


def test_switched_off_manifests_of_other_vendors_are_named() -> None:
    result = _scan("manifests_off")
    notes = {n.address: n for n in result.module_notes}
    amd = notes["kubernetes_manifest.amd_server"]
    assert amd.line == 14  # the `manifest = yamlencode({` line
    assert "resources.limits.amd.com/gpu = 1" in amd.reason
    assert root_cause(amd.reason) == "switched off by default (variable amd_models = {})"
    gaudi = notes["kubectl_manifest.gaudi_finetune"]
    assert gaudi.line == 38 and "habana.ai/gaudi = 8" in gaudi.reason
    assert _fix(gaudi.reason) == "pass --var enable_gaudi_training=true to evaluate it"


def test_helm_values_in_terraform_outside_a_pod_mapping_are_named() -> None:
    notes = {n.address: n for n in _scan("manifests_off").module_notes}
    note = notes["helm_release.batch_scheduler values"]
    assert note.line == 65 and "queues.training.quota.nvidia.com/gpu = 16" in note.reason


def test_an_applied_manifest_with_a_directive_over_unknown_values_is_read() -> None:
    """`%{ for zone in data…names }` cannot be evaluated before apply: the manifest is read
    without it instead of being dropped."""
    result = _scan("manifests_off")
    [res] = [r for r in result.resources if r.address == "kubectl_manifest.l4_server"]
    assert res.facts.get("instance.type") == "g6.xlarge" and res.facts.get("gpu.count") == 1


def test_an_applied_manifest_that_is_no_object_is_named() -> None:
    notes = {n.address: n for n in _scan("manifests_off").module_notes}
    note = notes["kubectl_manifest.two_documents"]
    assert (os.path.basename(note.path), note.line) == ("applied.tf", 38)
    assert note.reason.startswith("spec.template.spec.containers[0].resources.limits."
                                  "nvidia.com/gpu = 8: accelerators in a Terraform manifest")


def test_a_block_the_configuration_switches_off_is_not_named() -> None:
    """Off by a value given on purpose (here on the command line) is not a default."""
    result = _scan("manifests_off", enable_gaudi_training="false")
    assert "kubectl_manifest.gaudi_finetune" not in {n.address for n in result.module_notes}


def test_the_evidence_count_names_every_terraform_string_and_template() -> None:
    cov = measure([os.path.relpath(DATA)])
    outcomes = {(os.path.basename(i.path), i.line): i.outcome for i in cov.items}
    assert UNACCOUNTED not in outcomes.values()
    # 3 templates with GPUs (the CPU one has none), 5 blocks in manifests_off, the heredoc
    # NodePool (the templated one's type is a placeholder in its file).
    assert sorted(outcomes) == sorted([
        ("gpu-llama-light.tpl", 14), ("gpu-qwen-multi.tpl", 8), ("embedding.yaml.tftpl", 7),
        ("main.tf", 12), ("main.tf", 36), ("main.tf", 57), ("main.tf", 22),
        ("applied.tf", 5), ("applied.tf", 38)])
    assert outcomes.pop(("applied.tf", 5)) == FOUND
    assert set(outcomes.values()) == {NAMED}


def test_the_count_sees_a_template_nothing_names(tmp_path: Any) -> None:
    (tmp_path / "main.tf").write_text('variable "values_file" {\n  default = "cpu.tpl"\n}\n')
    (tmp_path / "gpu.tpl").write_text("resources:\n  limits:\n    nvidia.com/gpu: ${gpus}\n")
    from gpulint.facts.terraform import unread_templates

    assert [i.outcome for i in measure([str(tmp_path)]).items] == [NAMED]
    [note] = pipeline.run([str(tmp_path)], []).module_notes
    assert note.reason.endswith("pass --var values_file=gpu.tpl to evaluate it")
    original = unread_templates.notes
    try:
        unread_templates.notes = lambda loaded, named: []  # type: ignore[assignment]
        assert [i.outcome for i in measure([str(tmp_path)]).items] == [UNACCOUNTED]
    finally:
        unread_templates.notes = original  # type: ignore[assignment]


def test_template_text_is_yaml_once_interpolations_are_placeholders() -> None:
    text = ("spec:\n  instanceType: ${instance_type}\n  labels:\n%{ for k, v in labels ~}\n"
            "    ${k}: \"${v}\"\n%{ endfor ~}\n  limits:\n    amd.com/gpu: ${count}\n")
    [(line, e)] = text_evidence(text)
    assert (line, e.dotted, e.value) == (8, "spec.limits.amd.com/gpu", "<count>")
    # Text that is not YAML still gives the line of its extended resource.
    [(line, e)] = text_evidence("kubectl run x --limits='habana.ai/gaudi=8'\n: [\n")
    assert line == 1 and e.sort == "request"


def test_instance_type_fields_are_evidence_in_a_spec_or_in_terraform_arguments() -> None:
    # CoreWeave CKS instance IDs (docs.coreweave.com, platform/instances): gd-… GPU, cd-… CPU.
    assert is_gpu_instance("gd-8xh100ib-i128") and is_gpu_instance("gb200-4x")
    assert not is_gpu_instance("cd-gp-i64-erapids")
    assert [e.dotted for e in find({"spec": {"instanceType": "p4d.24xlarge"}})] == \
        ["spec.instanceType"]
    # A cost report's rows are data, not a pool; a Terraform resource's arguments are a pool.
    assert find({"resources": [{"instance_type": "p4d.24xlarge"}]}) == []
    assert len(find({"instance_types": ["g5.2xlarge"]}, machines=True)) == 1


def test_a_heredoc_with_directives_is_read_as_its_text() -> None:
    """A heredoc whose `%{ for }` cannot be evaluated is YAML once the directive is dropped
    and each interpolation is a placeholder."""
    from gpulint.facts.terraform.string_evidence import inline
    from gpulint.terraform.expressions import Scope
    from gpulint.terraform.parser import parse_hcl

    root = parse_hcl('resource "kubectl_manifest" "job" {\n  yaml_body = <<YAML\n'
                     'spec:\n  labels:\n%{ for k, v in var.labels ~}\n    ${k}: "${v}"\n'
                     '%{ endfor ~}\n  limits:\n    google.com/tpu: ${upper(var.chips)}\n'
                     'YAML\n}\n')
    [place] = inline(root.blocks[0], Scope(), "main.tf", arguments=False)
    assert place.line == 2 and place.describe() == "spec.limits.google.com/tpu = <…>"


def test_a_template_its_variable_names_but_a_condition_skips_gets_no_wrong_flag(
        tmp_path: Any) -> None:
    (tmp_path / "main.tf").write_text(
        'variable "hardware" {\n  default = "cpu"\n}\nvariable "gpu_values" {\n'
        '  default = "gpu.tpl"\n}\nresource "helm_release" "vllm" {\n  name  = "vllm"\n'
        '  chart = "vllm-stack"\n  repository = "https://charts.example.com"\n'
        '  values = [file(var.hardware == "gpu" ? var.gpu_values : "cpu.tpl")]\n}\n')
    (tmp_path / "cpu.tpl").write_text("resources:\n  limits:\n    cpu: 8\n")
    (tmp_path / "gpu.tpl").write_text("resources:\n  limits:\n    nvidia.com/gpu: 1\n")
    [note] = pipeline.run([str(tmp_path)], []).module_notes
    assert os.path.basename(note.path) == "gpu.tpl" and "picks" not in note.reason
    assert _fix(note.reason) == "set the variables that make Terraform read it (--var) to " \
        "evaluate it"


def test_a_switched_off_local_module_is_named_at_the_gpu_inside_it() -> None:
    # The calls pass only a toggle and names; the machine type and the accelerator block are
    # in the child modules' own files, which no instance ever expands.
    result = _scan("module_off")
    assert result.resources == []
    notes = _by_place(result)
    pool = notes[("main.tf", 11)]  # modules/gpu_pool: instance_types = ["g5.12xlarge"]
    assert pool.address == "module.gpu_nodes" and "gpu_pool" in pool.path
    assert "instance_types = g5.12xlarge" in pool.reason
    assert _fix(pool.reason) == "pass --var enable_gpu_nodes=true to evaluate it"
    gke = notes[("main.tf", 18)]  # modules/gke_gpu: the guest_accelerator block
    assert gke.address == "module.training_pool" and "guest_accelerator" in gke.reason
    assert root_cause(gke.reason) == "switched off by default (variable training_pools = {})"


def test_the_flag_a_switched_off_module_note_gives_finds_its_pool() -> None:
    result = _scan("module_off", enable_gpu_nodes="true")
    [pool] = result.resources
    assert pool.address == "module.gpu_nodes[0].aws_eks_node_group.gpu"
    assert pool.facts.get("gpu.model") == "A10G"
