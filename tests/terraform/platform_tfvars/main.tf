# A root module whose values live in var files that Terraform does not load by itself: the
# pipeline runs `terraform apply -var-file=platform.tfvars -var-file=envs/prod.tfvars`. Each
# variable left without a value names the file of this directory that sets it.

# expect: gpu.count=? why:instance.type="set by platform.tfvars (not auto-loaded): pass --var-file tests/terraform/platform_tfvars/platform.tfvars"
resource "aws_eks_node_group" "inference" {
  cluster_name    = var.cluster_name
  node_group_name = "inference"
  node_role_arn   = "arn:aws:iam::123456789012:role/eks-node"
  subnet_ids      = ["subnet-0a"]
  instance_types  = [var.gpu_instance_type]
  ami_type        = "AL2023_x86_64_NVIDIA"

  scaling_config {
    min_size     = 1
    max_size     = 4
    desired_size = var.gpu_desired_size
  }
}

# Set by two files of the directory: both named, the first given as the flag.
# expect-note: set by blue.tfvars, green.tfvars (not auto-loaded): pass --var-file tests/terraform/platform_tfvars/blue.tfvars (or another of them)
resource "aws_instance" "trainer" {
  instance_type = var.training_instance_type
  tags          = { Name = "trainer" }
}
