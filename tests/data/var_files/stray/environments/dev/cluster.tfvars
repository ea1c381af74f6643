# made-up: a CPU-only environment
workers = { instance_types = ["m7i.large"], desired = 1 }
