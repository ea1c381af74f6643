prefix = "ocean"
region = "us-central1"

notebook_nodes = {
  "medium" : {
    min : 0,
    max : 100,
    machine_type : "n2-highmem-16",
  },
  "gpu-t4" : {
    min : 0,
    max : 20,
    machine_type : "n1-standard-8",
    gpu : {
      enabled : true,
      type : "nvidia-tesla-t4",
      count : 1
    }
  },
}
