# made-up: an environment directory beside no Terraform, an instance type alone
workers = { instance_types = ["p5.48xlarge"], desired = 2 }
