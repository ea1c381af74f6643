node_groups = { system = { instance_types = ["m6i.large"], size = 2 } }
