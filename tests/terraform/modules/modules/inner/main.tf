variable "vms" {}

module "inner" {
  source = "../leaf"
  vms    = var.vms
}
