training_instance_type = "p5.48xlarge"
