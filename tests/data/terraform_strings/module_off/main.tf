# A root module whose GPU node groups live in local child modules, each switched off by
# default: the calls pass only toggles and names, the machine types are inside the modules.
variable "enable_gpu_nodes" {
  description = "Create the GPU node group for inference"
  type        = bool
  default     = false
}

variable "training_pools" {
  description = "GKE GPU pools for training, by name"
  type        = map(object({ node_count = number }))
  default     = {}
}

module "gpu_nodes" {
  source = "./modules/gpu_pool"
  count  = var.enable_gpu_nodes ? 1 : 0

  cluster_name = "inference"
}

module "training_pool" {
  source   = "./modules/gke_gpu"
  for_each = var.training_pools

  name       = each.key
  node_count = each.value.node_count
}
