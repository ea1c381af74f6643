training_instance_type = "p4d.24xlarge"
