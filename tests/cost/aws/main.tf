provider "aws" {
  region = "us-west-2"
}

resource "aws_instance" "ondemand" {
  instance_type = "g5.xlarge"
  tags          = { team = "search" }
}

resource "aws_instance" "spot" {
  instance_type = "g5.xlarge"
  instance_market_options {
    market_type = "spot"
  }
  tags = { team = "search" }
}

resource "aws_eks_node_group" "spot_pool" {
  cluster_name  = "ml"
  node_role_arn = "arn:aws:iam::1:role/n"
  subnet_ids    = ["s-1"]
  instance_types = ["p4d.24xlarge"]
  capacity_type  = "SPOT"
  scaling_config {
    min_size     = 2
    max_size     = 6
    desired_size = 3
  }
  tags = { team = "research" }
}

resource "aws_eks_node_group" "fixed" {
  cluster_name   = "ml"
  node_role_arn  = "arn:aws:iam::1:role/n"
  subnet_ids     = ["s-1"]
  instance_types = ["g6.xlarge"]
  scaling_config {
    min_size     = 3
    max_size     = 3
    desired_size = 3
  }
}
