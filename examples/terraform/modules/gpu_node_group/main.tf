variable "cluster_name" {
  type = string
}

variable "instance_type" {
  type = string
}

variable "node_count" {
  type    = number
  default = 1
}

resource "aws_eks_node_group" "gpu" {
  cluster_name    = var.cluster_name
  node_group_name = "${var.cluster_name}-batch-gpu"
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0abc"]
  instance_types  = [var.instance_type]
  capacity_type   = "ON_DEMAND"

  labels = {
    workload = "batch"
  }

  scaling_config {
    desired_size = var.node_count
    min_size     = var.node_count
    max_size     = var.node_count
  }
}
