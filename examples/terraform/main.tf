# An ML platform on AWS: an LLM inference server, a training box, a notebook and a GPU node group.
provider "aws" {
  region = var.region

  default_tags {
    tags = {
      team    = "ml-platform"
      project = "assistant"
    }
  }
}

locals {
  env        = "prod"
  serve_tags = { env = local.env, workload = "inference", model = var.model_id }
}

# Serves an 8B model in bf16 on eight A100s.
resource "aws_instance" "llm_server" {
  ami           = "ami-0123456789abcdef0"
  instance_type = var.inference_instance_type
  tags          = local.serve_tags
}

resource "aws_instance" "trainer" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "p4d.24xlarge"
  tags = {
    env      = local.env
    workload = "training"
  }
}

resource "aws_instance" "research_notebook" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "g5.2xlarge"
  tags = {
    env      = "dev"
    workload = "notebook"
  }
}

module "batch_gpus" {
  source        = "./modules/gpu_node_group"
  cluster_name  = "ml"
  instance_type = "g5.12xlarge"
  node_count    = 2
}
