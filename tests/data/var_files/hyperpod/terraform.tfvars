instance_groups = [
  {
    name           = "instance-group-1"
    instance_type  = "ml.m5.12xlarge"
    instance_count = 1
  }
]
