# GPU pools whose instance type is not in the code: the type comes from a variable the
# repository leaves to its pipeline, or from a launch template in another module. Each is
# "could not evaluate" with what marks it as GPU nodes; a pool with a CPU type is not reported,
# whatever its labels say.
variable "cluster_name" {
  default = "ml"
}

variable "gpu_instance_types" {
  type        = list(string)
  description = "Set by the deployment pipeline per environment."
}

variable "launch_template_id" {
  type    = string
  default = "lt-0a1b2c3d"
}

locals {
  node_groups = {
    system = {
      ami_type       = "AL2023_x86_64_STANDARD"
      instance_types = ["m6i.xlarge"]
      labels         = { role = "system" }
      taints         = []
    }
    gpu = {
      ami_type       = "AL2023_x86_64_NVIDIA"
      instance_types = var.gpu_instance_types
      labels         = { role = "inference" }
      taints         = []
    }
    # A CPU group that tolerates nothing special but carries a GPU-looking label by mistake:
    # its type says CPU, so it is not reported.
    batch-cpu = {
      ami_type       = "AL2023_x86_64_STANDARD"
      instance_types = ["c7i.4xlarge"]
      labels         = { "nvidia.com/gpu.present" = "true" }
      taints         = []
    }
  }
}

# expect: address='aws_eks_node_group.this["gpu"]' gpu.count=? why:instance.type="gpu_instance_types has no default" why:gpu.count="looks like GPU nodes (ami_type AL2023_x86_64_NVIDIA)"
# expect-none: aws_eks_node_group.this["system"]
# expect-none: aws_eks_node_group.this["batch-cpu"]
resource "aws_eks_node_group" "this" {
  for_each = local.node_groups

  cluster_name    = var.cluster_name
  node_group_name = each.key
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a", "subnet-0b"]
  ami_type        = each.value.ami_type
  instance_types  = each.value.instance_types
  labels          = each.value.labels

  scaling_config {
    min_size     = 0
    max_size     = 4
    desired_size = 1
  }
}

# The launch template lives in a shared module, so its instance type is not known here; the
# taint says the nodes are GPUs.
# expect: gpu.count=? why:instance.type="launch template not found in this module" why:gpu.count="looks like GPU nodes (taint nvidia.com/gpu=true)"
resource "aws_eks_node_group" "training" {
  cluster_name    = var.cluster_name
  node_group_name = "training"
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a"]

  launch_template {
    id      = module.gpu_launch_template.id
    version = "$Latest"
  }

  taint {
    key    = "nvidia.com/gpu"
    value  = "true"
    effect = "NO_SCHEDULE"
  }

  scaling_config {
    min_size     = 0
    max_size     = 2
    desired_size = 0
  }
}

module "gpu_launch_template" {
  source = "./modules/launch-template"
}

# A CPU instance type with a GPU taint is a CPU pool: not reported.
# expect-none:
resource "aws_eks_node_group" "tainted_cpu" {
  cluster_name    = var.cluster_name
  node_group_name = "tainted-cpu"
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a"]
  instance_types  = ["m6i.large"]

  taint {
    key    = "nvidia.com/gpu"
    value  = "true"
    effect = "NO_SCHEDULE"
  }

  scaling_config {
    min_size     = 1
    max_size     = 1
    desired_size = 1
  }
}

# An instance launched from a template in this module takes the template's type (it was
# dropped before: the instance itself sets none). g5.xlarge us-east-1 on demand
# 1.006 × 730 = 734.38; the template is priced once, through the instance.
# expect: instance.type=g5.xlarge gpu.model=A10G capacity=on-demand cost.monthly=734.38 tags.team=ml
resource "aws_instance" "notebook" {
  launch_template {
    id      = aws_launch_template.notebook.id
    version = "$Latest"
  }
  tags = { Name = "notebook" }
}

# expect-none:
resource "aws_launch_template" "notebook" {
  name_prefix   = "notebook-"
  image_id      = "ami-0abcdef1234567890"
  instance_type = "g5.xlarge"

  tag_specifications {
    resource_type = "instance"
    tags          = { team = "ml" }
  }
}

# The community EKS module: AMI type and taints of a group whose types come from a variable.
# expect: address='module.eks.eks_managed_node_groups["gpu"]' gpu.count=? why:gpu.count="looks like GPU nodes (ami_type BOTTLEROCKET_x86_64_NVIDIA)"
module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name    = var.cluster_name
  cluster_version = "1.30"

  eks_managed_node_groups = {
    gpu = {
      ami_type       = "BOTTLEROCKET_x86_64_NVIDIA"
      instance_types = var.gpu_instance_types
      min_size       = 0
      max_size       = 2
      taints = {
        gpu = { key = "nvidia.com/gpu", value = "true", effect = "NO_SCHEDULE" }
      }
    }
  }
}
