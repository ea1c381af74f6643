# ruleid: gpu-training-on-demand
resource "aws_instance" "trainer" {
  instance_type = "p4d.24xlarge"
  tags          = { workload = "training" }
}

# ok: gpu-training-on-demand
resource "aws_instance" "spot_trainer" {
  instance_type = "p4d.24xlarge"
  instance_market_options {
    market_type = "spot"
  }
  tags = { workload = "training" }
}

# Inference servers are not restartable batch work.
# ok: gpu-training-on-demand
resource "aws_instance" "server" {
  instance_type = "g5.xlarge"
  tags          = { workload = "inference" }
}

# The workload is read from the resource name when no tag says so.
# ruleid: gpu-training-on-demand
resource "aws_instance" "llm_finetune" {
  instance_type = "g5.12xlarge"
}

variable "gpu_type" {
  type = string
}

# Instance type comes from a variable without a value: could not evaluate, stays silent.
# ok: gpu-training-on-demand
resource "aws_instance" "from_var" {
  instance_type = var.gpu_type
  tags          = { workload = "training" }
}

# ruleid: gpu-training-on-demand
resource "aws_eks_node_group" "train" {
  cluster_name   = "ml"
  instance_types = ["p5.48xlarge"]
  capacity_type  = "ON_DEMAND"
  labels         = { workload = "training" }
  scaling_config {
    desired_size = 1
    min_size     = 1
    max_size     = 4
  }
}

# ok: gpu-training-on-demand
resource "aws_eks_node_group" "train_spot" {
  cluster_name   = "ml"
  instance_types = ["p5.48xlarge"]
  capacity_type  = "SPOT"
  labels         = { workload = "training" }
  scaling_config {
    desired_size = 1
    min_size     = 1
    max_size     = 4
  }
}
