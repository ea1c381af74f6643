# AKS pools from a map, the size looked up with a null fallback: a pool that leaves vm_size out
# has no type at all. With AKS's documented GPU taint (sku=gpu) it is reported, not dropped.
variable "aks_pools" {
  default = {
    gpu = {
      node_taints = ["sku=gpu:NoSchedule"]
      node_labels = { workload = "inference" }
    }
    cpu = {
      vm_size     = "Standard_D8s_v5"
      node_taints = []
      node_labels = {}
    }
  }
}

resource "azurerm_kubernetes_cluster" "ml" {
  name                = "ml"
  location            = "eastus"
  resource_group_name = "ml"
  dns_prefix          = "ml"
  default_node_pool {
    name       = "system"
    vm_size    = "Standard_D4s_v5"
    node_count = 1
  }
}

# expect: address='azurerm_kubernetes_cluster_node_pool.pools["gpu"]' gpu.count=? why:instance.type="looks like GPU nodes (taint sku=gpu) but no instance type is set" gpu.count=?
# expect-none: azurerm_kubernetes_cluster_node_pool.pools["cpu"]
resource "azurerm_kubernetes_cluster_node_pool" "pools" {
  for_each              = var.aks_pools
  name                  = each.key
  kubernetes_cluster_id = azurerm_kubernetes_cluster.ml.id
  vm_size               = lookup(each.value, "vm_size", null)
  node_taints           = each.value.node_taints
  node_labels           = each.value.node_labels
  node_count            = 1
}

# GKE: the machine type comes from a variable; the pool's label names its accelerator.
variable "gke_gpu_machine" {
  type = string
}

# expect: gpu.count=? why:gpu.count="looks like GPU nodes (label cloud.google.com/gke-accelerator=nvidia-l4)"
resource "google_container_node_pool" "l4" {
  name     = "l4"
  cluster  = "ml"
  location = "us-central1-a"
  node_config {
    machine_type = var.gke_gpu_machine
    labels = {
      "cloud.google.com/gke-accelerator" = "nvidia-l4"
    }
  }
}
