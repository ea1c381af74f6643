# ok: gpu-training-on-demand
resource "aws_eks_node_group" "gpu_spot" {
  cluster_name    = "ml"
  node_group_name = "gpu-spot"
  node_role_arn   = "arn:aws:iam::123456789012:role/node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["g5.12xlarge"]
  capacity_type   = "SPOT"
  labels          = { pool = "batch-spot" }
  scaling_config {
    min_size     = 0
    max_size     = 4
    desired_size = 0
  }
}

# ok: gpu-training-on-demand
resource "aws_eks_node_group" "gpu_ondemand" {
  cluster_name    = "ml"
  node_group_name = "gpu-ondemand"
  node_role_arn   = "arn:aws:iam::123456789012:role/node"
  subnet_ids      = ["subnet-1"]
  instance_types  = ["g5.12xlarge"]
  labels          = { pool = "batch-od" }
  scaling_config {
    min_size     = 0
    max_size     = 4
    desired_size = 0
  }
}
