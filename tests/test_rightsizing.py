"""Right-sizing findings read as a platform engineer would: their figures state their inputs,
they name the alternative and the saving, thresholds come from rule options, and unknown models
or instances are reported as not evaluated."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.config.settings import RuleSettings, Settings
from gpulint.config.sizing import SizingSettings, from_rule_options
from gpulint.config.tags import TagSettings
from gpulint.pricing import catalog
from gpulint.ruleset import load_rules

FIXTURES = os.path.join(os.path.dirname(__file__), "rules")
SIZING_RULES = ("gpu-oversized-for-model", "gpu-model-does-not-fit", "gpu-unused-by-parallelism",
                "gpu-previous-generation")


def _scan(path: str, **rule_options: dict) -> scan.ScanResult:
    rules = [r for r in load_rules() if r.id in SIZING_RULES]
    opts = Settings(rules=RuleSettings(
        options={k.replace("_", "-"): v for k, v in rule_options.items()}))
    return scan.run([os.path.join(FIXTURES, path)], rules, opts)


def _message(result: scan.ScanResult, rule: str, address: str) -> str:
    found = [f for f in result.findings if f.rule == rule and f.address == address]
    assert len(found) == 1, [f.message for f in result.findings]
    return found[0].message


def test_oversized_message_states_inputs_alternative_and_saving() -> None:
    result = _scan("gpu-oversized-for-model/realistic.tf")
    msg = _message(result, "gpu-oversized-for-model", "aws_instance.llama_8b")
    assert "meta-llama/Llama-3.1-8B-Instruct on 8× A100 (320 GiB)" in msg
    assert "Llama-3.1-8B, bf16, 8k context, 8 concurrent sequences: 25.0 GiB" in msg
    assert "g6e.xlarge (1× L40S, 44.7 GiB, $1.861/h in us-east-1)" in msg
    assert "$1,359/month instead of $16,029" in msg
    finding = next(f for f in result.findings if f.address == "aws_instance.llama_8b")
    assert finding.monthly_saving_usd == pytest.approx(16029.08 - 1358.53, abs=0.02)


def test_quantized_moe_and_estimated_models() -> None:
    result = _scan("gpu-oversized-for-model/realistic.tf")
    awq = _message(result, "gpu-oversized-for-model", "aws_instance.llama_70b_awq")
    assert "Llama-3.1-70B, awq, 8k context" in awq
    mixtral = _message(result, "gpu-oversized-for-model", "aws_instance.mixtral")
    assert "Mixtral-8x7B-v0.1, bf16" in mixtral
    estimated = _message(result, "gpu-oversized-for-model", "aws_instance.in_house")
    assert "acme/support-bot-13b-chat (13B parameters, estimated from its name)" in estimated
    assert "(approximate)" in estimated


def test_gguf_via_llama_cpp_and_tensor_parallel_awq_on_kubernetes() -> None:
    result = _scan("gpu-oversized-for-model/realistic.yaml")
    gguf = _message(result, "gpu-oversized-for-model", "Deployment/llama-gguf")
    assert "Llama-3.1-8B, q4_k_m, 8k context, 8 concurrent sequences" in gguf
    awq = _message(result, "gpu-oversized-for-model", "Deployment/qwen-awq")
    assert "Qwen2.5-32B, awq, 16k context, 8 concurrent sequences, tensor parallel 2" in awq
    # The pod pays 2 of the node's 8 GPUs; the saving is against that share.
    assert "instead of $10,045" in awq


def test_unknown_model_or_instance_is_silent_and_reported() -> None:
    result = _scan("gpu-oversized-for-model/realistic.yaml")
    fired = {f.address for f in result.findings if f.rule == "gpu-oversized-for-model"}
    assert not fired & {"Deployment/secret-model", "Deployment/on-prem"}
    reasons = {(n.address, n.rule): n.reason for n in result.not_evaluated}
    assert "'acme/secret-sauce' is not in the model catalog" in \
        reasons[("Deployment/secret-model", "gpu-oversized-for-model")]
    assert "'dgx-a100-onprem' is not in the catalog" in \
        reasons[("Deployment/on-prem", "gpu-oversized-for-model")]
    tf = _scan("gpu-oversized-for-model/realistic.tf")
    reasons = {(n.address, n.rule): n.reason for n in tf.not_evaluated}
    assert "region unknown" in reasons[("aws_instance.llama_8b_unknown_region",
                                        "gpu-oversized-for-model")]


def test_min_saving_fraction_and_headroom_come_from_rule_options() -> None:
    base = _scan("gpu-oversized-for-model/realistic.tf")
    assert any(f.address == "aws_instance.llama_70b_awq" for f in base.findings)
    strict = _scan("gpu-oversized-for-model/realistic.tf",
                   gpu_oversized_for_model={"min_saving_fraction": 0.9})
    fired = {f.address for f in strict.findings if f.rule == "gpu-oversized-for-model"}
    assert "aws_instance.llama_8b" in fired  # saves 92%
    assert "aws_instance.llama_70b_awq" not in fired  # saves 68%
    # With only 50% of each GPU usable, 59 GiB no longer fits one 96 GiB GPU: the cheapest fit
    # becomes two of them, which saves too little (21%) to report.
    tight = _scan("gpu-oversized-for-model/realistic.tf",
                  gpu_oversized_for_model={"headroom": 0.5})
    res = next(r for r in tight.resources if r.address == "aws_instance.llama_70b_awq")
    assert res.facts["sizing.alternative"] == "g7e.12xlarge"
    assert not any(f.address == res.address and f.rule == "gpu-oversized-for-model"
                   for f in tight.findings)


def test_concurrency_and_context_options_change_the_typical_estimate() -> None:
    busy = _scan("gpu-oversized-for-model/realistic.tf",
                 gpu_oversized_for_model={"concurrency": 32, "context": 16384})
    msg = _message(busy, "gpu-oversized-for-model", "aws_instance.llama_8b")
    assert "Llama-3.1-8B, bf16, 16k context, 32 concurrent sequences" in msg


def test_fit_headroom_option_of_does_not_fit() -> None:
    # 16.5 GiB minimum on a 16 GiB V100 fails at 90%, and at 100% too.
    base = _scan("gpu-model-does-not-fit/realistic.yaml")
    assert _message(base, "gpu-model-does-not-fit", "Deployment/llama-70b-awq")
    loose = _scan("gpu-model-does-not-fit/realistic.yaml",
                  gpu_model_does_not_fit={"headroom": 1.0})
    assert any(f.address == "Deployment/llama-70b-awq" for f in loose.findings)


def test_bad_rule_option_is_a_diagnostic_and_the_default_is_kept() -> None:
    rules = load_rules()
    opts, _, problems = from_rule_options(
        rules, SizingSettings(), TagSettings(),
        {"gpu-oversized-for-model": {"headroom": "lots", "concurrency": 2.5},
         "gpu-previous-generation": {"min_relative_throughput": 0.8}})
    assert opts.headroom == 0.9 and opts.concurrency == 8 and opts.min_relative_throughput == 0.8
    assert any("gpu-oversized-for-model.headroom = 'lots'" in p for p in problems)
    assert any("concurrency = 2.5 must be a whole number" in p for p in problems)
    assert ("rule option gpu-previous-generation.min_relative_throughput is deprecated: set "
            "sizing.min_relative_throughput in the configuration instead") in problems
    result = scan.run([os.path.join(FIXTURES, "gpu-oversized-for-model/llm.tf")], rules,
                      Settings(rules=RuleSettings(
                          options={"gpu-oversized-for-model": {"headroom": 7}})))
    assert any(d.path == "<rule options>" and "headroom = 7" in d.message
               for d in result.diagnostics)


def test_bare_pod_alternatives_stay_with_the_pods_cloud_and_vendor() -> None:
    result = _scan("gpu-model-does-not-fit/serve.yaml")
    msg = _message(result, "gpu-model-does-not-fit", "Deployment/big")
    # A GKE accelerator pod: the fit is priced on GCP in the pod's own region (the default
    # one), never on another cloud's GPUs or in another region.
    row = catalog.price("gcp", "g2-standard-96", "us-central1")  # the node holding 8 L4
    assert row is not None and row.ondemand is not None
    assert f"8× L4 (178.8 GiB, ${row.ondemand:,.4g}/h in us-central1)" in msg


def test_idle_gpus_messages() -> None:
    result = _scan("gpu-unused-by-parallelism/servers.yaml")
    vllm = _message(result, "gpu-unused-by-parallelism", "Deployment/llama-8b-vllm")
    assert "vLLM uses one GPU unless --tensor-parallel-size is set, so 7 GPUs sit idle" in vllm
    assert "request 1 GPU per pod: $4,007/month instead of $32,058" in vllm
    tp2 = _message(result, "gpu-unused-by-parallelism", "StatefulSet/mixtral-awq")
    assert "tensor parallelism is 2 (container vllm args), so 2 GPUs sit idle" in tp2
    reasons = {(n.address, n.rule): n.reason for n in result.not_evaluated}
    assert "serving engine" in reasons[("Deployment/inhouse-image", "gpu-unused-by-parallelism")]
    assert "config.pbtxt" in reasons[("Deployment/triton", "gpu-unused-by-parallelism")]
    image = _message(result, "gpu-unused-by-parallelism", "Deployment/vllm-image-args")
    assert "vLLM uses one GPU unless --tensor-parallel-size is set, so 7 GPUs sit idle" in image
    tp_pp = _message(result, "gpu-unused-by-parallelism", "Deployment/vllm-tp-pp")
    assert "tensor parallelism 2 × pipeline parallelism 2 = 4 GPUs (container vllm args), " \
        "so 4 GPUs sit idle" in tp_pp


def test_example_inference_manifest_is_evaluated_for_idle_gpus() -> None:
    # The vLLM image with only args: the engine comes from the image, so the rule can decide.
    example = os.path.join(os.path.dirname(FIXTURES), "..", "examples", "kubernetes",
                           "inference.yaml")
    result = scan.run([example], [r for r in load_rules() if r.id in SIZING_RULES])
    assert not [n for n in result.not_evaluated if n.rule == "gpu-unused-by-parallelism"]
    msg = _message(result, "gpu-unused-by-parallelism", "Deployment/llm/chat-api")
    assert "so 7 GPUs sit idle" in msg


def test_idle_gpus_when_the_model_does_not_fit_says_raise_parallelism() -> None:
    result = _scan("gpu-model-does-not-fit/realistic.yaml")
    msg = _message(result, "gpu-unused-by-parallelism", "Deployment/qwen-32b-tp1")
    assert "raise the tensor parallelism to 4" in msg
    fit = _message(result, "gpu-model-does-not-fit", "Deployment/qwen-32b-tp1")
    # 22.35 GiB of one L4 on g6.12xlarge (AWS lists 22.35 GiB per L4; the catalog's figure) ×
    # vLLM's default --gpu-memory-utilization 0.92 (vllm/config/cache.py; the larger of the
    # defaults vLLM has documented) = 20.6 GiB.
    assert "20.6 GiB usable on the 1 of 4× L4 that tensor parallelism 1 uses" in fit


def test_idle_gpus_on_a_terraform_instance_name_a_smaller_instance_of_the_same_gpu() -> None:
    # Tags declare the parallelism of a machine whose serving command is not in the code.
    result = _scan("gpu-unused-by-parallelism/hosts.tf")
    tp1 = _message(result, "gpu-unused-by-parallelism", "aws_instance.tagged_tp1")
    assert "tensor parallelism is 1 (tag gpulint.dev/model, tag gpulint.dev/tensor-parallel), " \
        "so 3 GPUs sit idle; g6e.xlarge (1× L40S" in tp1
    gcp = _message(result, "gpu-unused-by-parallelism", "google_compute_instance.labelled_tp_pp")
    assert "tensor parallelism 2 × pipeline parallelism 2 = 4 GPUs" in gcp
    # 4× A100-40GB (160 GiB) do not hold the 70B model at typical load with 10% headroom
    # (about 155 GiB by gpulint's estimate), so the fix never offers the 4-GPU a2-highgpu-4g.
    assert "a2-highgpu-4g" not in gcp
    assert "the model needs 5 GPUs at typical load and no instance with 5–7 A100 GPUs" in gcp
    reasons = {n.address: n.reason for n in result.not_evaluated
               if n.rule == "gpu-unused-by-parallelism"}
    assert "variable tensor_parallel has no default" in reasons["aws_instance.tagged_tp_unset"]
    assert "'auto' is not a whole number" in reasons["aws_instance.tagged_tp_auto"]
    assert "tagged_tp4" not in str(reasons) and "serving engine" in reasons["aws_instance.tagged"]


def test_previous_generation_messages() -> None:
    result = _scan("gpu-previous-generation/instances.tf")
    box = _message(result, "gpu-previous-generation", "aws_instance.v100_box")
    assert "4× V100 (Volta, 2017), a previous-generation GPU" in box
    assert "p5.4xlarge (1× H100, 80 GiB" in box
    assert "has at least the same GPU memory" in box and "0.93×" in box
    phi = _message(result, "gpu-previous-generation", "aws_instance.phi3")
    assert ("holds the same estimate for microsoft/Phi-3-mini-4k-instruct "
            "(Phi-3-mini-4k-instruct, bf16") in phi


def test_min_relative_throughput_option() -> None:
    # 4× V100 -> 1× H100 gives 93% of the bandwidth: a 95% floor rules it out.
    strict = _scan("gpu-previous-generation/instances.tf",
                   gpu_previous_generation={"min_relative_throughput": 0.95})
    fired = {f.address for f in strict.findings if f.rule == "gpu-previous-generation"}
    assert "aws_instance.v100_box" not in fired


def test_deepseek_moe_and_an_alternative_with_another_gpu_count() -> None:
    result = _scan("gpu-oversized-for-model/realistic.yaml")
    msg = _message(result, "gpu-oversized-for-model", "Deployment/deepseek-lite-h100")
    # The deployment's estimate is for tensor parallelism 8 (the MLA cache is replicated on every
    # rank); the alternative says what the estimate comes to on its own GPU count.
    assert "DeepSeek-V2-Lite, bf16, 32k context, 8 concurrent sequences, tensor parallel 8" in msg
    assert "g6e.xlarge (1× L40S, 44.7 GiB, $1.861/h in us-east-1), holding it on 1 GPU (38.3 GiB)" \
        in msg
