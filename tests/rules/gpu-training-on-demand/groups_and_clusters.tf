# Training on autoscaling groups, Batch, Azure ML clusters and Databricks.
resource "aws_launch_template" "trainer" {
  instance_type = "p4d.24xlarge"
}

# ruleid: gpu-training-on-demand
resource "aws_autoscaling_group" "trainers" {
  min_size = 1
  max_size = 4
  launch_template {
    id = aws_launch_template.trainer.id
  }
  tag {
    key                 = "workload"
    value               = "training"
    propagate_at_launch = true
  }
}

# Part spot, part on demand: already uses spot.
# ok: gpu-training-on-demand
resource "aws_autoscaling_group" "mixed_trainers" {
  min_size = 4
  max_size = 4
  mixed_instances_policy {
    instances_distribution {
      on_demand_base_capacity                  = 1
      on_demand_percentage_above_base_capacity = 0
    }
    launch_template {
      launch_template_specification {
        launch_template_id = aws_launch_template.trainer.id
      }
    }
  }
  tag {
    key                 = "workload"
    value               = "training"
    propagate_at_launch = true
  }
}

# Batch environments are batch work.
# ruleid: gpu-training-on-demand
resource "aws_batch_compute_environment" "gpu" {
  type = "MANAGED"
  compute_resources {
    type          = "EC2"
    instance_type = ["g5.12xlarge"]
    min_vcpus     = 48
    max_vcpus     = 96
    subnets       = ["subnet-1"]
  }
}

# ok: gpu-training-on-demand
resource "aws_batch_compute_environment" "gpu_spot" {
  type = "MANAGED"
  compute_resources {
    type          = "SPOT"
    instance_type = ["g5.12xlarge"]
    max_vcpus     = 96
    subnets       = ["subnet-1"]
  }
}

# ruleid: gpu-training-on-demand
resource "azurerm_machine_learning_compute_cluster" "train" {
  name                          = "train"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = "Standard_NC24ads_A100_v4"
  vm_priority                   = "Dedicated"
  scale_settings {
    min_node_count = 1
    max_node_count = 4
  }
}

# ok: gpu-training-on-demand
resource "azurerm_machine_learning_compute_cluster" "train_low_priority" {
  name                          = "train2"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  vm_size                       = "Standard_NC24ads_A100_v4"
  vm_priority                   = "LowPriority"
  scale_settings {
    min_node_count = 0
    max_node_count = 4
  }
}

# ruleid: gpu-training-on-demand
resource "databricks_cluster" "training" {
  cluster_name  = "training"
  spark_version = "15.4.x-gpu-ml-scala2.12"
  node_type_id  = "g5.12xlarge"
  num_workers   = 2
  aws_attributes {
    availability = "ON_DEMAND"
  }
}

# Availability left to the workspace default: not evaluated.
# ok: gpu-training-on-demand
resource "databricks_cluster" "training_default" {
  cluster_name  = "training2"
  spark_version = "15.4.x-gpu-ml-scala2.12"
  node_type_id  = "g5.12xlarge"
  num_workers   = 2
}
