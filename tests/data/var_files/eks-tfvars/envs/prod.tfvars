node_groups = {
  system   = { instance_types = ["m6i.large"], size = 2 }
  training = { instance_types = ["p4d.24xlarge"], size = 1 }
}
