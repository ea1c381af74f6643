# Managed notebook services: the idle shutdown is their own setting.
resource "aws_sagemaker_notebook_instance_lifecycle_configuration" "autostop" {
  name     = "autostop"
  on_start = base64encode(file("${path.module}/autostop.sh"))
}

# ok: gpu-notebook-without-shutdown
resource "aws_sagemaker_notebook_instance" "stops" {
  name                  = "a"
  role_arn              = "arn:aws:iam::123456789012:role/sm"
  instance_type         = "ml.g5.xlarge"
  lifecycle_config_name = aws_sagemaker_notebook_instance_lifecycle_configuration.autostop.name
}

# ruleid: gpu-notebook-without-shutdown
resource "aws_sagemaker_notebook_instance" "never_stops" {
  name          = "b"
  role_arn      = "arn:aws:iam::123456789012:role/sm"
  instance_type = "ml.g5.xlarge"
}

# ruleid: gpu-notebook-without-shutdown
resource "google_workbench_instance" "never_stops" {
  name     = "wb"
  location = "us-central1-a"
  gce_setup {
    machine_type = "g2-standard-8"
    metadata = {
      idle-timeout-seconds = "0"
    }
  }
}

# ok: gpu-notebook-without-shutdown
resource "google_workbench_instance" "stops" {
  name     = "wb2"
  location = "us-central1-a"
  gce_setup {
    machine_type = "g2-standard-8"
    metadata = {
      idle-timeout-seconds = "3600"
    }
  }
}

# ok: gpu-notebook-without-shutdown
resource "azurerm_machine_learning_compute_instance" "stops" {
  name                          = "ci"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = "Standard_NC4as_T4_v3"
  idle_time_before_shutdown     = "PT60M"
}

# ruleid: gpu-notebook-without-shutdown
resource "azurerm_machine_learning_compute_instance" "never_stops" {
  name                          = "ci2"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = "Standard_NC4as_T4_v3"
}

variable "idle" {}

# The idle timeout cannot be evaluated: not reported either way.
# ok: gpu-notebook-without-shutdown
resource "azurerm_machine_learning_compute_instance" "unknown" {
  name                          = "ci3"
  location                      = "eastus"
  machine_learning_workspace_id = "ws"
  virtual_machine_size          = "Standard_NC4as_T4_v3"
  idle_time_before_shutdown     = var.idle
}
