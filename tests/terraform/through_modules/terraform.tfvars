team = "ml"

stacks = {
  spot = {
    spot  = true
    nodes = 2
    sizes = { aws = "g5.xlarge", gcp = "g2-standard-8", azure = "Standard_NC4as_T4_v3", tpu = "v3-8" }
  }
  ondemand = {
    spot  = false
    nodes = 1
    sizes = { aws = "g5.12xlarge", gcp = "a2-highgpu-1g", azure = "Standard_NC24ads_A100_v4", tpu = "v2-8" }
  }
}
