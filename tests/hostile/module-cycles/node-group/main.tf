module "pool" {
  source = "../gpu-pool"
  count  = 3
}
