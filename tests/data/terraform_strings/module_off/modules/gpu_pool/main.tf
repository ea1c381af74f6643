variable "cluster_name" {
  type = string
}

resource "aws_eks_node_group" "gpu" {
  cluster_name    = var.cluster_name
  node_group_name = "gpu"
  node_role_arn   = "arn:aws:iam::111122223333:role/eks-nodes"
  subnet_ids      = ["subnet-0a1b2c3d"]
  ami_type        = "AL2_x86_64_GPU"
  instance_types  = ["g5.12xlarge"] # 4x A10G

  scaling_config {
    min_size     = 0
    desired_size = 1
    max_size     = 4
  }
}
