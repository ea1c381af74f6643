# A made-up variant: a map of EKS node groups whose terraform.tfvars gives a CPU group and whose
# per-environment file gives the GPU groups.
provider "aws" {
  region = "us-east-1"
}

variable "node_groups" {
  type    = map(object({ instance_types = list(string), size = number }))
  default = {}
}

resource "aws_eks_node_group" "this" {
  for_each        = var.node_groups
  cluster_name    = "main"
  node_group_name = each.key
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-nodes"
  subnet_ids      = ["subnet-0abc"]
  instance_types  = each.value.instance_types
  scaling_config {
    min_size     = each.value.size
    max_size     = each.value.size
    desired_size = each.value.size
  }
}
