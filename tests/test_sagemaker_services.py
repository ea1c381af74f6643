"""SageMaker training jobs, notebook instances, HyperPod clusters and endpoints outside us-east-1
are priced at SageMaker's own rate for that use, from public list prices.

Reference prices, written here (not read from gpulint's table), USD per instance-hour on demand:
- training ml.g5.2xlarge us-east-1: $1.515 (AWS Price List API, usage type
  USE1-Train:ml.g5.2xlarge, read 2026-08-20);
- training ml.g5.xlarge us-east-1: $1.408 (AWS Price List bulk CSV of offer AmazonSageMaker,
  published 2026-09-24, usage type USE1-Train:ml.g5.xlarge);
- notebook instance ml.g5.xlarge us-east-1: $1.41, ap-south-1: $1.69 (same bulk CSV, usage
  types USE1-Notebk:ml.g5.xlarge and APS3-Notebk:ml.g5.xlarge);
- HyperPod ml.g5.8xlarge us-east-1: $3.06 (AWS Price List API, usage type
  USE1-Cluster:ml.g5.8xlarge, SKU YQXD4PZ3BTQ5N2P4, offer published 2026-09-15);
- HyperPod ml.p4d.24xlarge us-west-2: $25.91001756 (usage type USW2-Cluster:ml.p4d.24xlarge,
  read 2026-10-01);
- real-time inference ml.g6.xlarge eu-west-3: $1.4302 (offer for eu-west-3 of 2026-10-04, usage
  type EUW3-Host:ml.g6.xlarge); us-east-2: $1.1267 (usage type USE2-Host:ml.g6.xlarge, read
  2026-09-25, github.com/xbill9/sagemaker-gemma).
A training job's run is bounded by stoppingCondition.maxRuntimeInSeconds, default 1 day (SageMaker
API reference, StoppingCondition).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gpulint.cli import cli

# The shape of the ACK sagemaker-controller's sample samples/training/my-training-job.yaml
# (aws-controllers-k8s/sagemaker-controller @ 36657038), on a GPU type.
TRAINING_JOB = """apiVersion: sagemaker.services.k8s.aws/v1alpha1
kind: TrainingJob
metadata:
  name: llm-finetune
  namespace: ml
spec:
  trainingJobName: llm-finetune
  hyperParameters:
    epochs: "3"
  algorithmSpecification:
    trainingImage: 763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311
    trainingInputMode: File
  roleARN: arn:aws:iam::123456789012:role/service-role/AmazonSageMaker-ExecutionRole
  outputDataConfig:
    s3OutputPath: s3://bucket/llm-finetune/output
  resourceConfig:
    instanceCount: 2
    instanceType: ml.g5.2xlarge
    volumeSizeInGB: 50
{stopping}{spot}  inputDataConfig:
    - channelName: train
      dataSource:
        s3DataSource:
          s3DataType: S3Prefix
          s3URI: s3://bucket/llm-finetune/train
          s3DataDistributionType: FullyReplicated
"""

# samples/hyperparameter_tuning/my-hyperparameter-job.yaml, trimmed, on a GPU type.
TUNING_JOB = """apiVersion: sagemaker.services.k8s.aws/v1alpha1
kind: HyperParameterTuningJob
metadata:
  name: xgb-tuning
spec:
  hyperParameterTuningJobName: xgb-tuning
  hyperParameterTuningJobConfig:
    strategy: Bayesian
    hyperParameterTuningJobObjective:
      type_: Minimize
      metricName: validation:error
    resourceLimits:
      maxNumberOfTrainingJobs: 10
      maxParallelTrainingJobs: 5
  trainingJobDefinition:
    algorithmSpecification:
      trainingImage: 683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1
      trainingInputMode: File
    roleARN: arn:aws:iam::123456789012:role/sm
    outputDataConfig:
      s3OutputPath: s3://bucket/tuning
    resourceConfig:
      instanceType: ml.g5.xlarge
      instanceCount: 1
      volumeSizeInGB: 25
    stoppingCondition:
      maxRuntimeInSeconds: 3600
"""

# samples/notebook_instance/my-notebook-instance.yaml, on a GPU type, in ap-south-1.
ACK_NOTEBOOK = """apiVersion: sagemaker.services.k8s.aws/v1alpha1
kind: NotebookInstance
metadata:
  name: my-notebook
  annotations:
    services.k8s.aws/region: ap-south-1
spec:
  instanceType: ml.g5.xlarge
  notebookInstanceName: my-notebook
  roleARN: arn:aws:iam::123456789012:role/sm
  volumeSizeInGB: 6
  directInternetAccess: Enabled
  rootAccess: Enabled
{lifecycle}"""

# "echo idle auto-stop" in base64, as the controller's lifecycle config sample encodes scripts.
LIFECYCLE = """---
apiVersion: sagemaker.services.k8s.aws/v1alpha1
kind: NotebookInstanceLifecycleConfig
metadata:
  name: autostop
spec:
  notebookInstanceLifecycleConfigName: autostop
  onStart:
    - content: ZWNobyBpZGxlIGF1dG8tc3RvcA==
"""

# samples/endpoint/endpoint_config.yaml, on a GPU type, in us-east-2.
ENDPOINT_CONFIG = """apiVersion: sagemaker.services.k8s.aws/v1alpha1
kind: EndpointConfig
metadata:
  name: chat
  annotations:
    services.k8s.aws/region: us-east-2
spec:
  endpointConfigName: chat
  productionVariants:
  - modelName: chat
    variantName: AllTraffic
    instanceType: ml.g6.xlarge
    initialVariantWeight: 1
    initialInstanceCount: 1
"""

# The Terraform registry's aws_sagemaker_notebook_instance example, on a GPU type.
NOTEBOOK_TF = """resource "aws_sagemaker_notebook_instance" "ni" {
  name          = "my-notebook-instance"
  role_arn      = "arn:aws:iam::123456789012:role/sm"
  instance_type = "ml.g5.xlarge"

  tags = {
    Name = "foo"
  }
}
"""

HYPERPOD_TF = """provider "aws" {{ region = "{region}" }}
resource "aws_sagemaker_cluster" "hp" {{
  cluster_name = "llm"
  instance_group {{
    instance_group_name = "workers"
    instance_type       = "{itype}"
    instance_count      = 2
    execution_role      = "arn:aws:iam::123456789012:role/hyperpod"
    lifecycle_config {{
      source_s3_uri = "s3://hyperpod/lifecycle/"
      on_create     = "on_create.sh"
    }}
  }}
}}
"""

ENDPOINT_TF = """provider "aws" { region = "eu-west-3" }
resource "aws_sagemaker_endpoint_configuration" "ep" {
  name = "chat"
  production_variants {
    variant_name           = "main"
    model_name             = "chat"
    instance_type          = "ml.g6.xlarge"
    initial_instance_count = 1
  }
}
"""


def _scan(tmp_path: Path, name: str, text: str) -> dict[str, Any]:
    (tmp_path / name).write_text(text)
    out = CliRunner().invoke(cli, ["scan", str(tmp_path), "--format", "json", "--fail-on",
                                   "never", "--no-cache"]).stdout
    report: dict[str, Any] = json.loads(out)
    return report


def _rules(report: dict[str, Any]) -> set[str]:
    return {f["rule"] for f in report["findings"]}


def _training(tmp_path: Path, stopping: str = "", spot: str = "") -> dict[str, Any]:
    return _scan(tmp_path, "tj.yaml", TRAINING_JOB.format(stopping=stopping, spot=spot))


def test_a_training_job_is_priced_per_run_at_the_training_rate(tmp_path: Path) -> None:
    report = _training(tmp_path, stopping="  stoppingCondition:\n    maxRuntimeInSeconds: 36000\n")
    (res,) = report["resources"]
    # One run: 2 instances × 10 h × $1.515/h (USE1-Train:ml.g5.2xlarge, 2026-08-20) = $30.30.
    assert res["monthly_cost_usd"] == pytest.approx(2 * 10 * 1.515, rel=0.05)
    assert res["hours_per_month"] == 10
    basis = str(res["price_basis"])
    assert "SageMaker on-demand training rate" in basis
    assert "one run a month, at most 10 h: stoppingCondition.maxRuntimeInSeconds = 36000" in basis
    (finding,) = [f for f in report["findings"] if f["rule"] == "gpu-training-on-demand"]
    assert finding["monthly_saving_usd"] is None  # managed spot has no per-type list price
    assert "no per-type managed spot price" in finding["saving_basis"]


def test_without_a_stopping_condition_a_run_lasts_the_default_day(tmp_path: Path) -> None:
    (res,) = _training(tmp_path)["resources"]
    assert res["monthly_cost_usd"] == pytest.approx(2 * 24 * 1.515, rel=0.05)
    assert "SageMaker's default of 1 day" in str(res["price_basis"])


def test_managed_spot_training_is_not_flagged_and_priced_at_most_on_demand(tmp_path: Path) -> None:
    report = _training(tmp_path, spot="  enableManagedSpotTraining: true\n")
    (res,) = report["resources"]
    assert res["capacity"] == "spot"
    assert "gpu-training-on-demand" not in _rules(report)
    # No per-type managed spot list price: the on-demand rate, labelled an upper bound.
    assert res["monthly_cost_usd"] == pytest.approx(2 * 24 * 1.515, rel=0.05)
    assert "an upper bound" in str(res["price_basis"])


def test_a_tuning_job_runs_its_parallel_jobs_in_rounds(tmp_path: Path) -> None:
    (res,) = _scan(tmp_path, "hpo.yaml", TUNING_JOB)["resources"]
    # 5 instances at a time, 10 jobs = 2 rounds of at most 1 h, × $1.408/h
    # (USE1-Train:ml.g5.xlarge, bulk CSV 2026-09-24) = $14.08.
    assert res["count"] == 5
    assert res["monthly_cost_usd"] == pytest.approx(5 * 2 * 1.408, rel=0.05)
    assert "10 training jobs, 5 at a time" in str(res["price_basis"])


def test_a_terraform_notebook_instance_is_always_on_at_the_notebook_rate(tmp_path: Path) -> None:
    report = _scan(tmp_path, "main.tf", NOTEBOOK_TF)
    (res,) = report["resources"]
    # $1.41/h (USE1-Notebk:ml.g5.xlarge, bulk CSV 2026-09-24) × 730 h = $1,029.30.
    assert res["monthly_cost_usd"] == pytest.approx(1.41 * 730, rel=0.05)
    assert "SageMaker on-demand notebook rate" in str(res["price_basis"])
    assert "gpu-notebook-without-shutdown" in _rules(report)


def test_an_ack_notebook_instance_in_its_annotated_region(tmp_path: Path) -> None:
    report = _scan(tmp_path, "nb.yaml", ACK_NOTEBOOK.format(lifecycle=""))
    (res,) = report["resources"]
    # $1.69/h (APS3-Notebk:ml.g5.xlarge, bulk CSV 2026-09-24) × 730 h = $1,233.70.
    assert res["region"] == "ap-south-1"
    assert res["monthly_cost_usd"] == pytest.approx(1.69 * 730, rel=0.05)
    assert "gpu-notebook-without-shutdown" in _rules(report)


def test_an_idle_stop_lifecycle_config_counts_as_idle_shutdown(tmp_path: Path) -> None:
    text = ACK_NOTEBOOK.format(lifecycle="  lifecycleConfigName: autostop\n") + LIFECYCLE
    assert "gpu-notebook-without-shutdown" not in _rules(_scan(tmp_path, "nb.yaml", text))


def test_a_lifecycle_config_outside_the_scan_is_not_guessed(tmp_path: Path) -> None:
    text = ACK_NOTEBOOK.format(lifecycle="  lifecycleConfigName: elsewhere\n")
    report = _scan(tmp_path, "nb.yaml", text)
    assert "gpu-notebook-without-shutdown" not in _rules(report)
    assert "'elsewhere' is not in the scan" in json.dumps(report["resources"][0]["unknowns"])


@pytest.mark.parametrize(("region", "itype", "hourly"), [
    ("us-east-1", "ml.g5.8xlarge", 3.06),  # USE1-Cluster, SKU YQXD4PZ3BTQ5N2P4, 2026-09-15
    ("us-west-2", "ml.p4d.24xlarge", 25.91001756),  # USW2-Cluster, read 2026-10-01
])
def test_a_hyperpod_group_is_priced_at_the_cluster_rate(tmp_path: Path, region: str, itype: str,
                                                        hourly: float) -> None:
    text = HYPERPOD_TF.format(region=region, itype=itype)
    (res,) = _scan(tmp_path, "main.tf", text)["resources"]
    assert res["monthly_cost_usd"] == pytest.approx(2 * hourly * 730, rel=0.05)
    assert "SageMaker on-demand hyperpod rate" in str(res["price_basis"])


def test_an_endpoint_outside_us_east_1_has_its_own_rate(tmp_path: Path) -> None:
    (res,) = _scan(tmp_path, "main.tf", ENDPOINT_TF)["resources"]
    # $1.4302/h (EUW3-Host:ml.g6.xlarge, 2026-10-04) × 730 h = $1,044.05.
    assert res["monthly_cost_usd"] == pytest.approx(1.4302 * 730, rel=0.05)
    assert "lower bound" not in str(res["price_basis"])


def test_an_ack_endpoint_config_in_its_annotated_region(tmp_path: Path) -> None:
    (res,) = _scan(tmp_path, "ep.yaml", ENDPOINT_CONFIG)["resources"]
    # $1.1267/h (USE2-Host:ml.g6.xlarge, read 2026-09-25) × 730 h = $822.49.
    assert res["monthly_cost_usd"] == pytest.approx(1.1267 * 730, rel=0.05)
    assert res["workload"] == "inference"


def test_a_type_without_a_sagemaker_rate_is_a_labelled_lower_bound(tmp_path: Path) -> None:
    text = TRAINING_JOB.format(stopping="", spot="").replace("ml.g5.2xlarge", "ml.p4d.24xlarge")
    (res,) = _scan(tmp_path, "tj.yaml", text)["resources"]
    basis = str(res["price_basis"])
    assert "no SageMaker training job rate" in basis and "lower bound" in basis
