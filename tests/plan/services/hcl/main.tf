# The configuration tests/plan/services/plan.json was planned from (written by hand to match).
provider "aws" {
  region = "eu-west-1"
}

provider "google" {
  region         = "us-central1"
  default_labels = { team = "ml" }
}

resource "aws_sagemaker_model" "m" {
  name               = "m"
  execution_role_arn = "arn:aws:iam::123456789012:role/sm"
  primary_container {
    image       = "763104351884.dkr.ecr.eu-west-1.amazonaws.com/tgi:2.4"
    environment = { HF_MODEL_ID = "Qwen/Qwen2.5-7B-Instruct" }
  }
}

resource "aws_sagemaker_endpoint_configuration" "ep" {
  name = "ep"
  production_variants {
    variant_name           = "main"
    model_name             = aws_sagemaker_model.m.name
    instance_type          = "ml.g5.2xlarge"
    initial_instance_count = 1
  }
}

resource "google_compute_instance_template" "t" {
  machine_type = "g2-standard-8"
  labels       = { workload = "inference" }
}

resource "google_compute_region_instance_group_manager" "m" {
  name               = "m"
  region             = "us-central1"
  base_instance_name = "m"
  target_size        = 2
  version {
    instance_template = google_compute_instance_template.t.id
  }
}

module "nodes" {
  count  = 2
  source = "./modules/nodes"
  size   = "Standard_NC4as_T4_v3"
}
