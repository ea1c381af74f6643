gpu_type = "g6.xlarge"
