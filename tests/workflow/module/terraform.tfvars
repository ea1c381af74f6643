gpu_type = "p4d.24xlarge"
