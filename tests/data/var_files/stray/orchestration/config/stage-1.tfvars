nodepools = {
  nodepool-cpu = {
    machine_type = "n2-standard-2",
  },
  nodepool-gpu = {
    machine_type = "g2-standard-4",
    guest_accelerator = {
      type  = "nvidia-l4",
      count = 1,
    }
  }
}
