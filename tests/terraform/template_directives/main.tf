# Template directives as platform repositories write them: a Karpenter NodePool and its
# workload rendered by templatefile() with %{ for } loops and %{ if } blocks (strip markers
# on every line), node groups from a heredoc looping over a map, and a type chosen by an
# %{ if } in a quoted string.
variable "enable_gpu" {
  type    = bool
  default = true
}

variable "gpu_types" {
  type    = list(string)
  default = ["g6.xlarge"]
}

variable "pools" {
  type = map(string)
  default = {
    l4   = "g6.xlarge"
    a10g = "g5.xlarge"
  }
}

variable "serving_gpu" {
  type = bool
}

resource "kubectl_manifest" "gpu_nodepool" {
  yaml_body = templatefile("${path.module}/templates/gpu-nodepool.yaml.tftpl", {
    name           = "gpu"
    node_class     = "default"
    gpu_types      = var.gpu_types
    capacity_types = ["on-demand"]
    max_gpus       = 8
  })
}

# g6.xlarge us-east-1 on demand 0.8048 × 3 replicas × 730 = 1762.51.
# expect: instance.type=g6.xlarge gpu.model=L4 gpu.count=1 cost.count=3 cost.monthly=1762.51 node_pool=NodePool/gpu
resource "kubectl_manifest" "llm" {
  yaml_body = templatefile("${path.module}/templates/llm.yaml.tftpl", {
    replicas   = 3
    nodepool   = "gpu"
    args       = ["--model", "mistralai/Mistral-7B-Instruct-v0.3", "--max-model-len", "8192"]
    enable_gpu = var.enable_gpu
    gpus       = 1
  })
}

# One node group per entry of the map, from a YAML heredoc looping over it with `for k, v`.
# g6.xlarge: 0.8048 × 1 × 730 = 587.50; g5.xlarge: 1.006 × 1 × 730 = 734.38.
# expect: address='aws_eks_node_group.pools["l4"]' instance.type=g6.xlarge cost.count=1 cost.monthly=587.5
# expect: address='aws_eks_node_group.pools["a10g"]' instance.type=g5.xlarge cost.count=1 cost.monthly=734.38
resource "aws_eks_node_group" "pools" {
  for_each        = local.node_groups
  cluster_name    = "ml"
  node_group_name = each.key
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a"]
  instance_types  = [each.value.instance_type]
  labels          = each.value.labels

  scaling_config {
    min_size     = each.value.min
    max_size     = each.value.max
    desired_size = each.value.min
  }
}

locals {
  node_groups = yamldecode(<<-EOT
    %{~ for name, type in var.pools ~}
    ${name}:
      instance_type: ${type}
      min: 1
      max: 4
      labels:
        gpu: "${name}"
    %{ endfor ~}
  EOT
  )
}

# g5.xlarge us-east-1 on demand 1.006 × 730 = 734.38.
# expect: instance.type=g5.xlarge cost.monthly=734.38
resource "aws_instance" "workstation" {
  instance_type = "%{ if var.enable_gpu }g5.xlarge%{ else }m6i.large%{ endif }"
}

# A condition that is unknown makes the whole value unknown, for the condition's reason.
# expect: why:instance.type="serving_gpu has no default"
resource "aws_instance" "serving" {
  instance_type = "%{ if var.serving_gpu }g6e.xlarge%{ else }g5.xlarge%{ endif }"
}
