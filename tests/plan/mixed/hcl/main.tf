# The configuration tests/plan/mixed/plan.json was planned from (written by hand to match).
variable "region" {
  default = "us-west-2"
}
variable "env" {}

provider "aws" {
  region = var.region
  default_tags {
    tags = { team = "ml" }
  }
}

provider "google" {
  region = "us-central1"
}

resource "aws_instance" "gpu" {
  count         = 2
  instance_type = "g5.12xlarge"
  tags          = { Name = "trainer-${count.index}", env = var.env }
}

resource "aws_launch_template" "lt" {
  instance_type = "g5.xlarge"
}

resource "aws_eks_node_group" "ng" {
  cluster_name    = "ml"
  node_group_name = "gpu"
  node_role_arn   = "arn:aws:iam::123456789012:role/ng"
  subnet_ids      = ["subnet-1"]
  capacity_type   = "SPOT"
  launch_template {
    id      = aws_launch_template.lt.id
    version = "1"
  }
  scaling_config {
    min_size     = 1
    max_size     = 3
    desired_size = 1
  }
}

data "aws_ssm_parameter" "type" {
  name = "/gpu/type"
}

resource "aws_instance" "from_data" {
  instance_type = data.aws_ssm_parameter.type.value
}

module "gpu" {
  source        = "./modules/gpu"
  instance_type = "p4d.24xlarge"
}

resource "google_container_node_pool" "l4" {
  name       = "l4"
  cluster    = "ml"
  location   = "us-central1-a"
  node_count = 2
  node_config {
    machine_type = "g2-standard-8"
    spot         = true
    labels       = { workload = "inference" }
  }
}
