# SageMaker endpoints and notebooks, AWS Batch.
variable "endpoint_type" {}

resource "aws_sagemaker_model" "llama" {
  name               = "llama"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-tgi-inference:2.4"
    environment = {
      HF_MODEL_ID = "meta-llama/Llama-3.1-8B-Instruct"
      SM_NUM_GPUS = "4"
    }
  }
}

# An endpoint is priced at SageMaker's own ml.g5.12xlarge hosting rate, $7.09/h in us-east-1 (AWS Price List,
# AmazonSageMaker, 2026-08), × 2 instances × 730 h.
# expect: instance.type=ml.g5.12xlarge gpu.count=4 gpu.model=A10G capacity=on-demand workload=inference model.declared=meta-llama/Llama-3.1-8B-Instruct cost.count=2 cost.monthly=10351.4
resource "aws_sagemaker_endpoint_configuration" "llm" {
  name = "llm"
  production_variants {
    variant_name           = "main"
    model_name             = aws_sagemaker_model.llama.name
    instance_type          = "ml.g5.12xlarge"
    initial_instance_count = 2
  }
}

# Two variants: one resource each; a serverless variant has no GPU.
# expect: address=aws_sagemaker_endpoint_configuration.ab.production_variants[0] instance.type=ml.g5.xlarge cost.count=1
# expect: address=aws_sagemaker_endpoint_configuration.ab.production_variants[1] instance.type=ml.g6.xlarge
resource "aws_sagemaker_endpoint_configuration" "ab" {
  production_variants {
    variant_name           = "a"
    model_name             = "external-model"
    instance_type          = "ml.g5.xlarge"
    initial_instance_count = 1
  }
  production_variants {
    variant_name           = "b"
    model_name             = "external-model"
    instance_type          = "ml.g6.xlarge"
    initial_instance_count = 1
  }
}

# expect-note: endpoint_type has no default
resource "aws_sagemaker_endpoint_configuration" "unresolved" {
  production_variants {
    variant_name  = "main"
    model_name    = "m"
    instance_type = var.endpoint_type
  }
}

resource "aws_sagemaker_notebook_instance_lifecycle_configuration" "autostop" {
  name     = "autostop"
  on_start = base64encode(file("${path.module}/scripts/autostop.sh"))
}

resource "aws_sagemaker_notebook_instance_lifecycle_configuration" "pip" {
  name     = "pip"
  on_start = base64encode("pip install -U transformers")
}

resource "aws_sagemaker_notebook_instance_lifecycle_configuration" "inline_idle" {
  name     = "idle"
  on_start = "IyEvYmluL2Jhc2gKSURMRV9USU1FPTM2MDAKcHl0aG9uIGF1dG8tc3RvcC5weSAtLXRpbWUgJElETEVfVElNRQo="
}

# SageMaker notebook instance rate of ml.g5.xlarge in us-east-1: $1.41/h (AWS Price List,
# usage type USE1-Notebk:ml.g5.xlarge, bulk CSV published 2026-09-24) × 730 h = 1029.30.
# expect: workload=notebook shutdown=idle instance.type=ml.g5.xlarge cost.monthly=1029.3
resource "aws_sagemaker_notebook_instance" "with_autostop" {
  name                  = "research"
  role_arn              = "arn:aws:iam::123456789012:role/sm"
  instance_type         = "ml.g5.xlarge"
  lifecycle_config_name = aws_sagemaker_notebook_instance_lifecycle_configuration.autostop.name
}

# The script is base64 of "IDLE_TIME=3600 … auto-stop.py".
# expect: shutdown=idle
resource "aws_sagemaker_notebook_instance" "with_inline_idle" {
  name                  = "research-2"
  role_arn              = "arn:aws:iam::123456789012:role/sm"
  instance_type         = "ml.g4dn.xlarge"
  lifecycle_config_name = aws_sagemaker_notebook_instance_lifecycle_configuration.inline_idle.name
}

# expect: workload=notebook shutdown=none
resource "aws_sagemaker_notebook_instance" "always_on" {
  name                  = "scratch"
  role_arn              = "arn:aws:iam::123456789012:role/sm"
  instance_type         = "ml.g5.xlarge"
  lifecycle_config_name = aws_sagemaker_notebook_instance_lifecycle_configuration.pip.name
}

# expect-note: endpoint_type has no default
resource "aws_sagemaker_notebook_instance" "unresolved" {
  name          = "x"
  role_arn      = "arn:aws:iam::123456789012:role/sm"
  instance_type = var.endpoint_type
}

# Batch sizes environments in vCPUs: g5.12xlarge has 48, so 0–192 vCPUs is 0–4 instances.
# expect: capacity=spot workload=batch instance.type=g5.12xlarge replicas.min=0 replicas.max=4 shutdown=scale-to-zero cost.monthly=0 cost.monthly_max=5561.43
resource "aws_batch_compute_environment" "spot" {
  type = "MANAGED"
  compute_resources {
    type          = "SPOT"
    instance_type = ["g5.12xlarge"]
    min_vcpus     = 0
    max_vcpus     = 192
    subnets       = ["subnet-1"]
  }
}

# 96 vCPUs minimum on p4d.24xlarge (96 vCPUs) is one instance always running.
# expect: capacity=on-demand replicas.min=1 replicas.max=2 shutdown=none cost.count=1 cost.monthly=16029.08
resource "aws_batch_compute_environment" "on_demand" {
  type = "MANAGED"
  compute_resources {
    type          = "EC2"
    instance_type = ["p4d.24xlarge"]
    min_vcpus     = 96
    max_vcpus     = 192
    subnets       = ["subnet-1"]
  }
}

# expect-note: endpoint_type has no default
resource "aws_batch_compute_environment" "unresolved" {
  type = "MANAGED"
  compute_resources {
    type          = "EC2"
    instance_type = [var.endpoint_type]
    max_vcpus     = 16
    subnets       = ["subnet-1"]
  }
}

# Fargate has no GPUs.
# expect-none:
resource "aws_batch_compute_environment" "fargate" {
  type = "MANAGED"
  compute_resources {
    type      = "FARGATE"
    max_vcpus = 16
    subnets   = ["subnet-1"]
  }
}
