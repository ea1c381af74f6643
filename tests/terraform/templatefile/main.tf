# Node groups described by a YAML template rendered with templatefile() and decoded, as
# platform repositories keep per-environment pools; a heredoc user_data whose interpolation
# holds quoted strings with escaped quotes.
variable "environment" {
  default = "prod"
}

locals {
  pools = yamldecode(templatefile("${path.module}/templates/pools.yaml.tftpl", {
    environment = var.environment
    gpu_type    = "g6.12xlarge"
    gpu_count   = 2
  }))
  nodes = ["a", "b"]
}

# g6.12xlarge us-east-1 on demand 4.6016 × 2 × 730 = 6718.34.
# expect: address='aws_eks_node_group.pools["inference"]' instance.type=g6.12xlarge gpu.model=L4 gpu.count=4 cost.count=2 cost.monthly=6718.34 tags.env=prod
# expect-none: aws_eks_node_group.pools["system"]
resource "aws_eks_node_group" "pools" {
  for_each        = local.pools
  cluster_name    = "ml-${var.environment}"
  node_group_name = each.key
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a"]
  instance_types  = [each.value.instance_type]
  tags            = { env = each.value.env }

  scaling_config {
    min_size     = each.value.size
    max_size     = each.value.size
    desired_size = each.value.size
  }
}

# A template with a %{ for } directive and `~` strip markers: one line per type.
# p5.48xlarge us-east-1 on demand 55.04 × 730 = 40179.20.
# expect: instance.type=p5.48xlarge gpu.model=H100 gpu.count=8 cost.count=1 cost.monthly=40179.2
resource "aws_instance" "from_directive" {
  instance_type = trimspace(templatefile("${path.module}/templates/type.tftpl", { types = ["p5.48xlarge"] }))
}

# A template outside the scanned tree is never read.
# expect-note: outside the scanned tree
resource "aws_instance" "outside" {
  instance_type = templatefile("${path.module}/../../../README.md", {})
}

# The heredoc's interpolation holds quoted strings with escaped quotes (valid HCL that the
# parser underneath rejected when the body was re-read as one quoted string).
# expect: instance.type=g5.xlarge gpu.model=A10G
resource "aws_instance" "bootstrap" {
  instance_type = "g5.xlarge"
  user_data     = <<-EOT
    #!/bin/bash
    echo 'NODES=${join(",", [for n in local.nodes : "\"${n}\""])}' >> /etc/environment
  EOT
}
