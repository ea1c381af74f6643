variable "gpu_type" {
  type    = string
  default = "p4d.24xlarge"
}

locals {
  tags = { team = "ml", project = "llm", env = "prod" }
}
