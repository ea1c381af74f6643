variable "cluster_name" {
  type    = string
  default = "dev"
}

variable "node_groups" {
  type = map(object({
    instance_types = list(string)
    min_size       = number
    max_size       = number
    desired_size   = number
  }))
  default = {}
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_eks_node_group" "this" {
  for_each = var.node_groups

  cluster_name    = var.cluster_name
  node_group_name = each.key
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-nodes"
  subnet_ids      = ["subnet-0abc"]
  instance_types  = each.value.instance_types

  scaling_config {
    min_size     = each.value.min_size
    max_size     = each.value.max_size
    desired_size = each.value.desired_size
  }
}
