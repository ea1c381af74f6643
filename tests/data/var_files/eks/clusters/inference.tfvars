cluster_name = "inference"
node_groups = {
  system = {
    instance_types = ["m6i.large"]
    min_size       = 2
    max_size       = 3
    desired_size   = 2
  }
  serving = {
    instance_types = ["g5.2xlarge"]
    min_size       = 1
    max_size       = 4
    desired_size   = 1
  }
}
