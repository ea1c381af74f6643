prefix = "teaching"

# CPU only: a GPU block that is switched off is not a GPU pool.
notebook_nodes = {
  "small" : {
    min : 0,
    max : 50,
    machine_type : "n2-highmem-4",
    gpu : {
      enabled : false,
      type : "nvidia-tesla-t4",
    }
  },
}
