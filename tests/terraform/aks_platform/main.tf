# A platform repository: the cluster list lives in a YAML file, decoded and fed to one
# module call per cluster.
variable "configfile" {
  type    = string
  default = "clusters.yaml"
}

locals {
  config   = yamldecode(file(var.configfile))
  clusters = { for c in local.config.clusters : c.name => c }
}

# H100 NVL in westeurope 9.08 × 1 node × 730 = 6628.40; at the maximum × 4 = 26513.60.
# expect: address='module.aks["inference-weu"].azurerm_kubernetes_cluster_node_pool.this["h100"]' instance.type=Standard_NC40ads_H100_v5 region=westeurope cost.count=1 cost.monthly=6628.4 cost.monthly_max=26513.6
# Spot T4 pool scaled to zero: nothing at the minimum.
# expect: address='module.aks["inference-weu"].azurerm_kubernetes_cluster_node_pool.this["t4"]' capacity=spot cost.monthly=0
# eastus 6.98 × 2 × 730 = 10190.80.
# expect: address='module.aks["training-eus"].azurerm_kubernetes_cluster_node_pool.this["h100"]' region=eastus cost.count=2 cost.monthly=10190.8
# expect-none: module.aks["inference-weu"].azurerm_kubernetes_cluster_node_pool.this["system2"]
module "aks" {
  for_each   = local.clusters
  source     = "./modules/aks"
  name       = each.key
  location   = each.value.location
  node_pools = try(each.value.node_pools, {})
}

# A path that leaves the scanned tree is never read.
# expect-note: outside the scanned tree
resource "azurerm_linux_virtual_machine" "from_outside" {
  name                = "outside"
  resource_group_name = "x"
  location            = "eastus"
  size                = yamldecode(file("../../../../etc/hostname")).size
}
