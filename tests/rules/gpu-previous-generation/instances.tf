provider "aws" {
  region = "us-east-1"
}

# 4× V100 (64 GiB, 3.6 TB/s) with no model declared: one H100 has more memory per GPU and in
# total, 93% of the summed bandwidth and twice the tensor throughput, for less per hour.
# ruleid: gpu-previous-generation
resource "aws_instance" "v100_box" {
  instance_type = "p3.8xlarge"
  tags          = { workload = "training" }
}

# One V100 serving Phi-3 mini: an L40S holds the same estimate with 96% of the bandwidth.
# ruleid: gpu-previous-generation
resource "aws_instance" "phi3" {
  instance_type = "p3.2xlarge"
  tags          = { model = "microsoft/Phi-3-mini-4k-instruct" }
}

# T4 is previous-generation, but no current GPU with its bandwidth is cheaper (L4 has less
# bandwidth; L40S costs more per hour).
# ok: gpu-previous-generation
resource "aws_instance" "t4" {
  instance_type = "g4dn.xlarge"
}

# A current-generation GPU.
# ok: gpu-previous-generation
resource "aws_instance" "l4" {
  instance_type = "g6.xlarge"
}

# Azure sells no cheaper current-generation NVIDIA GPU than this V100 in eastus.
# ok: gpu-previous-generation
resource "azurerm_linux_virtual_machine" "v100" {
  name     = "v100"
  size     = "Standard_NC6s_v3"
  location = "eastus"
}

variable "gpu_type" {
  type = string
}

# Instance type unknown: reported as not evaluated.
# ok: gpu-previous-generation
resource "aws_instance" "unknown" {
  instance_type = var.gpu_type
}

# Not a GPU: generations do not apply.
# ok: gpu-previous-generation
resource "aws_instance" "neuron" {
  instance_type = "inf2.xlarge"
}
