resource "google_container_cluster" "gemma" {
  name                     = "gemma-l4"
  location                 = "europe-west4"
  remove_default_node_pool = true
  initial_node_count       = 1
  deletion_protection      = false
}

# One L4 per node: enough for Gemma 2 9B in bf16.
resource "google_container_node_pool" "l4" {
  name       = "l4-pool"
  cluster    = google_container_cluster.gemma.name
  location   = "europe-west4"
  node_locations = ["europe-west4-a"]

  autoscaling {
    min_node_count = 1
    max_node_count = 3
  }

  node_config {
    machine_type = "g2-standard-8"
    guest_accelerator {
      type  = "nvidia-l4"
      count = 1
      gpu_driver_installation_config {
        gpu_driver_version = "LATEST"
      }
    }
    labels = {
      team    = "genai"
      project = "gemma"
      env     = "dev"
    }
  }
}
