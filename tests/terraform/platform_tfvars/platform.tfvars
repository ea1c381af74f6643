cluster_name      = "ml-platform"
gpu_instance_type = "g6e.12xlarge"
