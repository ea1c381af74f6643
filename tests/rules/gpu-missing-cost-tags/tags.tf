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
