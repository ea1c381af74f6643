resource "azurerm_linux_virtual_machine" "spot" {
  name                = "vm"
  resource_group_name = "rg"
  location            = "West Europe"
  size                = "Standard_NC24ads_A100_v4"
  priority            = "Spot"
  eviction_policy     = "Deallocate"
  tags                = { team = "vision" }
}

resource "azurerm_linux_virtual_machine" "unknown_region" {
  name                = "vm2"
  resource_group_name = "rg"
  location            = var.location
  size                = "standard_nc24ads_a100_v4"
}

variable "location" {
  type = string
}

resource "azurerm_kubernetes_cluster_node_pool" "autoscale" {
  name                  = "gpu"
  kubernetes_cluster_id = "id"
  vm_size               = "Standard_NC24ads_A100_v4"
  auto_scaling_enabled  = true
  min_count             = 0
  max_count             = 4
  node_count            = 1
}
