prefix = "climate"

notebook_nodes = {
  "a100" : {
    min : 1,
    max : 4,
    machine_type : "a2-highgpu-1g",
  },
}
