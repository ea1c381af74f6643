"""Model-serving and training operators read as their users write them (fixtures shaped like
the operators' documented examples): resources, GPU counts, models, replicas and costs."""

from __future__ import annotations

import os

import pytest

from gpulint import pipeline as scan
from gpulint.facts.model_decl import declared_model
from gpulint.model import Resource, Unknown
from gpulint.pricing import catalog
from gpulint.ruleset import load_rules

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "kubernetes", "operators")


@pytest.fixture(scope="module")
def got() -> dict[str, Resource]:
    result = scan.run([HERE], load_rules())
    assert not [d for d in result.diagnostics if d.severity == "error"], result.diagnostics
    return {r.address: r for r in result.resources}


def _hourly(provider: str, itype: str) -> float:
    """On-demand price of one node in the provider's default region, from the catalog row."""
    p = catalog.price(provider, itype, catalog.default_region(provider))
    assert p is not None and p.ondemand is not None
    return p.ondemand


def _f(r: Resource, *names: str) -> tuple[object, ...]:
    return tuple(r.facts.get(n) for n in names)


def test_every_operator_workload_is_found(got: dict[str, Resource]) -> None:
    # Before these kinds were read, none of them was found (Volcano's Job was read as batch's).
    assert sorted(got) == [
        "HyperPodPyTorchJob/hyperpod-ns-nlp/llama3-70b-lora/pods",
        "HyperPodPytorchJob/hyperpod-ns-nlp/bert-finetune/pods",
        "InferenceSet/assistants/deepseek-distill",
        "Job/vision/resnet-ddp/master", "Job/vision/resnet-ddp/worker",
        "LLMInferenceService/genai/deepseek-v3-dp",
        "LLMInferenceService/genai/deepseek-v3-dp/worker",
        "LLMInferenceService/genai/granite-8b", "LLMInferenceService/genai/llama-8b-pd",
        "LLMInferenceService/genai/llama-8b-pd/prefill", "LLMInferenceService/genai/qwen-7b",
        "MultiRoleInference/assistants/qwen-pd/decode",
        "MultiRoleInference/assistants/qwen-pd/prefill",
        "NIMService/nim-service/llama-31-8b-instruct", "NIMService/nim-service/nv-embedqa",
        "RAGEngine/assistants/docs-rag-gpu",  # docs-rag-cpu runs on a CPU node type
        "SparkApplication/spark-jobs/etl-rapids/executor",  # the driver has no GPU
        "SparkApplication/spark-jobs/feature-gen/executor",
        "TrainJob/research/finetune-mistral/trainer", "TrainJob/research/pretrain-small/trainer",
        "Workspace/assistants/workspace-falcon-byo", "Workspace/assistants/workspace-llama-70b",
        "Workspace/assistants/workspace-phi-4-mini", "Workspace/assistants/workspace-tuning-phi-3",
    ]


def test_kaito_workspace_preset_config_and_instance_type(got: dict[str, Resource]) -> None:
    r = got["Workspace/assistants/workspace-phi-4-mini"]
    assert _f(r, "instance.type", "gpu.count", "gpu.model", "workload") == \
        ("Standard_NV36ads_A10_v5", 1, "A10", "inference")
    decl = declared_model(r)
    assert (decl.id, decl.context, decl.gpu_memory_utilization) == \
        ("microsoft/Phi-4-mini-instruct", 16384, 0.85)  # preset table + the vLLM ConfigMap
    assert r.facts["cost.monthly"] == pytest.approx(
        _hourly("azure", "Standard_NV36ads_A10_v5") * 730)


def test_kaito_multi_node_workspace_fits_over_its_nodes(got: dict[str, Resource]) -> None:
    r = got["Workspace/assistants/workspace-llama-70b"]
    assert _f(r, "replicas.desired", "group.gpu_count", "model.fits", "sizing.idle_gpus") == \
        (2, 2, True, 0)  # 70B bf16 over 2 × A100-80GB, pipeline parallel over the nodes
    assert r.facts["cost.monthly"] == pytest.approx(
        _hourly("azure", "Standard_NC24ads_A100_v4") * 2 * 730)


def test_kaito_tuning_inference_set_and_roles(got: dict[str, Resource]) -> None:
    tuning = got["Workspace/assistants/workspace-tuning-phi-3"]
    assert _f(tuning, "workload", "model.purpose") == ("training", "qlora")
    iset = got["InferenceSet/assistants/deepseek-distill"]
    assert _f(iset, "replicas.min", "replicas.max") == (2, 5)  # KEDA max-replicas annotation
    assert declared_model(iset).id == "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B"
    decode = got["MultiRoleInference/assistants/qwen-pd/decode"]
    assert _f(decode, "replicas.desired", "gpu.count", "sizing.idle_gpus") == (2, 2, 0)


def test_kaito_without_instance_type_is_not_dropped(got: dict[str, Resource]) -> None:
    count = got["Workspace/assistants/workspace-falcon-byo"].facts["gpu.count"]
    assert isinstance(count, Unknown) and "set the instance type" in count.reason


def test_llm_inference_service_base_refs_and_scaling(got: dict[str, Resource]) -> None:
    r = got["LLMInferenceService/genai/qwen-7b"]
    # The GPU and its node selector come from the LLMInferenceServiceConfig it names.
    assert _f(r, "gpu.count", "gpu.model", "replicas.desired") == (1, "L40S", 2)
    assert declared_model(r).id == "Qwen/Qwen2.5-7B-Instruct"
    missing = got["LLMInferenceService/genai/granite-8b"].facts["gpu.count"]
    assert "platform-vllm-h100 not in the scan" in missing.reason


def test_llm_inference_service_multi_node_and_prefill(got: dict[str, Resource]) -> None:
    leader = got["LLMInferenceService/genai/deepseek-v3-dp"]
    worker = got["LLMInferenceService/genai/deepseek-v3-dp/worker"]
    assert _f(leader, "replicas.desired", "group.gpu_count", "model.fits") == (1, 16, True)
    assert worker.facts["replicas.desired"] == 1  # data 16 / dataLocal 8 = 2 pods per replica
    node = _hourly("aws", "p5en.48xlarge")
    assert leader.facts["cost.monthly"] + worker.facts["cost.monthly"] == \
        pytest.approx(node * 2 * 730)
    prefill = got["LLMInferenceService/genai/llama-8b-pd/prefill"]
    assert _f(prefill, "replicas.desired", "gpu.model") == (1, "L4")


def test_nim_service_image_is_the_model(got: dict[str, Resource]) -> None:
    r = got["NIMService/nim-service/llama-31-8b-instruct"]
    assert declared_model(r).id == "meta/llama-3.1-8b-instruct"
    assert _f(r, "replicas.min", "replicas.max", "gpu.model") == (1, 4, "A10G")
    unknown = got["NIMService/nim-service/nv-embedqa"].facts["gpu.count"]
    assert "model profile" in unknown.reason


def test_trainjob_joined_to_its_runtime(got: dict[str, Resource]) -> None:
    r = got["TrainJob/research/finetune-mistral/trainer"]
    assert _f(r, "gpu.count", "replicas.desired", "instance.type", "workload") == \
        (4, 2, "g6e.12xlarge", "training")  # numNodes and GPUs from TrainingRuntime torch-l40s
    assert r.facts["cost.monthly"] == pytest.approx(_hourly("aws", "g6e.12xlarge") * 2 * 730)
    missing = got["TrainJob/research/pretrain-small/trainer"].facts["gpu.count"]
    assert "ClusterTrainingRuntime torch-distributed, which is not in the scan" in missing.reason


def test_hyperpod_ml_types_are_ec2_types(got: dict[str, Resource]) -> None:
    r = got["HyperPodPyTorchJob/hyperpod-ns-nlp/llama3-70b-lora/pods"]
    assert _f(r, "instance.type", "gpu.count", "replicas.desired") == ("p5.48xlarge", 8, 2)
    assert r.facts["cost.monthly"] == pytest.approx(_hourly("aws", "p5.48xlarge") * 2 * 730)
    bert = got["HyperPodPytorchJob/hyperpod-ns-nlp/bert-finetune/pods"]
    assert _f(bert, "instance.type", "gpu.count", "replicas.desired") == ("g5.8xlarge", 1, 4)


def test_spark_executors_and_volcano_tasks(got: dict[str, Resource]) -> None:
    ex = got["SparkApplication/spark-jobs/etl-rapids/executor"]
    assert _f(ex, "gpu.count", "replicas.desired", "instance.type") == (1, 4, "g4dn.2xlarge")
    assert ex.facts["cost.monthly"] == pytest.approx(_hourly("aws", "g4dn.2xlarge") * 4 * 730)
    master, worker = got["Job/vision/resnet-ddp/master"], got["Job/vision/resnet-ddp/worker"]
    assert _f(worker, "replicas.desired", "workload", "group.gpu_count") == (3, "training", 32)
    assert master.facts["k8s.kind"] == "Job" and master.facts["gpu.model"] == "A100"


def test_spark_gpu_from_spark_conf_and_dynamic_allocation(got: dict[str, Resource]) -> None:
    r = got["SparkApplication/spark-jobs/feature-gen/executor"]
    assert _f(r, "gpu.count", "gpu.model", "replicas.min", "replicas.max") == (1, "L4", 2, 8)
    best = catalog.cheapest_per_gpu_hour("L4", "aws")
    assert best is not None
    assert r.facts["cost.monthly"] == pytest.approx(best[0] * 2 * 730, abs=0.01)  # cents
