restricted_instance_groups = [
  {
    name           = "rig-1",
    instance_type  = "ml.p5.48xlarge",
    instance_count = 2,
  }
]
