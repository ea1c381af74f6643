variable "name" {
  type = string
}

variable "location" {
  type = string
}

variable "node_pools" {
  type = map(object({
    vm_size   = string
    min_count = optional(number, 0)
    max_count = optional(number, 1)
    priority  = optional(string, "Regular")
  }))
  default = {}
}

resource "azurerm_kubernetes_cluster" "this" {
  name                = var.name
  location            = var.location
  resource_group_name = "rg-${var.name}"
  dns_prefix          = var.name

  default_node_pool {
    name       = "system"
    vm_size    = "Standard_D4s_v5"
    node_count = 3
  }
}

resource "azurerm_kubernetes_cluster_node_pool" "this" {
  for_each              = var.node_pools
  name                  = each.key
  kubernetes_cluster_id = azurerm_kubernetes_cluster.this.id
  vm_size               = each.value.vm_size
  auto_scaling_enabled  = true
  node_count            = each.value.min_count
  min_count             = each.value.min_count
  max_count             = each.value.max_count
  priority              = each.value.priority
  node_taints           = each.value.vm_size == "Standard_D8s_v5" ? [] : ["nvidia.com/gpu=present:NoSchedule"]
}
