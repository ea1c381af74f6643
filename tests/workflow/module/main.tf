# The instance type and tags come from variables.tf: scanning this file alone still needs them.
resource "aws_instance" "train" {
  instance_type = var.gpu_type
  tags          = merge(local.tags, { workload = "training" })
}
