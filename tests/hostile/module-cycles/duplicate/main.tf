module "gpu_nodes" {
  source = "../shared-nodes"
}
