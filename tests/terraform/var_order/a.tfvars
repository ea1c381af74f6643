gpu_type = "g5.xlarge"
