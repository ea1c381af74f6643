# Realistic serving hosts. Estimates use the documented defaults: bf16 unless the name or a tag
# says otherwise, context min(max, 8192), 8 concurrent sequences, 10% headroom.
provider "aws" {
  region = "us-east-1"
}

variable "region" {
  type = string
}

provider "aws" {
  alias  = "elsewhere"
  region = var.region
}

# Llama 3.1 8B needs ~25 GiB; eight A100s give 320 GiB.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "llama_8b" {
  instance_type = "p4d.24xlarge"
  tags          = { model = "meta-llama/Llama-3.1-8B-Instruct" }
}

# Llama 3.1 70B in bf16 (~155 GiB) on 8× A100 80GB (640 GiB).
# ruleid: gpu-oversized-for-model
resource "aws_instance" "llama_70b" {
  instance_type = "p4de.24xlarge"
  tags          = { model = "meta-llama/Llama-3.1-70B-Instruct" }
}

# The same 70B model quantized with AWQ needs ~59 GiB.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "llama_70b_awq" {
  instance_type = "g6e.12xlarge"
  tags          = { model = "hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4" }
}

# Mixtral keeps all 46.7B parameters resident (~98 GiB), still far below 8× H100.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "mixtral" {
  instance_type = "p5.48xlarge"
  tags          = { model = "mistralai/Mixtral-8x7B-Instruct-v0.1" }
}

# Not in the catalog: size read from the name (13B), and the message says it is estimated.
# ruleid: gpu-oversized-for-model
resource "aws_instance" "in_house" {
  instance_type = "p4d.24xlarge"
  tags          = { model = "acme/support-bot-13b-chat" }
}

# 70B in bf16 on the cheapest instance that holds it: right-sized.
# ok: gpu-oversized-for-model
resource "aws_instance" "llama_70b_right_sized" {
  instance_type = "g7e.12xlarge"
  tags          = { model = "meta-llama/Llama-3.1-70B-Instruct" }
}

# Region unknown: no price to compare, reported as not evaluated.
# ok: gpu-oversized-for-model
resource "aws_instance" "llama_8b_unknown_region" {
  provider      = aws.elsewhere
  instance_type = "p4d.24xlarge"
  tags          = { model = "meta-llama/Llama-3.1-8B-Instruct" }
}

# Qwen2.5 14B (~43 GiB) on 4× A100 40GB on GCP: two L4s in the same region hold it.
# ruleid: gpu-oversized-for-model
resource "google_compute_instance" "qwen" {
  name         = "qwen"
  machine_type = "a2-highgpu-4g"
  zone         = "us-central1-a"
  labels       = { model = "qwen2.5-14b-instruct" }
}

# DeepSeek-V2-Lite (16B MoE, MLA) on one A100 80GB on Azure: the cheapest fit in the region.
# ok: gpu-oversized-for-model
resource "azurerm_linux_virtual_machine" "deepseek" {
  name     = "deepseek"
  size     = "Standard_NC24ads_A100_v4"
  location = "eastus"
  tags     = { model = "deepseek-ai/DeepSeek-V2-Lite-Chat" }
}

# Inferentia2: no GPU is proposed for a Neuron workload.
# ok: gpu-oversized-for-model
resource "aws_instance" "neuron" {
  instance_type = "inf2.48xlarge"
  tags          = { model = "meta-llama/Llama-3.1-8B-Instruct" }
}
