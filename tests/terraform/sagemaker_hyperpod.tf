# SageMaker HyperPod clusters. The Cloud Control provider (awscc) lists instance groups as
# objects, built here from a map of groups as HyperPod blueprints do; the AWS provider writes
# instance_group blocks. These ml.* types have no HyperPod rate in gpulint's table, so they are
# priced at the EC2 rate of the same instance, a lower bound (SageMaker charges more).
variable "worker_instance_type" {
  type        = string
  description = "Set per environment."
}

variable "instance_groups" {
  default = {
    controller-machine = {
      instance_type  = "ml.t3.medium"
      instance_count = 1
      spot           = false
    }
    accelerated-worker = {
      instance_type  = "ml.p5.48xlarge"
      instance_count = 2
      spot           = false
    }
    spot-worker = {
      instance_type  = "ml.g5.12xlarge"
      instance_count = 4
      spot           = true
    }
  }
}

# accelerated-worker: p5.48xlarge us-east-1 on demand 55.04 × 2 × 730 = 80358.4.
# spot-worker: g5.12xlarge spot 1.9046 × 4 × 730 = 5561.43.
# The controller (ml.t3.medium) has no GPU and is not reported.
# expect: address='awscc_sagemaker_cluster.training.instance_groups["accelerated-worker"]' instance.type=ml.p5.48xlarge gpu.model=H100 gpu.count=8 capacity=on-demand cost.count=2 cost.monthly=80358.4 workload=training tags.team=research
# expect: address='awscc_sagemaker_cluster.training.instance_groups["spot-worker"]' gpu.model=A10G capacity=spot cost.count=4 cost.monthly=5561.43
# expect-none: awscc_sagemaker_cluster.training.instance_groups["controller-machine"]
resource "awscc_sagemaker_cluster" "training" {
  cluster_name = "llm-training"

  instance_groups = [
    for name, group in var.instance_groups : merge({
      instance_group_name = name
      instance_type       = group.instance_type
      instance_count      = group.instance_count
      execution_role      = "arn:aws:iam::123456789012:role/hyperpod-exec"
      threads_per_core    = 1
      life_cycle_config = {
        source_s3_uri = "s3://hyperpod-lifecycle/base-config/"
        on_create     = "on_create.sh"
      }
    }, group.spot ? { capacity_requirements = { spot = jsonencode({}) } } : {})
  ]

  node_recovery = "Automatic"

  orchestrator = {
    eks = {
      cluster_arn = "arn:aws:eks:us-east-1:123456789012:cluster/ml"
    }
  }

  tags = [
    { key = "team", value = "research" },
  ]
}

# A group whose type comes from a variable with no value: could not evaluate, never dropped.
# expect-note: worker_instance_type has no default
resource "awscc_sagemaker_cluster" "unresolved" {
  cluster_name = "llm-inference"
  instance_groups = [{
    instance_group_name = "worker"
    instance_type       = var.worker_instance_type
    instance_count      = 1
    execution_role      = "arn:aws:iam::123456789012:role/hyperpod-exec"
    life_cycle_config = {
      source_s3_uri = "s3://hyperpod-lifecycle/base-config/"
      on_create     = "on_create.sh"
    }
  }]
}

# The AWS provider's resource: g6e.48xlarge on demand 30.13118 × 1 × 730 = 21995.76.
# expect: address='aws_sagemaker_cluster.slurm.instance_groups["gpu"]' gpu.model=L40S gpu.count=8 cost.monthly=21995.76 tags.team=research
resource "aws_sagemaker_cluster" "slurm" {
  cluster_name = "slurm"
  instance_group {
    execution_role      = "arn:aws:iam::123456789012:role/hyperpod-exec"
    instance_count      = 1
    instance_group_name = "gpu"
    instance_type       = "ml.g6e.48xlarge"
    lifecycle_config {
      on_create     = "on_create.sh"
      source_s3_uri = "s3://hyperpod-lifecycle/config/"
    }
  }
  tags = { team = "research" }
}
