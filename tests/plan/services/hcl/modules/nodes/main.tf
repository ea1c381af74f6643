variable "size" {}

resource "azurerm_linux_virtual_machine" "vm" {
  name     = "vm"
  location = "eastus"
  size     = var.size
  priority = "Spot"
  tags     = { workload = "batch" }
}
