provider "aws" {
  region = "us-west-2"
  default_tags {
    tags = { team = "ml", project = "search" }
  }
}

# default_tags supply team and project, env is missing.
# ruleid: gpu-missing-cost-tags
resource "aws_instance" "gpu" {
  instance_type = "g5.xlarge"
  tags          = { Name = "gpu-box" }
}

# ok: gpu-missing-cost-tags
resource "aws_instance" "tagged" {
  instance_type = "g5.xlarge"
  tags          = { env = "prod" }
}

# Not a GPU instance: not reported at all.
# ok: gpu-missing-cost-tags
resource "aws_instance" "web" {
  instance_type = "m5.large"
  tags          = {}
}

# ruleid: gpu-missing-cost-tags
resource "azurerm_kubernetes_cluster_node_pool" "gpu" {
  name       = "gpu"
  vm_size    = "Standard_NC4as_T4_v3"
  node_count = 1
  tags       = { team = "ml" }
}

# The instances an ASG launches carry its launch template's tag_specifications tags: env is
# set there (team and project come from default_tags).
resource "aws_launch_template" "tagged_at_launch" {
  instance_type = "g6e.2xlarge"
  tag_specifications {
    resource_type = "instance"
    tags          = { env = "prod" }
  }
}

# ok: gpu-missing-cost-tags
resource "aws_autoscaling_group" "tagged_at_launch" {
  min_size         = 1
  max_size         = 2
  desired_capacity = 1
  launch_template {
    id = aws_launch_template.tagged_at_launch.id
  }
}

# The template's own tags stay on the template: its instances have no env.
resource "aws_launch_template" "template_tags_only" {
  instance_type = "g6e.2xlarge"
  tags          = { env = "prod" }
}

# ruleid: gpu-missing-cost-tags
resource "aws_autoscaling_group" "template_tags_only" {
  min_size = 1
  max_size = 2
  launch_template {
    id = aws_launch_template.template_tags_only.id
  }
}

# A managed node group launched from a tagged template.
resource "aws_launch_template" "eks_nodes" {
  tag_specifications {
    resource_type = "instance"
    tags          = { env = "prod" }
  }
}

# ok: gpu-missing-cost-tags
resource "aws_eks_node_group" "tagged_at_launch" {
  cluster_name   = "ml"
  instance_types = ["g6e.2xlarge"]
  launch_template {
    id      = aws_launch_template.eks_nodes.id
    version = "$Latest"
  }
  scaling_config {
    min_size     = 1
    max_size     = 1
    desired_size = 1
  }
}
