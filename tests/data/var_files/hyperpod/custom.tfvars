instance_groups = [
  {
    name           = "accelerated-instance-group-1",
    instance_type  = "ml.g5.8xlarge",
    instance_count = 2,
  }
]
