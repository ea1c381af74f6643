resource "aws_instance" "batch" {
  instance_type = "g5.2xlarge"
  tags          = { team = "ml", project = "batch", env = "prod" }
}

# The same module name as in main.tf: Terraform refuses the directory ("Duplicate module call").
module "gpu_nodes" {
  source        = "../shared-nodes"
  instance_type = "p4d.24xlarge"
}
