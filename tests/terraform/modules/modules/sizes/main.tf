variable "tier" {}

locals {
  types = { small = "g5.xlarge", large = "p5.48xlarge" }
}

output "gpu_type" {
  value = local.types[var.tier]
}

output "spot" {
  value = var.tier == "small"
}
