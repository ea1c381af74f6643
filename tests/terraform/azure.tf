# Azure VMs, scale sets, AKS pools and Azure ML compute.
variable "size" {}

# "East US" is the display name of eastus.
# expect: capacity=spot instance.type=Standard_NC6s_v3 gpu.model=V100 region=eastus cost.monthly=412.81
resource "azurerm_linux_virtual_machine" "spot" {
  name     = "spot"
  location = "East US"
  size     = "Standard_NC6s_v3"
  priority = "Spot"
}

# expect: capacity=on-demand region=westeurope cost.monthly=2790.79
resource "azurerm_windows_virtual_machine" "on_demand" {
  name     = "win"
  location = "westeurope"
  size     = "Standard_NC6s_v3"
}

# expect-note: size has no default
resource "azurerm_windows_virtual_machine" "unresolved" {
  name     = "x"
  location = "eastus"
  size     = var.size
}

# expect: capacity=spot cost.count=3 gpu.model=T4
resource "azurerm_linux_virtual_machine_scale_set" "spot" {
  name      = "vmss"
  location  = "eastus"
  sku       = "Standard_NC4as_T4_v3"
  instances = 3
  priority  = "Spot"
}

# expect: capacity=on-demand cost.count=2 cost.monthly=767.96
resource "azurerm_windows_virtual_machine_scale_set" "on_demand" {
  name      = "wvmss"
  location  = "eastus"
  sku       = "Standard_NC4as_T4_v3"
  instances = 2
}

# expect-note: size has no default
resource "azurerm_orchestrated_virtual_machine_scale_set" "unresolved" {
  name      = "flex"
  location  = "eastus"
  sku_name  = var.size
  instances = 1
}

# expect: address=azurerm_kubernetes_cluster.aks.default_node_pool instance.type=Standard_NC24ads_A100_v4 gpu.model=A100-80GB replicas.min=1 replicas.max=3 cost.count=1 tags.team=ml
resource "azurerm_kubernetes_cluster" "aks" {
  name     = "aks"
  location = "eastus"
  tags     = { team = "ml" }
  default_node_pool {
    name                 = "gpu"
    vm_size              = "Standard_NC24ads_A100_v4"
    auto_scaling_enabled = true
    min_count            = 1
    max_count            = 3
    node_count           = 1
  }
}

# expect-note: size has no default
resource "azurerm_kubernetes_cluster" "unresolved" {
  name     = "aks2"
  location = "eastus"
  default_node_pool {
    name       = "gpu"
    vm_size    = var.size
    node_count = 2
  }
}

# expect: capacity=spot replicas.min=0 shutdown=scale-to-zero cost.monthly=0
resource "azurerm_kubernetes_cluster_node_pool" "spot" {
  name                  = "spot"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.aks.id
  vm_size               = "Standard_NC4as_T4_v3"
  priority              = "Spot"
  auto_scaling_enabled  = true
  min_count             = 0
  max_count             = 5
}

# expect: capacity=on-demand cost.count=2
resource "azurerm_kubernetes_cluster_node_pool" "fixed" {
  name                  = "fixed"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.aks.id
  vm_size               = "Standard_NC4as_T4_v3"
  node_count            = 2
}

# expect-note: size has no default
resource "azurerm_kubernetes_cluster_node_pool" "unresolved" {
  name                  = "x"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.aks.id
  vm_size               = var.size
}

# expect: workload=notebook shutdown=idle capacity=on-demand cost.monthly=383.98
resource "azurerm_machine_learning_compute_instance" "idle" {
  name                          = "ci"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = "Standard_NC4as_T4_v3"
  idle_time_before_shutdown     = "PT30M"
}

# expect: workload=notebook shutdown=none
resource "azurerm_machine_learning_compute_instance" "always_on" {
  name                          = "ci2"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = "Standard_NC4as_T4_v3"
}

# expect-note: size has no default
resource "azurerm_machine_learning_compute_instance" "unresolved" {
  name                          = "ci3"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = var.size
}

# LowPriority is Azure ML's spot capacity.
# expect: capacity=spot replicas.min=0 replicas.max=4 shutdown=scale-to-zero cost.monthly_max=2180.43
resource "azurerm_machine_learning_compute_cluster" "low_priority" {
  name                          = "train"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = "Standard_NC24ads_A100_v4"
  vm_priority                   = "LowPriority"
  scale_settings {
    min_node_count                       = 0
    max_node_count                       = 4
    scale_down_nodes_after_idle_duration = "PT15M"
  }
}

# expect: capacity=on-demand replicas.min=1 cost.count=1 cost.monthly=2681.29
resource "azurerm_machine_learning_compute_cluster" "dedicated" {
  name                          = "serve"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = "Standard_NC24ads_A100_v4"
  vm_priority                   = "Dedicated"
  scale_settings {
    min_node_count = 1
    max_node_count = 2
  }
}

# expect: capacity=? why:capacity="size has no default"
resource "azurerm_machine_learning_compute_cluster" "unresolved" {
  name                          = "x"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = "Standard_NC24ads_A100_v4"
  vm_priority                   = var.size
  scale_settings {
    min_node_count = 0
    max_node_count = 1
  }
}

# expect: capacity=? why:capacity="size has no default" cost.count=2
resource "azurerm_linux_virtual_machine_scale_set" "unresolved" {
  name      = "vmss-x"
  location  = "eastus"
  sku       = "Standard_NC4as_T4_v3"
  instances = 2
  priority  = var.size
}

# A pool takes its region from the cluster that kubernetes_cluster_id refers to.
resource "azurerm_kubernetes_cluster" "weu" {
  name     = "aks-weu"
  location = "West Europe"
  default_node_pool {
    name       = "system"
    vm_size    = "Standard_D4s_v5"
    node_count = 1
  }
}

# expect: region=westeurope region.source=code cost.monthly=2790.79
resource "azurerm_kubernetes_cluster_node_pool" "weu_gpu" {
  name                  = "gpu"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.weu.id
  vm_size               = "Standard_NC6s_v3"
  node_count            = 1
}

variable "aks_location" {}

resource "azurerm_kubernetes_cluster" "somewhere" {
  name     = "aks-var"
  location = var.aks_location
  default_node_pool {
    name       = "system"
    vm_size    = "Standard_D4s_v5"
    node_count = 1
  }
}

# The cluster's location is an unset variable: the pool's region is unknown, not the default.
# expect: why:region="aks_location has no default"
resource "azurerm_kubernetes_cluster_node_pool" "somewhere_gpu" {
  name                  = "gpu"
  kubernetes_cluster_id = azurerm_kubernetes_cluster.somewhere.id
  vm_size               = "Standard_NC6s_v3"
  node_count            = 1
}

# A cluster id from outside the module (a variable): the default region, and the report says so.
# expect: region=eastus region.source=default
resource "azurerm_kubernetes_cluster_node_pool" "elsewhere" {
  name                  = "gpu"
  kubernetes_cluster_id = "/subscriptions/0000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/other"
  vm_size               = "Standard_NC6s_v3"
  node_count            = 1
}

# The usual Azure pattern: the location of the resource group, as written in its block.
# Standard_NC4as_T4_v3 in westeurope: 0.658 × 730.
resource "azurerm_resource_group" "ml" {
  name     = "ml-rg"
  location = "West Europe"
}

# expect: region=westeurope region.source=code cost.monthly=480.34
resource "azurerm_linux_virtual_machine" "in_group" {
  name                = "in-group"
  resource_group_name = azurerm_resource_group.ml.name
  location            = azurerm_resource_group.ml.location
  size                = "Standard_NC4as_T4_v3"
}

# An argument of one instance of an expanded resource is read from that instance.
resource "azurerm_resource_group" "many" {
  count    = 2
  name     = "rg-${count.index}"
  location = count.index == 0 ? "eastus" : "westus2"
}

# expect: region=eastus region.source=code
resource "azurerm_linux_virtual_machine" "in_counted_group" {
  name                = "in-counted-group"
  resource_group_name = "x"
  location            = azurerm_resource_group.many[0].location
  size                = "Standard_NC4as_T4_v3"
}

# A computed attribute is known only after apply.
# expect: why:region="'azurerm_resource_group.ml.id' is known only after apply"
resource "azurerm_linux_virtual_machine" "by_id" {
  name                = "by-id"
  resource_group_name = "x"
  location            = azurerm_resource_group.ml.id
  size                = "Standard_NC4as_T4_v3"
}
