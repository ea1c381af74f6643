# ruleid: gpu-training-on-demand
resource "google_compute_instance" "trainer" {
  name         = "trainer"
  machine_type = "a2-highgpu-8g"
  zone         = "us-central1-a"
  labels       = { workload = "training" }
}

# ok: gpu-training-on-demand
resource "google_compute_instance" "spot_trainer" {
  name         = "spot-trainer"
  machine_type = "n1-standard-16"
  zone         = "us-central1-a"
  labels       = { workload = "training" }
  guest_accelerator {
    type  = "nvidia-tesla-t4"
    count = 4
  }
  scheduling {
    provisioning_model = "SPOT"
    preemptible        = true
  }
}

# ok: gpu-training-on-demand
resource "google_container_node_pool" "batch_spot" {
  name     = "batch"
  location = "us-central1-a"
  node_count = 2
  node_config {
    machine_type = "g2-standard-8"
    spot         = true
    labels       = { workload = "batch" }
  }
}

# ruleid: gpu-training-on-demand
resource "azurerm_linux_virtual_machine" "trainer" {
  name     = "trainer"
  location = "eastus"
  size     = "Standard_NC24ads_A100_v4"
  tags     = { workload = "training" }
}

# ok: gpu-training-on-demand
resource "azurerm_kubernetes_cluster_node_pool" "train_spot" {
  name     = "trainspot"
  vm_size  = "Standard_NC24ads_A100_v4"
  priority = "Spot"
  node_count = 1
  node_labels = { workload = "training" }
}
