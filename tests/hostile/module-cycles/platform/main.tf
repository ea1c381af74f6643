# A platform root calling a GPU pool module whose node-group submodule calls the pool back:
# Terraform refuses the cycle; gpulint reports it and keeps the pool's own GPU instances.
module "gpu_pool" {
  source = "../gpu-pool"
}
